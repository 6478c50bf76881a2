import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The list: a GtkColumnView with Name (small icon), Size, Kind and Modified. Only the rows on
/// screen exist. Clicking a column's header sorts by it (again: reversed); the browser does
/// the sorting, the view only shows which column sorts.
@MainActor
final class ItemListView {
    let scrolled: WidgetPointer
    let columnView: WidgetPointer
    private var nameCells: [UnsafeMutableRawPointer: (cell: NameCell, item: BrowserItem?)] = [:]
    private var columns: [BrowserSort.Key: OpaquePointer] = [:]
    /// Items that arrived by a live change fade in, every cell of their row together.
    var arrivals: ArrivalLog?
    private var fades: [UnsafeMutableRawPointer: ArrivalAnimation] = [:]
    private var showingSort = false
    /// Called when the user clicks a header.
    var sortChanged: ((BrowserSort) -> Void)?

    init(selection: OpaquePointer) {
        g_object_ref(raw(selection))
        columnView = gtk_column_view_new(selection)
        gtk_column_view_set_show_row_separators(cast(columnView), 0)
        gtk_column_view_set_show_column_separators(cast(columnView), 0)
        gtk_column_view_set_enable_rubberband(cast(columnView), 1)
        gtk_widget_add_css_class(columnView, "data-table")
        setAccessibleName(columnView, tr("Items"))
        scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(scrolled), columnView)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_hexpand(scrolled, 1)

        addColumn(.name, title: tr("Name"), expand: true, setup: { NameCell().root }, bind: { _, _ in })
        addColumn(.size, title: tr("Size"), width: 110, setup: { makeCellLabel(alignment: 1, classes: ["numeric", "dim-label"]) },
                  bind: { widget, item in gtk_label_set_text(opaque(widget), ItemText.size(item)) })
        addColumn(.kind, title: tr("Kind"), width: 190, setup: { makeCellLabel(classes: ["dim-label"]) },
                  bind: { widget, item in gtk_label_set_text(opaque(widget), ItemText.kind(item)) })
        addColumn(.modified, title: tr("Modified"), width: 190, setup: { makeCellLabel(classes: ["numeric", "dim-label"]) },
                  bind: { widget, item in gtk_label_set_text(opaque(widget), ItemText.date(item.modified)) })

