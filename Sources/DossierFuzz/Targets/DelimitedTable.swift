import DocumentUI
import Foundation

extension FuzzTarget {
    /// The table previewer's reading of CSV (separator guessed) and TSV (tabs), and every
    /// cell of the rows it would show first.
    static let delimitedTable = FuzzTarget("csv", "CSV and TSV tables (DelimitedTable.load, cells)") { data in
        let path = ScratchFolder.write(data, to: "csv/input.csv").rawPath
        for separator in [nil, UInt8(ascii: "\t")] {
            guard let table = try? DelimitedTable.load(path, separator: separator) else { continue }
            expect(table.rowCount > 0, "a table was made with no rows")
            for row in 0..<min(table.rowCount, 200) {
                let count = table.cellCount(row: row)
                expect(count <= table.columnCount, "row \(row) has \(count) cells, more than the \(table.columnCount) columns")
                for column in 0...min(table.columnCount, DelimitedTable.columnLimit) {
                    _ = table.cell(row: row, column: column)
                }
            }
        }
    }
}
