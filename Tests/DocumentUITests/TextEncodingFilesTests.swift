import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// Tables and Markdown in legacy encodings are read in their encoding, as plain text is:
/// a spreadsheet's CSV export in GB18030 or Windows-1252, Excel's UTF-16 "Unicode text".
final class TextEncodingFilesTests: XCTestCase {
    private func cells(_ table: DelimitedTable) -> [[String]] {
        (0..<table.rowCount).map { row in (0..<table.cellCount(row: row)).map { table.cell(row: row, column: $0) } }
    }

    private let rows = [
        ["城市", "人口", "说明"],
        ["北京", "2189万", "中华人民共和国的首都，政治中心和文化中心"],
        ["上海", "2487万", "最大的经济中心，有很多高楼和历史建筑"],
        ["广州", "1868万", "以美食闻名，每年都有成千上万的游客"],
    ]

    func testACSVInGB18030ShowsItsCells() throws {
        let folder = try TemporaryFolder()
        let text = rows.map { $0.joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
        let file = try folder.write("cities.csv", bytes: Array(try EncodedTexts.encoded(text, as: "GB18030")))
        let table = try DelimitedTable.load(file.rawPath, separator: nil)
        XCTAssertEqual(cells(table), rows)
        XCTAssertFalse(table.isTruncated)
    }

    func testATSVInUTF16WithAByteOrderMarkShowsItsCells() throws {
        let folder = try TemporaryFolder()
        let text = rows.map { $0.joined(separator: "\t") }.joined(separator: "\r\n") + "\r\n"
        let file = try folder.write("cities.tsv", bytes: [0xFF, 0xFE] + Array(try EncodedTexts.encoded(text, as: "UTF-16LE")))
        let table = try DelimitedTable.load(file.rawPath, separator: UInt8(ascii: "\t"))
        XCTAssertEqual(cells(table), rows)
    }

    func testAUTF8TableIsReadAsItWas() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("cities.csv", "\u{FEFF}" + rows.map { $0.joined(separator: ",") }.joined(separator: "\n"))
        XCTAssertEqual(cells(try DelimitedTable.load(file.rawPath, separator: nil)), rows)
    }

    func testMarkdownInWindows1252IsReadInIt() throws {
        let folder = try TemporaryFolder()
        let text = "# Café Müller\n\n" + EncodedTexts.western
        let file = try folder.write("notes.md", bytes: Array(try EncodedTexts.encoded(text, as: "WINDOWS-1252")))
        let document = try MarkdownDocument.load(file)
        XCTAssertEqual(document.source, text)
    }
}