        if let sorter = gtk_column_view_get_sorter(cast(columnView)) {
            connectSignal(raw(sorter), "changed") { [weak self] (_: UnsafeMutableRawPointer?) in
                self?.headerClicked()
            }
        }
    }

    /// Starts a cell's fade when its item just arrived (the row's cells share one start).
    private func fadeIn(_ listItem: UnsafeMutableRawPointer, _ child: WidgetPointer, _ item: BrowserItem) {
        guard let start = arrivals?.animationStart(for: item.key, at: g_get_monotonic_time()) else {
            fades[listItem]?.stop()
            return
        }
        let fade = fades[listItem] ?? ArrivalAnimation(widget: child, scales: false)
        fades[listItem] = fade
        fade.stop()
        fade.run(from: start)
    }

    private func addColumn(_ key: BrowserSort.Key, title: String, width: Int32? = nil, expand: Bool = false,
                           setup: @escaping @MainActor () -> WidgetPointer, bind: @escaping @MainActor (WidgetPointer, BrowserItem) -> Void) {
        let factory = gtk_signal_list_item_factory_new()!
        let isName = key == .name
        connectSignal(raw(factory), "setup") { [weak self] listItem in
            guard let listItem else { return }
            if isName {
                let cell = NameCell()
                self?.nameCells[listItem] = (cell, nil)
                gtk_list_item_set_child(OpaquePointer(listItem), cell.root)
            } else {
                gtk_list_item_set_child(OpaquePointer(listItem), setup())
            }
        }
        connectSignal(raw(factory), "bind") { [weak self] listItem in
            guard let listItem else { return }
            let item = OpaquePointer(listItem)
            guard let child = gtk_list_item_get_child(item),
                  let value = ItemListObject.item(of: gtk_list_item_get_item(item).map { UnsafeMutableRawPointer($0) })
            else { return }
            if isName, let entry = self?.nameCells[listItem] {
                entry.cell.bind(value)
                self?.nameCells[listItem] = (entry.cell, value)
                setAccessibleNameOfListItem(holding: child, value.shownName)
                setAccessibleNameOfListItem(holding: child, value.shownName, levels: 2)
            } else {
                bind(child, value)
                setAccessibleNameOfListItem(holding: child, String(cString: gtk_label_get_text(opaque(child))))
            }
            self?.fadeIn(listItem, child, value)
        }
        connectSignal(raw(factory), "unbind") { [weak self] listItem in
            guard let listItem else { return }
            self?.fades[listItem]?.stop()
        }
        connectSignal(raw(factory), "teardown") { [weak self] listItem in
            guard let listItem else { return }
            if isName { _ = self?.nameCells.removeValue(forKey: listItem) }
            self?.fades.removeValue(forKey: listItem)?.stop()
        }
        let column = gtk_column_view_column_new(title, factory)!
        gtk_column_view_column_set_resizable(column, 1)
        if let width { gtk_column_view_column_set_fixed_width(column, width) }
        gtk_column_view_column_set_expand(column, expand ? 1 : 0)
        // A sorter makes the header clickable and shows the arrow; it is only ever asked by
        // `headerClicked`'s probe, which learns from it which column the user chose.
        let tag = UnsafeMutableRawPointer(bitPattern: BrowserSort.Key.allCases.firstIndex(of: key)! + 1)
        let sorter = gtk_custom_sorter_new({ _, _, data in
            HeaderProbe.lastKey = Int(bitPattern: data) - 1
            return GTK_ORDERING_SMALLER.rawValue
        }, tag, nil)
        gtk_column_view_column_set_sorter(column, cast(sorter))
        unref(sorter)
        gtk_column_view_append_column(cast(columnView), column)
        columns[key] = column
        g_object_unref(raw(column))
    }

    /// Shows `sort` as the sorting column and direction (nil: no column, the location's order).
    func show(_ sort: BrowserSort?) {
        showingSort = true
        gtk_column_view_sort_by_column(cast(columnView), sort.flatMap { columns[$0.key] },
                                       sort?.reversed == true ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING)
        showingSort = false
    }

    /// GTK 4.8 cannot say which column sorts: compare two objects with the view's sorter and
    /// see which column's sorter answers first, and whether its answer came back reversed.
    private func headerClicked() {
        guard !showingSort, let sorter = gtk_column_view_get_sorter(cast(columnView)) else { return }
        HeaderProbe.lastKey = nil
        let order = gtk_sorter_compare(sorter, HeaderProbe.first, HeaderProbe.second)
        guard let index = HeaderProbe.lastKey, index >= 0, index < BrowserSort.Key.allCases.count else { return }
        sortChanged?(BrowserSort(key: BrowserSort.Key.allCases[index], reversed: order == GTK_ORDERING_LARGER))
    }

    /// Calls `handler` with the position the user activates (double click, Enter).
    func onActivate(_ handler: @escaping @MainActor (Int) -> Void) {
        connectNumberSignal(raw(columnView), "activate") { position in
            handler(Int(position))
        }
    }

    /// The Name cell of the row showing `url`, if on screen.
    func nameCell(showing url: URL) -> NameCell? {
        let key = BrowserItem.key(for: url)
        return nameCells.values.first { $0.item?.key == key }?.cell
    }

    /// The icon of the row showing `url`, if on screen.
    func icon(showing url: URL) -> WidgetPointer? {
        let key = BrowserItem.key(for: url)
        return nameCells.values.first { $0.item?.key == key }?.cell.image
    }

    /// The item under a point of the column view, if any.
    func item(at x: Double, _ y: Double) -> BrowserItem? {
        var node = gtk_widget_pick(columnView, x, y, GTK_PICK_DEFAULT)
        while let current = node, current != columnView {
            if let entry = nameCells.values.first(where: { raw($0.cell.root) == raw(current) }) { return entry.item }
            // A row: its first cell holds the name cell.
            if let first = gtk_widget_get_first_child(current), let inner = gtk_widget_get_first_child(first),
               let entry = nameCells.values.first(where: { raw($0.cell.root) == raw(inner) }) {
                return entry.item
            }
            node = gtk_widget_get_parent(current)
        }
        return nil
    }
}

/// What the last column sorter probe answered (main thread only).
@MainActor
private enum HeaderProbe {
    nonisolated(unsafe) static var lastKey: Int?
    static let first = g_object_new_with_properties(dossier_gtk_type_object(), 0, nil, nil)
    static let second = g_object_new_with_properties(dossier_gtk_type_object(), 0, nil, nil)
}
