import DocumentCore
import Foundation

/// The cells of a CSV or TSV file, parsed per RFC 4180 (quoted fields with doubled quotes,
/// separators and line breaks inside quotes, CRLF or LF lines) and kept compactly: the text of
/// every cell, unquoted, in one byte array, with the offset where each cell ends and the index
/// of each row's first cell. A million rows of ten cells cost about the file's size plus 40 MB,
/// and a cell becomes a String only when a row scrolls into view.
package final class DelimitedTable: Sendable {
    /// Rows read at most besides the header; a note says when the file has more.
    static let rowLimit = 5_000_000
    /// Reading stops after this long too, well within the previewer's 15 s (a slow disk, a
    /// debug build): what was read is shown with the same note.
    static let timeLimit: Duration = .seconds(8)
    /// Columns shown at most: a column view builds a cell widget per column for each visible row.
    package static let columnLimit = 200
    /// A cell shows at most this many bytes.
    static let cellDisplayLimit = 1000

    private let text: [UInt8]
    private let cellEnds: [UInt32]
    /// The index in `cellEnds` of each row's first cell, and one past the last cell at the end.
    private let rowStarts: [UInt32]
    /// The most cells in any row.
    package let columnCount: Int
    /// True when the file had more rows than were read (`rowLimit`, `timeLimit`, or more text
    /// than an index can address).
    package let isTruncated: Bool
    /// The comment lines above the table (`# made by …`), kept out of its header row.
    package let comments: [String]

    /// The number of rows, the header row included.
    package var rowCount: Int { rowStarts.count - 1 }

    private init(text: [UInt8], cellEnds: [UInt32], rowStarts: [UInt32], columnCount: Int, isTruncated: Bool,
                 comments: [String]) {
        self.text = text
        self.cellEnds = cellEnds
        self.rowStarts = rowStarts
        self.columnCount = columnCount
        self.isTruncated = isTruncated
        self.comments = comments
    }

    /// The text of a cell; empty for a cell past the end of a short row.
    package func cell(row: Int, column: Int) -> String {
        guard row >= 0, row < rowCount, column >= 0 else { return "" }
        let first = Int(rowStarts[row]), end = Int(rowStarts[row + 1])
        let index = first + column
        guard index < end else { return "" }
        let start = index == 0 ? 0 : Int(cellEnds[index - 1])
        let stop = min(Int(cellEnds[index]), start + Self.cellDisplayLimit)
        return text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<stop]), as: UTF8.self) }
    }

    /// The number of cells a row has.
    package func cellCount(row: Int) -> Int {
        guard row >= 0, row < rowCount else { return 0 }
        return Int(rowStarts[row + 1] - rowStarts[row])
    }

    // MARK: Reading

    /// Reads and parses the file at `path`; `separator` nil guesses it from the first line.
    package static func load(_ path: FileSystemPath, separator: UInt8?) throws(PreviewError) -> DelimitedTable {
        let data: Data
        do {
            data = try Data(mappingFileAt: path)
        } catch {
            throw PreviewError(tr("The file could not be read: %s", String(cString: strerror(error.code.rawValue))))
        }
        let (text, isCut) = utf8(data)
        var table = text.withUnsafeBytes { raw in
            parse(raw.bindMemory(to: UInt8.self), separator: separator)
        }
        if isCut, !table.isTruncated {
            table = DelimitedTable(text: table.text, cellEnds: table.cellEnds, rowStarts: table.rowStarts,
                                   columnCount: table.columnCount, isTruncated: true, comments: table.comments)
        }
        guard table.rowCount > 0 else { throw PreviewError(tr("The table is empty.")) }
        return table
    }

    /// Decoded into UTF-8 at most: a table in another encoding is this much of a file.
    static let legacyLimit = 64 << 20

    /// The text reserved before parsing, at most.
    static let reserveLimit = 64 << 20

    /// The table's text in UTF-8. A UTF-8 file (nearly all) is parsed where it lies, mapped;
    /// one in another encoding (a spreadsheet's export in Windows-1252 or GB18030, Excel's
    /// UTF-16 "Unicode text") is decoded first, in the encoding its start is in, up to
    /// `legacyLimit` bytes cut after the last whole line (`isCut` then).
    static func utf8(_ data: Data) -> (text: Data, isCut: Bool) {
        let start = 64 << 10
        let encoding = TextEncoding.decode(data.prefix(start), isStartOfFile: data.count > start).encoding
        guard encoding != .utf8 else { return (data, false) }
        let isCut = data.count > legacyLimit
        let text = encoding.decode(data.prefix(legacyLimit))
        guard isCut, let lastLineEnd = text.utf8.lastIndex(of: newline) else { return (Data(text.utf8), isCut) }
        return (Data(text.utf8[...lastLineEnd]), true)
    }

    static let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")

    static func parse(_ input: UnsafeBufferPointer<UInt8>, separator: UInt8?) -> DelimitedTable {
        var bytes = input
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])  // a UTF-8 byte order mark
        }
        let commentEnd = leadingComments(bytes)
        let separator = separator ?? guessSeparator(UnsafeBufferPointer(rebasing: bytes[commentEnd...]))
        var comments: [String] = []
        if commentEnd > 0 {
            // Comments only when they hold fewer separators than the first row: "#,Name,Score"
            // is a header whose first column is "#".
            let fields = separators(in: UnsafeBufferPointer(rebasing: bytes[commentEnd...]), separator)
            var start = 0
            while start < commentEnd {
                let end = bytes[start..<commentEnd].firstIndex { $0 == newline || $0 == carriageReturn } ?? commentEnd
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                guard separators(in: line, separator) < fields else { break }
                if comments.count < commentLimit {
                    comments.append(String(decoding: line.prefix(cellDisplayLimit), as: UTF8.self))
                }
                start = end
                while start < commentEnd, bytes[start] == newline || bytes[start] == carriageReturn { start += 1 }
            }
            bytes = UnsafeBufferPointer(rebasing: bytes[start...])
        }
        let count = bytes.count
        var text: [UInt8] = []
        // Enough for most tables at once; a larger or sparse file (a gigabyte of zeros stored in
        // no blocks) grows as it is read, and never reserves its whole size up front.
        text.reserveCapacity(min(count, Self.reserveLimit))
        var cellEnds: [UInt32] = []
        var rowStarts: [UInt32] = [0]
        var columnCount = 0
        var isTruncated = false
        var cellIsQuoted = false
        var cellIsQuotedRow = false  // a row of one empty quoted cell ("") is a row
        var cellStart = 0  // where the current cell's text starts in `text`
        var index = 0
        let clock = ContinuousClock(), start = clock.now

        func endCell() {
            cellEnds.append(UInt32(text.count))
            cellIsQuoted = false
            cellStart = text.count
        }
        func endRow() {
            let first = Int(rowStarts[rowStarts.count - 1])
            let cells = cellEnds.count - first
            // A blank line is no row.
            if cells == 1, cellEnds[first] == (first == 0 ? 0 : cellEnds[first - 1]), !cellIsQuotedRow {
                cellEnds.removeLast()
                return
            }
            columnCount = max(columnCount, cells)
            rowStarts.append(UInt32(cellEnds.count))
        }

        while index < count {
            // The unquoted stretch up to the next special byte is copied in one go.
            var stop = index
            while stop < count {
                let byte = bytes[stop]
                if byte == separator || byte == newline || byte == carriageReturn || byte == quote { break }
                stop += 1
            }
            if stop > index {
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<stop]))
                index = stop
                if index >= count { break }
            }
            let byte = bytes[index]
            if byte == quote && text.count == cellStart && !cellIsQuoted {
                // A quoted field: up to the lone closing quote; "" is a quote.
                cellIsQuoted = true
                cellIsQuotedRow = true
                index += 1
                while index < count {
                    let inner = bytes[index]
                    if inner == quote {
                        if index + 1 < count, bytes[index + 1] == quote {
                            text.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    // Copy up to the next quote at once.
                    var end = index
                    while end < count, bytes[end] != quote { end += 1 }
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                    index = end
                }
            } else if byte == separator {
                endCell()
                index += 1
            } else if byte == newline || byte == carriageReturn {
                endCell()
                endRow()
                cellIsQuotedRow = false
                index += 1
                if byte == carriageReturn, index < count, bytes[index] == newline { index += 1 }
                let rows = rowStarts.count - 1
                if rows > rowLimit || text.count > Int(UInt32.max) - (1 << 20)
                    || (rows % 65_536 == 0 && clock.now - start > timeLimit) {
                    isTruncated = index < count
                    break
                }
            } else {
                text.append(byte)  // a quote inside an unquoted field is text
                index += 1
            }
        }
        if index >= count, cellEnds.count > Int(rowStarts[rowStarts.count - 1]) || text.count > cellStart || cellIsQuoted {
            endCell()  // the last line had no line break
            endRow()
        }
        return DelimitedTable(text: text, cellEnds: cellEnds, rowStarts: rowStarts, columnCount: columnCount,
                              isTruncated: isTruncated, comments: comments)
    }

    /// Comment lines kept at most.
    static let commentLimit = 20

    /// Where the lines starting with "#" at the top end: where the first other line starts (0 when
    /// the first line is no comment, or when every line is one).
    static func leadingComments(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        let hash = UInt8(ascii: "#")
        while index < bytes.count, bytes[index] == hash {
            while index < bytes.count, bytes[index] != newline, bytes[index] != carriageReturn { index += 1 }
            while index < bytes.count, bytes[index] == newline || bytes[index] == carriageReturn { index += 1 }
        }
        return index < bytes.count ? index : 0
    }

    /// The separators outside quotes on the first line of `bytes`.
    static func separators(in bytes: UnsafeBufferPointer<UInt8>, _ separator: UInt8) -> Int {
        var count = 0
        var inQuotes = false
        for byte in bytes.prefix(65_536) {
            if byte == quote { inQuotes.toggle() }
            if inQuotes { continue }
            if byte == newline || byte == carriageReturn { break }
            if byte == separator { count += 1 }
        }
        return count
    }

    /// The most frequent of comma, semicolon and tab outside quotes on the first line.
    static func guessSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]
        let counts = candidates.map { separators(in: bytes, $0) }
        let best = counts.indices.max { counts[$0] < counts[$1] } ?? 0
        return counts[best] > 0 ? candidates[best] : candidates[0]
    }
}
