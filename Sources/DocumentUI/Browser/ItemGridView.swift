import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// The grid: a GtkGridView over the browser's items (only the cells on screen exist), with
/// rubber-band, Ctrl and Shift selection, thumbnails behind placeholder icons, and a zoom.
@MainActor
final class ItemGridView {
    /// A scrolled window holding the grid: the widget to show.
    let scrolled: Widget
    let grid: Widget
    private let loader: ThumbnailLoader
    /// Cells by their list item, while GTK keeps them.
    private var cells: [UnsafeMutableRawPointer: GridCell] = [:]
    private var cellsByRoot: [UnsafeMutableRawPointer: GridCell] = [:]
    /// The items that arrived by a live change (a cell showing one animates it in).
    var arrivals: ArrivalLog?
    /// The keys of the items whose cells animated in, oldest first (for tests).
    private(set) var animatedArrivals: [String] = []

    /// The icon size, in logical pixels; changing it re-lays the cells on screen.
    var pixels: Int {
        didSet {
            guard pixels != oldValue else { return }
            for (listItem, cell) in cells {
                guard let item = ItemListObject.item(of: gtk_list_item_get_item(OpaquePointer(listItem)).map { UnsafeMutableRawPointer($0) })
                else { continue }
                cell.bind(item, pixels: pixels, loader: loader)
            }
            gtk_widget_queue_resize(grid)
        }
    }

    init(selection: OpaquePointer, loader: ThumbnailLoader, pixels: Int) {
        self.loader = loader
        self.pixels = pixels
        let factory = gtk_signal_list_item_factory_new()!
        g_object_ref(raw(selection))  // the grid takes the reference it is given
        grid = gtk_grid_view_new(selection, factory)
        // GTK 4.8 keeps cells for max-columns × 30 rows around the view: enough columns for a wide
        // screen at the smallest zoom, no more.
        gtk_grid_view_set_max_columns(cast(grid), 20)
        gtk_grid_view_set_min_columns(cast(grid), 1)
        gtk_grid_view_set_enable_rubberband(cast(grid), 1)
        gtk_widget_add_css_class(grid, "dossier-grid")
        setAccessibleName(grid, tr("Items"))
        scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(scrolled), grid)
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_hexpand(scrolled, 1)

        connectSignal(raw(factory), "setup") { [weak self] listItem in
            guard let self, let listItem else { return }
            MainActor.assumeIsolated {
                let cell = GridCell()
                gtk_list_item_set_child(OpaquePointer(listItem), cell.root)
                self.cells[listItem] = cell
                self.cellsByRoot[raw(cell.root)] = cell
            }
        }
        connectSignal(raw(factory), "bind") { [weak self] listItem in
            guard let self, let listItem else { return }
            MainActor.assumeIsolated {
                guard let cell = self.cells[listItem],
                      let item = ItemListObject.item(of: gtk_list_item_get_item(OpaquePointer(listItem)).map { UnsafeMutableRawPointer($0) })
                else { return }
                if cell.bind(item, pixels: self.pixels, loader: self.loader, arrivals: self.arrivals) {
                    self.animatedArrivals = (self.animatedArrivals + [item.key]).suffix(100)
                }
            }
        }
        connectSignal(raw(factory), "unbind") { [weak self] listItem in
            guard let self, let listItem else { return }
            MainActor.assumeIsolated { self.cells[listItem]?.unbind() }
        }
        connectSignal(raw(factory), "teardown") { [weak self] listItem in
            guard let self, let listItem else { return }
            MainActor.assumeIsolated {
                if let cell = self.cells.removeValue(forKey: listItem) {
                    cell.unbind()
                    self.cellsByRoot[raw(cell.root)] = nil
                }
            }
        }
        // The grid owns the factory (gtk_grid_view_new takes it).
    }

    /// Calls `handler` with the position the user activates (double click, Enter).
    func onActivate(_ handler: @escaping @MainActor (Int) -> Void) {
        connectNumberSignal(raw(grid), "activate") { position in
            MainActor.assumeIsolated { handler(Int(position)) }
        }
    }

    /// The cell showing the item at `url`, if it is on screen.
    func cell(showing url: URL) -> GridCell? {
        let key = url.path
        return cells.values.first { $0.item?.key == key }
    }

    /// The item under a point of the grid, if any.
    func item(at x: Double, _ y: Double) -> BrowserItem? {
        var node = gtk_widget_pick(grid, x, y, GTK_PICK_DEFAULT)
        while let current = node, current != grid {
            if let cell = cellsByRoot[raw(current)] { return cell.item }
            if let child = gtk_widget_get_first_child(current), let cell = cellsByRoot[raw(child)] { return cell.item }
            node = gtk_widget_get_parent(current)
        }
        return nil
    }

    /// Every cell bound now (for tests: what is painted).
    var boundItems: [BrowserItem] { cells.values.compactMap(\.item) }
}
