import XCTest

@testable import DocumentUI

/// A long text goes into its view a screenful first, cut only after a line break, with as
/// many lines as it takes for the line numbers to keep their width when the rest follows.
final class TextRendererTests: XCTestCase {
    func testTheFirstScreenEndsAfterTheLastLineBreakWithinTheLimit() {
        let (first, rest) = TextRenderer.split("one\ntwo\nthree\nfour", at: 10)
        XCTAssertEqual(first, "one\ntwo\n")
        XCTAssertEqual(rest, "three\nfour")
    }

    func testShortTextsAndTextsWithoutALineBreakAreNotCut() {
        XCTAssertEqual(TextRenderer.split("short\ntext", at: 64).1, "")
        XCTAssertEqual(TextRenderer.split(String(repeating: "x", count: 100), at: 10).1, "", "no line break: one piece")
    }

    func testCutsKeepEveryCharacter() {
        let text = (1...800).map { "ligne \($0) — déjà vu, 東京, 🙂\r\n" }.joined()
        let (first, rest) = TextRenderer.split(text, at: TextRenderer.firstScreen)
        XCTAssertLessThanOrEqual(first.utf8.count, TextRenderer.firstScreen)
        XCTAssertFalse(rest.isEmpty)
        XCTAssertTrue(first.hasSuffix("\r\n"))
        XCTAssertEqual(first + rest, text)
    }

    /// The 10 MB log of the benchmark: its first 16 KB are 200 lines (three-digit numbers),
    /// its first 256 KB 3,200 (four digits). The first part takes 1,000 lines, so that the
    /// text does not move a digit's width to the right when the rest comes.
    func testTheFirstPartHasLineNumbersAsWideAsTheWholeText() {
        let text = (1...3200).map { "2026-11-21 10:00:00 INFO request \($0) served in \($0 % 97) ms from cache\n" }.joined()
        let (first, rest) = TextRenderer.split(text, at: TextRenderer.firstScreen)
        XCTAssertEqual(first.filter { $0 == "\n" }.count + 1, 1000)
        XCTAssertFalse(rest.isEmpty)
        XCTAssertEqual(first + rest, text)
        let short = (1...3200).map { "\($0)\n" }.joined()  // 1,000 lines fit in 16 KB: cut there
        XCTAssertLessThanOrEqual(TextRenderer.split(short, at: TextRenderer.firstScreen).0.utf8.count, TextRenderer.firstScreen)
    }
}
