import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Text selection on one drawn page: dragging across the page selects the characters whose
/// middle lies in the dragged rectangle (the text layout comes with the page from the worker, so
/// nothing touches the document on the main thread); they are highlighted, and `text` is what
/// Ctrl+C copies.
@MainActor
final class PageSelection {
    /// The page picture with the highlight drawn over it.
    let view: WidgetPointer
    private let highlight: WidgetPointer
    private let glyphs: [PDFGlyph]
    private var selected: [Int] = []
    private var start: (x: Double, y: Double) = (0, 0)
    var didChange: (() -> Void)?

    init(picture: WidgetPointer, glyphs: [PDFGlyph]) {
        self.glyphs = glyphs
        highlight = gtk_drawing_area_new()
        gtk_widget_set_can_target(highlight, 0)
        view = gtk_overlay_new()
        gtk_overlay_set_child(cast(view), picture)
        gtk_overlay_add_overlay(cast(view), highlight)
        setDrawFunction(of: cast(highlight)) { [weak self] context, _, _ in self?.draw(context) }
        guard !glyphs.isEmpty else { return }
        let drag = gtk_gesture_drag_new()!
        connectPairSignal(raw(drag), "drag-begin") { [weak self] x, y in self?.start = (x, y) }
        connectPairSignal(raw(drag), "drag-update") { [weak self] dx, dy in
            guard let self else { return }
            self.select(from: self.start, to: (self.start.x + dx, self.start.y + dy))
        }
        gtk_widget_add_controller(view, drag)
        gtk_widget_set_cursor_from_name(view, "text")
    }

    /// The selected text, in reading order.
    var text: String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: selected.map { glyphs[$0].scalar })
        return String(result)
    }

    func clear() {
        guard !selected.isEmpty else { return }
        selected = []
        gtk_widget_queue_draw(highlight)
    }

    private func select(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) {
        let left = min(a.x, b.x), right = max(a.x, b.x), top = min(a.y, b.y), bottom = max(a.y, b.y)
        selected = glyphs.indices.filter { index in
            let glyph = glyphs[index]
            let x = (glyph.x1 + glyph.x2) / 2, y = (glyph.y1 + glyph.y2) / 2
            return x >= left && x <= right && y >= top && y <= bottom
        }
        gtk_widget_queue_draw(highlight)
        didChange?()
    }

    private func draw(_ context: OpaquePointer?) {
        guard !selected.isEmpty else { return }
        cairo_set_source_rgba(context, 0.21, 0.52, 0.89, 0.35)  // the Adwaita accent, see-through
        for index in selected {
            let glyph = glyphs[index]
            cairo_rectangle(context, glyph.x1, glyph.y1, glyph.x2 - glyph.x1, glyph.y2 - glyph.y1)
        }
        cairo_fill(context)
    }
}
