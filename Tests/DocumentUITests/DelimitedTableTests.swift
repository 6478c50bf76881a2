import XCTest

@testable import DocumentUI

/// CSV and TSV parsing per RFC 4180, as the table shows the cells.
final class DelimitedTableTests: XCTestCase {
    private func parse(_ text: String, separator: UInt8? = nil) -> [[String]] {
        let bytes = Array(text.utf8)
        let table = bytes.withUnsafeBufferPointer { DelimitedTable.parse($0, separator: separator) }
        return (0..<table.rowCount).map { row in (0..<table.cellCount(row: row)).map { table.cell(row: row, column: $0) } }
    }

    func testQuotedFieldsHoldSeparatorsQuotesAndLineBreaks() {
        XCTAssertEqual(parse("a,b,c\r\n1,\"x, y\",\"say \"\"hi\"\"\"\r\n2,\"two\nlines\",\r\n"), [
            ["a", "b", "c"], ["1", "x, y", "say \"hi\""], ["2", "two\nlines", ""],
        ])
    }

    func testLastLineWithoutBreakBlankLinesAndByteOrderMark() {
        XCTAssertEqual(parse("\u{FEFF}h1,h2\n\n1,2\n\n3,4"), [["h1", "h2"], ["1", "2"], ["3", "4"]])
        XCTAssertEqual(parse("a\n\"\"\n"), [["a"], [""]], "a quoted empty cell is a row")
    }

    func testSeparatorIsGuessedOrGiven() {
        XCTAssertEqual(parse("a;b;c\n1;2,5;3\n"), [["a", "b", "c"], ["1", "2,5", "3"]])
        XCTAssertEqual(parse("a\tb\n1\t2\n", separator: UInt8(ascii: "\t")), [["a", "b"], ["1", "2"]])
    }

    func testRowsOfDifferentLengthsAndStrayQuotes() {
        let rows = parse("a,b\n1\n1,2,3\nx\"y,\"unterminated")
        XCTAssertEqual(rows, [["a", "b"], ["1"], ["1", "2", "3"], ["x\"y", "unterminated"]])
        let table = Array("a,b\n1\n1,2,3\n".utf8).withUnsafeBufferPointer { DelimitedTable.parse($0, separator: nil) }
        XCTAssertEqual(table.columnCount, 3)
        XCTAssertEqual(table.cell(row: 1, column: 2), "", "a short row has empty cells")
    }

    func testCommentLinesAboveTheTableAreKeptOutOfItsHeader() {
        let text = "# exported by a tool, version 2\n# units: metres\nname,height,width\nbox,1,2\n"
        XCTAssertEqual(parse(text), [["name", "height", "width"], ["box", "1", "2"]])
        let table = Array(text.utf8).withUnsafeBufferPointer { DelimitedTable.parse($0, separator: nil) }
        XCTAssertEqual(table.comments, ["# exported by a tool, version 2", "# units: metres"])
        // A header whose first column is "#" (a row number) is a header.
        XCTAssertEqual(parse("#,Name,Score\n1,Ann,9\n"), [["#", "Name", "Score"], ["1", "Ann", "9"]])
        // A file of nothing but comment lines is shown as it is.
        XCTAssertEqual(parse("# a\n# b\n"), [["# a"], ["# b"]])
        // The separator is guessed from the first row, not from a comment full of commas.
        XCTAssertEqual(parse("# a, b, c, d\nx;y\n1;2\n"), [["x", "y"], ["1", "2"]])
    }
}
