import CGtk
import GObjectSupport
import GtkSupport

/// A GtkColumnView over `PositionListModel`: each column builds its cell widget once per
/// recycled row (`setup`) and fills it for a position (`bind`), so only the rows on screen
/// exist as widgets however many rows there are. Single selection; Enter or a double click
/// activates a row.
@MainActor
final class VirtualTable {
    /// The column view (inside `scrolled`).
    let columnView: WidgetPointer
    /// A scrolled window holding the column view: the widget to put in a page.
    let scrolled: WidgetPointer
    let positions: PositionListModel
    private let selection: OpaquePointer

    init(count: Int) {
        positions = PositionListModel(count: count)
        g_object_ref(raw(positions.model))  // the selection model takes a reference of its own
        selection = gtk_single_selection_new(positions.model)
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
        g_object_ref(raw(selection))  // the column view takes one; this wrapper keeps one
        columnView = gtk_column_view_new(selection)
        gtk_column_view_set_show_row_separators(cast(columnView), 0)
        gtk_column_view_set_show_column_separators(cast(columnView), 1)
        gtk_widget_add_css_class(columnView, "data-table")
        scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(scrolled), columnView)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_hexpand(scrolled, 1)
    }

    isolated deinit { g_object_unref(raw(selection)) }

    /// Adds a column. `setup` makes the cell widget; `bind` fills it for a position.
    func addColumn(title: String, width: Int32? = nil, expand: Bool = false,
                   setup: @escaping @MainActor () -> WidgetPointer,
                   bind: @escaping @MainActor (WidgetPointer, Int) -> Void) {
        let factory = gtk_signal_list_item_factory_new()!
        connectSignal(raw(factory), "setup") { listItem in
            guard let listItem else { return }
            gtk_list_item_set_child(OpaquePointer(listItem), setup())
        }
        connectSignal(raw(factory), "bind") { listItem in
            guard let listItem else { return }
            let item = OpaquePointer(listItem)
            guard let child = gtk_list_item_get_child(item),
                  let position = PositionListModel.position(of: gtk_list_item_get_item(item).map { UnsafeMutableRawPointer($0) })
            else { return }
            bind(child, position)
        }
        let column = gtk_column_view_column_new(title, factory)!
        gtk_column_view_column_set_resizable(column, 1)
        if let width { gtk_column_view_column_set_fixed_width(column, width) }
        gtk_column_view_column_set_expand(column, expand ? 1 : 0)
        gtk_column_view_append_column(cast(columnView), column)
        g_object_unref(raw(column))
    }

    /// Calls `handler` with the position of a row the user activates (Enter, double click).
    func onActivate(_ handler: @escaping @MainActor (Int) -> Void) {
        connectNumberSignal(raw(columnView), "activate") { position in
            handler(Int(position))
        }
    }

    /// The selected position, if any.
    var selectedPosition: Int? {
        let position = gtk_single_selection_get_selected(selection)
        return position == GTK_INVALID_LIST_POSITION ? nil : Int(position)
    }
}

/// A left-aligned, single-line, ellipsized label for a table cell.
@MainActor
func makeCellLabel(alignment: Float = 0, classes: [String] = []) -> WidgetPointer {
    let label = gtk_label_new(nil)!
    gtk_label_set_xalign(opaque(label), alignment)
    gtk_label_set_single_line_mode(opaque(label), 1)
    gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_END)
    for name in classes { gtk_widget_add_css_class(label, name) }
    return label
}
