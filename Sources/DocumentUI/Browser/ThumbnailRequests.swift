import CGtk
import Foundation
import GObjectSupport
import GtkSupport

/// When the grid's cells ask for their thumbnails: a cell bound to an item asks once it has
/// shown that item for a moment, so cells flying past while scrolling fast ask for nothing;
/// cells on screen ask before the ones GtkGridView keeps off screen around them, newest first.
/// One GLib timer serves every waiting cell (not a timer per bind: a grid scrolled fast binds
/// hundreds of cells a frame).
@MainActor
final class ThumbnailRequests {
    /// How long a cell shows an item before asking for its thumbnail.
    static let delay = 60_000  // µs

    private let loader: ThumbnailLoader
    /// The grid whose allocation tells which cells are on screen.
    private let grid: WidgetPointer
    /// Cells waiting, with the time (monotonic µs) they were bound to their item.
    private var waiting: [ObjectIdentifier: (cell: GridCell, since: Int)] = [:]
    private var timer: guint = 0
    /// Called when the last waiting cell has asked (the screenful and the cells around it are
    /// in the generator's queue): what background work waits for.
    var didAskForAll: (() -> Void)?

    /// Whether no bound cell waits to ask for its thumbnail.
    var isIdle: Bool { waiting.isEmpty }

    init(loader: ThumbnailLoader, grid: WidgetPointer) {
        self.loader = loader
        self.grid = grid
    }

    isolated deinit {
        if timer != 0 { g_source_remove(timer) }
    }

    /// `cell` was just bound: it asks for its thumbnail in a moment if it still shows the item.
    func schedule(_ cell: GridCell) {
        guard !cell.hasThumbnail else {
            forget(cell)
            return
        }
        waiting[ObjectIdentifier(cell)] = (cell, g_get_monotonic_time())
        startTimer(after: Self.delay)
    }

    /// `cell` is unbound or gone: it asks for nothing.
    func forget(_ cell: GridCell) {
        waiting[ObjectIdentifier(cell)] = nil
    }

    private func startTimer(after microseconds: Int) {
        guard timer == 0 else { return }
        // Below the frame clock's priority: asking never delays a frame being laid out or drawn.
        let milliseconds = guint(max(1, (microseconds + 999) / 1000))
        timer = MainLoopTimer.start(priority: G_PRIORITY_DEFAULT_IDLE, milliseconds: milliseconds) { [weak self] in
            self?.fire() ?? false
        }
    }

    /// Asks for the thumbnails of the cells that waited long enough; false ends the timer.
    private func fire() -> Bool {
        timer = 0
        let now = g_get_monotonic_time()
        let threshold = now - Self.delay
        var due: [(cell: GridCell, onScreen: Bool)] = []
        var nextDue = Int.max
        for (key, entry) in waiting {
            if entry.since <= threshold {
                waiting[key] = nil
                due.append((entry.cell, isOnScreen(entry.cell)))
            } else {
                nextDue = min(nextDue, entry.since + Self.delay)
            }
        }
        // Off-screen cells first, so the cells on screen are the newest of the urgent requests.
        for entry in due where !entry.onScreen { entry.cell.requestThumbnail(from: loader, urgent: false) }
        for entry in due where entry.onScreen { entry.cell.requestThumbnail(from: loader, urgent: true) }
        if nextDue != .max {
            startTimer(after: max(nextDue - now, 1000))
        } else {
            didAskForAll?()
        }
        return false
    }

    /// Whether any of `cell` lies inside the grid's visible area (GtkGridView places its
    /// children relative to the scrolled view).
    private func isOnScreen(_ cell: GridCell) -> Bool {
        guard gtk_widget_get_mapped(cell.root) != 0 else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(cell.root, grid, &bounds) != 0 else { return false }
        let height = Float(gtk_widget_get_height(grid)), width = Float(gtk_widget_get_width(grid))
        return bounds.origin.y + bounds.size.height > 0 && bounds.origin.y < height
            && bounds.origin.x + bounds.size.width > 0 && bounds.origin.x < width
    }
}
