import CImaging
import DocumentCore
import Foundation

/// A font's thumbnail as Files' font thumbnailer makes it: "Aa" in the font, large and centred,
/// here black on a white square so that it reads on a dark view too. A font without Latin
/// letters shows the first two characters of its sample. Drawn from a FreeType face, so every
/// format FreeType reads has one (Type 1 and bitmap fonts too).
enum FontThumbnailer {
    static func thumbnail(of source: inout ThumbnailSource, input: Int32, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let font: FontFile
        do { font = try FontFile.load(input) } catch { throw .decodingFailed(name: source.name, reason: error.message) }
        let text = font.coversLatin ? "Aa" : String(font.sample.filter { !$0.isWhitespace }.prefix(2))
        guard !text.isEmpty else { throw .decodingFailed(name: source.name, reason: tr("The font has no characters that can be shown.")) }
        var error: Int32 = 0
        // The font, and so its descriptor, lives until FreeType has opened the file.
        let opened = withExtendedLifetime(font) { dossier_cairo_face_for_file("/proc/self/fd/\(font.descriptor)", &error) }
        guard let face = opened else {
            throw .decodingFailed(name: source.name, reason: tr("The file is not a font that can be read, or it is damaged."))
        }
        defer { cairo_font_face_destroy(face) }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(edge), Int32(edge)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw .decodingFailed(name: source.name, reason: tr("out of memory"))
        }
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { throw .decodingFailed(name: source.name, reason: tr("out of memory")) }
        defer { cairo_destroy(cairo) }
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_paint(cairo)
        cairo_set_source_rgb(cairo, 0.75, 0.75, 0.75)
        cairo_set_line_width(cairo, 1)
        cairo_rectangle(cairo, 0.5, 0.5, Double(edge) - 1, Double(edge) - 1)
        cairo_stroke(cairo)

        // Measured at a size, then set at the size that fills 80 % of the square.
        cairo_set_font_face(cairo, face)
        cairo_set_font_size(cairo, 100)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        guard cairo_status(cairo) == CAIRO_STATUS_SUCCESS, extents.width.isFinite, extents.height.isFinite,
              extents.width > 0, extents.height > 0 else {
            throw .decodingFailed(name: source.name, reason: tr("The font has no characters that can be shown."))
        }
        let fill = Double(edge) * 0.8
        let scale = min(fill / extents.width, fill / extents.height)
        cairo_set_font_size(cairo, 100 * scale)
        cairo_text_extents(cairo, text, &extents)
        cairo_move_to(cairo, (Double(edge) - extents.width) / 2 - extents.x_bearing, (Double(edge) - extents.height) / 2 - extents.y_bearing)
        cairo_set_source_rgb(cairo, 0, 0, 0)
        cairo_show_text(cairo, text)
        cairo_surface_flush(surface)
        guard let image = Pixbuf.from(surface: surface) else {
            throw .decodingFailed(name: source.name, reason: tr("the text could not be drawn"))
        }
        return image
    }
}
