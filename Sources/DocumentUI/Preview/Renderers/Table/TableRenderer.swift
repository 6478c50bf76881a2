import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// CSV and TSV files as a table: the first row as the column titles, the rest in a column view
/// that makes widgets only for the rows on screen, so a million rows scroll as smoothly as ten.
/// The file is parsed off the main thread; a note under the table gives the size and says when
/// rows or columns were left out. Ctrl+C copies the selected row as tab-separated text.
@MainActor
package final class TableRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.csv, .tsv]

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    private let note: WidgetPointer
    private var table: DelimitedTable?
    private var virtualTable: VirtualTable?

    /// Makes a renderer that shows comma- or tab-separated values as a table.
    package init() {
        note = makeLabel("", classes: ["dim-label", "caption"])
        gtk_label_set_xalign(opaque(note), 0)
        gtk_widget_set_margin_start(note, 12)
        gtk_widget_set_margin_end(note, 12)
        gtk_widget_set_margin_top(note, 6)
        gtk_widget_set_margin_bottom(note, 6)
        rootView = dossier_group_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(cast(rootView), note)
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        let path = item.url.rawPath
        let separator: UInt8? = type.conforms(to: .tsv) ? UInt8(ascii: "\t") : nil
        let loaded = await Task.detached { () -> Result<DelimitedTable, PreviewError> in
            do throws(PreviewError) { return .success(try DelimitedTable.load(path, separator: separator)) } catch {
                return .failure(error)
            }
        }.value
        let table = try loaded.get()
        self.table = table
        show(table)
        let rows = table.rowCount - 1
        setAccessibleName(rootView, tr("Table of %s, %s rows", item.displayTitle, String(rows)))
        if let columnView = virtualTable?.columnView {
            setAccessibleName(columnView, tr("Rows of %s", item.displayTitle))
        }
    }

    private func show(_ table: DelimitedTable) {
        let rows = table.rowCount - 1
        let columns = min(table.columnCount, DelimitedTable.columnLimit)
        let virtualTable = VirtualTable(count: rows)
        self.virtualTable = virtualTable
        for column in 0..<columns {
            var title = table.cell(row: 0, column: column)
            if title.isEmpty { title = tr("Column %s", String(column + 1)) }
            // The last column takes what room is left.
            virtualTable.addColumn(title: title, width: Self.width(of: column, in: table), expand: column == columns - 1,
                                   setup: { makeCellLabel() },
                                   bind: { [weak table] label, position in
                                       gtk_label_set_text(opaque(label), table?.cell(row: position + 1, column: column) ?? "")
                                   })
        }
        gtk_box_prepend(cast(rootView), virtualTable.scrolled)

        var parts = [trn("%s row", "%s rows", rows, formattedCount(rows)), trn("%d column", "%d columns", table.columnCount)]
        if table.isTruncated { parts.append(tr("only the first %s rows are shown", formattedCount(rows))) }
        if table.columnCount > columns { parts.append(tr("only the first %s columns are shown", String(columns))) }
        // The comment lines above the table, as the file has them, then the counts.
        let comments = table.comments.map { VisibleName.of($0) }
        gtk_label_set_text(opaque(note), (comments + [parts.joined(separator: " · ")]).joined(separator: "\n"))
    }

    /// A column's width from its longest text in a sample of rows (the first, the last, and some
    /// in between), fixed so that it does not jump as rows scroll by.
    private static func width(of column: Int, in table: DelimitedTable) -> Int32 {
        let count = table.rowCount
        let step = max(count / 100, 1)
        let sample = Set(Array(0..<min(count, 100)) + Array(stride(from: 0, to: count, by: step)) + Array(max(count - 100, 0)..<count))
        var longest = 0
        for row in sample {
            longest = max(longest, table.cell(row: row, column: column).count)
        }
        return Int32(min(max(longest * 8 + 24, 60), 360))
    }


    package func copy() -> Bool {
        guard let table, let position = virtualTable?.selectedPosition else { return false }
        let row = position + 1
        let cells = (0..<table.cellCount(row: row)).map { table.cell(row: row, column: $0) }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(rootView), cells.joined(separator: "\t"))
        return true
    }
}

extension DocumentType {
    /// Tab-separated values.
    static let tsv = DocumentType(mimeType: "text/tab-separated-values")
}
