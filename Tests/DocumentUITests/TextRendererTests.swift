@testable import DocumentUI
import XCTest

/// A long text goes into its view a screenful first, cut only after a line break.
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
        let text = (1...3000).map { "ligne \($0) — déjà vu, 東京, 🙂\r\n" }.joined()
        let (first, rest) = TextRenderer.split(text, at: TextRenderer.firstScreen)
        XCTAssertLessThanOrEqual(first.utf8.count, TextRenderer.firstScreen)
        XCTAssertTrue(first.hasSuffix("\r\n"))
        XCTAssertEqual(first + rest, text)
    }
}
