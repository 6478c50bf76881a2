import CGtk
import DocumentCore
import Foundation

/// How a sketch looks, in one place: the canvas, the thumbnailer and the previewer all draw
/// through here, so Dossier shows a file as the app draws it.
enum SketchDrawing {
    /// The paper's colour (a warm white the tests look for in screenshots).
    static let paper = (red: 0.992, green: 0.965, blue: 0.890)

    /// Draws `sketch` into `cairo`, scaled to fill `width` × `height` with its sheet.
    static func draw(_ sketch: Sketch, in cairo: OpaquePointer, width: Double, height: Double) {
        let scale = min(width / sketch.width, height / sketch.height)
        cairo_save(cairo)
        cairo_translate(cairo, (width - sketch.width * scale) / 2, (height - sketch.height * scale) / 2)
        cairo_scale(cairo, scale, scale)
        cairo_set_source_rgb(cairo, paper.red, paper.green, paper.blue)
        cairo_rectangle(cairo, 0, 0, sketch.width, sketch.height)
        cairo_fill(cairo)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        for stroke in sketch.strokes {
            guard let first = stroke.points.first, let color = Color(hex: stroke.color) else { continue }
            cairo_set_source_rgb(cairo, color.red, color.green, color.blue)
            cairo_set_line_width(cairo, stroke.width)
            cairo_move_to(cairo, first[0], first[1])
            // A single point is a dot: a line of length zero with round caps.
            for point in stroke.points.count == 1 ? [first] : Array(stroke.points.dropFirst()) {
                cairo_line_to(cairo, point[0], point[1])
            }
            cairo_stroke(cairo)
        }
        cairo_restore(cairo)
    }

    /// Writes `sketch` as a PNG whose long side is `edge` pixels (the thumbnailer's `%s`, the
    /// previewer's picture). No display needed: this runs in Dossier's sandbox.
    static func writePNG(_ sketch: Sketch, edge: Int, to output: String, name: String) throws(SketchError) {
        let edge = Double(min(max(edge, 16), 4096))
        let scale = edge / max(sketch.width, sketch.height)
        let width = Int32(max(1, (sketch.width * scale).rounded())), height = Int32(max(1, (sketch.height * scale).rounded()))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height) else {
            throw .cannotDraw(name: name, reason: tr("no memory for the picture"))
        }
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { throw .cannotDraw(name: name, reason: tr("no memory for the picture")) }
        draw(sketch, in: cairo, width: Double(width), height: Double(height))
        cairo_destroy(cairo)
        let status = cairo_surface_write_to_png(surface, output)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .cannotDraw(name: name, reason: String(cString: cairo_status_to_string(status)))
        }
    }
}
