import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The grid: a GtkGridView over the browser's items (only the cells on screen exist), with
/// rubber-band, Ctrl and Shift selection, thumbnails behind placeholder icons, and a zoom.
@MainActor
final class ItemGridView {
    /// A scrolled window holding the grid: the widget to show.
    let scrolled: WidgetPointer
    let grid: WidgetPointer
    private let wheelSteps: WheelSteps
    private let loader: ThumbnailLoader
    /// When the cells ask for their thumbnails.
    let requests: ThumbnailRequests
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
                requests.schedule(cell)
            }
            gtk_widget_queue_resize(grid)
            fitColumnsSoon()
        }
    }
    /// The grid's width when the columns were last fitted to it.
    private var fittedWidth: Int32 = -1
    private var fitPending = false

    init(selection: OpaquePointer, loader: ThumbnailLoader, pixels: Int) {
        self.loader = loader
        self.pixels = pixels
        let factory = gtk_signal_list_item_factory_new()!
        g_object_ref(raw(selection))  // the grid takes the reference it is given
        grid = gtk_grid_view_new(selection, factory)
        requests = ThumbnailRequests(loader: loader, grid: grid)
        // GTK 4.8 keeps cells for max-columns × 32 rows around the view, all of them bound, laid
        // out and (when scrolling fast) rebound every frame: max-columns follows the columns
        // that fit (`fitColumns`); until the first allocation, those of the widest monitor.
        gtk_grid_view_set_max_columns(cast(grid), guint(Self.columnsForWidestMonitor()))
        gtk_grid_view_set_min_columns(cast(grid), 1)
        gtk_grid_view_set_enable_rubberband(cast(grid), 1)
        gtk_widget_add_css_class(grid, "dossier-grid")
        setAccessibleName(grid, tr("Items"))
        scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(scrolled), grid)
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_hexpand(scrolled, 1)
        wheelSteps = WheelSteps(scrolled: scrolled)

        connectSignal(raw(factory), "setup") { [weak self] listItem in
            guard let self, let listItem else { return }
            let cell = GridCell()
            gtk_list_item_set_child(OpaquePointer(listItem), cell.root)
            self.cells[listItem] = cell
            self.cellsByRoot[raw(cell.root)] = cell
        }
        connectSignal(raw(factory), "bind") { [weak self] listItem in
            guard let self, let listItem else { return }
            guard let cell = self.cells[listItem],
                  let item = ItemListObject.item(of: gtk_list_item_get_item(OpaquePointer(listItem)).map { UnsafeMutableRawPointer($0) })
            else { return }
            if cell.bind(item, pixels: self.pixels, loader: self.loader, arrivals: self.arrivals) {
                self.animatedArrivals = (self.animatedArrivals + [item.key]).suffix(100)
            }
            self.requests.schedule(cell)
        }
        connectSignal(raw(factory), "unbind") { [weak self] listItem in
            guard let self, let listItem else { return }
            guard let cell = self.cells[listItem] else { return }
            cell.unbind()
            self.requests.forget(cell)
        }
        connectSignal(raw(factory), "teardown") { [weak self] listItem in
            guard let self, let listItem else { return }
            if let cell = self.cells.removeValue(forKey: listItem) {
                cell.unbind()
                self.requests.forget(cell)
                self.cellsByRoot[raw(cell.root)] = nil
            }
        }
        // The grid owns the factory (gtk_grid_view_new takes it).
        // The grid sets its horizontal adjustment's page to its width on each allocation.
        if let adjustment = gtk_scrollable_get_hadjustment(cast(grid)) {
            connectSignal(raw(adjustment), "changed") { [weak self] in
                guard let self, gtk_widget_get_width(self.grid) != self.fittedWidth else { return }
                self.fitColumnsSoon()
            }
        }
    }

    // MARK: Columns

    /// Fits max-columns after the current layout (never during an allocation).
    private func fitColumnsSoon() {
        guard !fitPending else { return }
        fitPending = true
        DispatchQueue.main.async { [weak self] in
            self?.fitPending = false
            self?.fitColumns()
        }
    }

    /// Sets max-columns to the columns of the grid's width, so GtkGridView keeps no more cells
    /// than its rows need: as many as it would show with any larger maximum.
    private func fitColumns() {
        let width = gtk_widget_get_width(grid)
        guard width > 0, let cell = cells.values.first(where: { $0.item != nil }),
              let child = gtk_widget_get_parent(cell.root) else { return }
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        guard natural > 0 else { return }
        fittedWidth = width
        let columns = guint(max(1, width / natural))
        if gtk_grid_view_get_max_columns(cast(grid)) != columns {
            gtk_grid_view_set_max_columns(cast(grid), columns)
        }
    }

    /// The columns of cells at the smallest zoom that the widest monitor could show.
    private static func columnsForWidestMonitor() -> Int {
        var widest: Int32 = 0
        if let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display) {
            for index in 0..<g_list_model_get_n_items(monitors) {
                guard let monitor = g_list_model_get_item(monitors, index) else { continue }
                var geometry = GdkRectangle()
                gdk_monitor_get_geometry(OpaquePointer(monitor), &geometry)
                widest = max(widest, geometry.width)
                g_object_unref(monitor)
            }
        }
        let narrowestCell = max(BrowserZoom.iconSizes[0] + 24, 112) + 12 + 6  // margins, the grid's child padding
        return max(1, Int(widest > 0 ? widest : 1920) / narrowestCell)
    }

    /// Calls `handler` with the position the user activates (double click, Enter).
    func onActivate(_ handler: @escaping @MainActor (Int) -> Void) {
        connectNumberSignal(raw(grid), "activate") { position in
            handler(Int(position))
        }
    }

    /// The cell showing the item at `url`, if it is on screen.
    func cell(showing url: URL) -> GridCell? {
        let key = BrowserItem.key(for: url)
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
