import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// A column of pictures in a scrolled window (a PDF's pages, their thumbnails) where only the
/// pictures near the visible part hold their drawing; the others keep their size, empty,
/// until they are scrolled near.
///
/// GTK 4.8's cairo renderer converts every texture of a frame, pixel by pixel, whether it is
/// seen or not: with every page holding its drawing, each frame of a 50-page document
/// converted all 50 pages (~250 ms on each showing, and more with each page that arrived).
/// Attaching a drawing costs nothing until it is drawn, so it happens just before the frame
/// that shows it.
@MainActor
final class NearbyPictures {
    private struct Entry {
        let picture: Widget
        let texture: ObjectReference
        let height: Int32
    }

    private let scrolled: Widget
    private let content: Widget
    /// The room between two pictures' tops besides the pictures' own height (box spacing,
    /// labels, padding), for pictures not laid out yet.
    private let spacing: Double
    private var entries: [Entry] = []
    private var attached: Set<Int> = []
    private var updateScheduled = false

    /// `content` is the scrolled window's child that holds the pictures.
    init(scrolled: Widget, content: Widget, spacing: Double) {
        self.scrolled = scrolled
        self.content = content
        self.spacing = spacing
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))!
        for signal in ["value-changed", "changed"] {
            connectSignal(raw(adjustment), signal) { [weak self] () -> Void in self?.scheduleUpdate() }
        }
    }

    /// The adjustment changes while the window is laid out, where no picture may change: the
    /// update follows right after.
    private func scheduleUpdate() {
        guard !updateScheduled else { return }
        updateScheduled = true
        Task { @MainActor [weak self] in
            self?.updateScheduled = false
            self?.update()
        }
    }

    /// Adds a picture (already placed in `content`) for `texture`, `width` × `height` pixels.
    func append(_ picture: Widget, texture: ObjectReference, width: Int32, height: Int32) {
        gtk_picture_set_can_shrink(cast(picture), 0)
        // The picture's size with or without its drawing.
        gtk_widget_set_size_request(picture, width, height)
        entries.append(Entry(picture: picture, texture: texture, height: height))
        update()
    }

    func removeAll() {
        entries.removeAll()
        attached.removeAll()
    }

    /// Attaches the drawings of the pictures within a quarter screen of the visible part and
    /// takes the others' away.
    func update() {
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
        let top = gtk_adjustment_get_value(adjustment)
        // Before the first layout the page size is 0: a screen is assumed.
        let screen = max(gtk_adjustment_get_page_size(adjustment), 1000)
        let low = top - screen / 4, high = top + screen * 5 / 4
        var estimate = Double(gtk_widget_get_margin_top(content))
        for (index, entry) in entries.enumerated() {
            var y = 0.0, x = 0.0, width = 0.0, height = 0.0
            if dossier_widget_bounds(entry.picture, content, &x, &y, &width, &height) == 0 || height <= 0 {
                y = estimate  // not laid out yet
            }
            estimate = y + Double(entry.height) + spacing
            let near = y + Double(entry.height) >= low && y <= high
            guard near != attached.contains(index) else { continue }
            gtk_picture_set_paintable(cast(entry.picture), near ? OpaquePointer(entry.texture.pointer) : nil)
            if near { attached.insert(index) } else { attached.remove(index) }
        }
    }
}
