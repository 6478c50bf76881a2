import CGtk
import DocumentCore
import DocumentUI
import Foundation

/// The sheet the pointer draws on: a drag draws a stroke, which goes to the document when the
/// button is released. Drawn by `SketchDrawing`, as the thumbnails and previews are.
@MainActor
final class Canvas {
    let widget: WidgetPointer
    /// The drawing shown (the document's, plus the stroke being drawn).
    var sketch = Sketch() {
        didSet { gtk_widget_queue_draw(widget) }
    }
    /// Called with each finished stroke.
    var strokeDidEnd: ((Sketch.Stroke) -> Void)?

    private var current: Sketch.Stroke?
    private var start = (x: 0.0, y: 0.0)

    init() {
        widget = gtk_drawing_area_new()
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_vexpand(widget, 1)
        gtk_widget_set_size_request(widget, 320, 240)
        setAccessibleName(widget, tr("Canvas"))
        setDrawFunction(widget) { [weak self] cairo, width, height in
            guard let self else { return }
            var shown = self.sketch
            if let current = self.current { shown.strokes.append(current) }
            SketchDrawing.draw(shown, in: cairo, width: width, height: height)
        }
        let drag = gtk_gesture_drag_new()!
        onPoint(UnsafeMutableRawPointer(drag), "drag-begin") { [weak self] x, y in self?.begin(x, y) }
        onPoint(UnsafeMutableRawPointer(drag), "drag-update") { [weak self] dx, dy in self?.extend(dx, dy) }
        onPoint(UnsafeMutableRawPointer(drag), "drag-end") { [weak self] dx, dy in self?.end(dx, dy) }
        gtk_widget_add_controller(widget, drag)
    }

    /// A point of the widget in the sheet's coordinates.
    private func sheetPoint(_ x: Double, _ y: Double) -> [Double] {
        let width = Double(gtk_widget_get_width(widget)), height = Double(gtk_widget_get_height(widget))
        let scale = min(width / sketch.width, height / sketch.height)
        guard scale > 0 else { return [0, 0] }
        let left = (width - sketch.width * scale) / 2, top = (height - sketch.height * scale) / 2
        return [((x - left) / scale).rounded(), ((y - top) / scale).rounded()]
    }

    private func begin(_ x: Double, _ y: Double) {
        start = (x, y)
        let ink = Sketch.inks[sketch.strokes.count % Sketch.inks.count]
        current = Sketch.Stroke(color: ink, width: 8, points: [sheetPoint(x, y)])
        gtk_widget_queue_draw(widget)
    }

    private func extend(_ dx: Double, _ dy: Double) {
        let point = sheetPoint(start.x + dx, start.y + dy)
        guard current?.points.last != point else { return }
        current?.points.append(point)
        gtk_widget_queue_draw(widget)
    }

    private func end(_ dx: Double, _ dy: Double) {
        extend(dx, dy)
        guard let stroke = current else { return }
        current = nil
        sketch.strokes.append(stroke)
        strokeDidEnd?(stroke)
    }
}
