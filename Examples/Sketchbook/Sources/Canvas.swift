import DocumentCore
import DocumentUI
import Foundation

/// The sheet the pointer draws on: a drag draws a stroke, which goes to the document when the
/// button is released. Drawn by `SketchDrawing`, as the thumbnails and previews are.
@MainActor
final class Canvas {
    let area = DrawingArea()
    /// The drawing shown (the document's, plus the stroke being drawn).
    var sketch = Sketch() {
        didSet { area.redraw() }
    }
    /// Called with each finished stroke.
    var strokeDidEnd: ((Sketch.Stroke) -> Void)?

    private var current: Sketch.Stroke?
    private var start = (x: 0.0, y: 0.0)

    init() {
        area.expandsHorizontally = true
        area.expandsVertically = true
        area.setMinimumSize(width: 320, height: 240)
        area.setAccessibleName(tr("Canvas"))
        area.onDraw { [weak self] cairo, width, height in
            guard let self else { return }
            var shown = self.sketch
            if let current = self.current { shown.strokes.append(current) }
            SketchDrawing.draw(shown, in: cairo, width: width, height: height)
        }
        area.onDrag(began: { [weak self] x, y in self?.begin(x, y) },
                    moved: { [weak self] dx, dy in self?.extend(dx, dy) },
                    ended: { [weak self] dx, dy in self?.end(dx, dy) })
    }

    /// A point of the widget in the sheet's coordinates.
    private func sheetPoint(_ x: Double, _ y: Double) -> [Double] {
        let width = Double(area.width), height = Double(area.height)
        let scale = min(width / sketch.width, height / sketch.height)
        guard scale > 0 else { return [0, 0] }
        let left = (width - sketch.width * scale) / 2, top = (height - sketch.height * scale) / 2
        return [((x - left) / scale).rounded(), ((y - top) / scale).rounded()]
    }

    private func begin(_ x: Double, _ y: Double) {
        start = (x, y)
        let ink = Sketch.inks[sketch.strokes.count % Sketch.inks.count]
        current = Sketch.Stroke(color: ink, width: 8, points: [sheetPoint(x, y)])
        area.redraw()
    }

    private func extend(_ dx: Double, _ dy: Double) {
        let point = sheetPoint(start.x + dx, start.y + dy)
        guard current?.points.last != point else { return }
        current?.points.append(point)
        area.redraw()
    }

    private func end(_ dx: Double, _ dy: Double) {
        extend(dx, dy)
        guard let stroke = current else { return }
        current = nil
        sketch.strokes.append(stroke)
        strokeDidEnd?(stroke)
    }
}
