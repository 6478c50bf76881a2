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

    /// A file named .txt that holds binary data is shown as its bytes, with a note, not as text
    /// cut at its first NUL.
    func testABinaryFileWithATextNameIsShownAsItsBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-binary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data([0x4D, 0x5A, 0x90, 0x00, 0x41, 0x42] + [UInt8](repeating: 0x2E, count: 20)).write(to: file)
        let read = try TextRenderer.read(file, type: .text).get()
        XCTAssertTrue(read.isBinary)
        XCTAssertEqual(read.text.split(separator: "\n").first,
                       "00000000  4d 5a 90 00 41 42 2e 2e  2e 2e 2e 2e 2e 2e 2e 2e  |MZ..AB..........|")
        XCTAssertEqual(read.text.split(separator: "\n").last, "00000010  2e 2e 2e 2e 2e 2e 2e 2e  2e 2e                    |..........|")
        // UTF-16 text has NULs and is text.
        let utf16 = folder.appendingPathComponent("wide.txt")
        try Data([0xFF, 0xFE] + Array("hello".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })).write(to: utf16)
        let wide = try TextRenderer.read(utf16, type: .text).get()
        XCTAssertFalse(wide.isBinary)
        XCTAssertEqual(wide.text, "hello")
    }
}
