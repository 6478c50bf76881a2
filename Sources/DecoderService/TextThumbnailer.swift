import CGLib
import CImaging
import DocumentCore
import Foundation
import GObjectSupport

/// Text and source files as their first lines on a small page, in process. Only the first
/// 4 KiB are read, whatever the file's size.
enum TextThumbnailer {
    static let bytesRead = 4096
    static let linesShown = 40

    static func thumbnail(of source: inout ThumbnailSource, edge: Int) throws(ThumbnailError) -> Pixbuf {
        guard let handle = FileHandle(forReadingAtPath: source.path) else {
            throw .unreadable(name: source.name, reason: String(cString: strerror(errno)))
        }
        let data = (try? handle.read(upToCount: bytesRead)) ?? Data()
        try? handle.close()
        let text = page(of: data)

        // A portrait page, the height of the square, with a thin border and a margin.
        let height = edge
        let width = max(1, Int(Double(edge) * 0.75))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .decodingFailed(name: source.name, reason: tr("out of memory"))
        }
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_set_source_rgb(context, 0.75, 0.75, 0.75)
        cairo_set_line_width(context, 1)
        cairo_rectangle(context, 0.5, 0.5, Double(width) - 1, Double(height) - 1)
        cairo_stroke(context)

        let margin = Double(edge) / 16
        let layout = pango_cairo_create_layout(context)
        defer { unref(layout) }
        let font = pango_font_description_from_string("Monospace")
        pango_font_description_set_absolute_size(font, Double(max(edge / 22, 4)) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_width(layout, Int32((Double(width) - 2 * margin) * Double(PANGO_SCALE)))
        pango_layout_set_height(layout, Int32((Double(height) - 2 * margin) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_text(layout, text, -1)
        cairo_set_source_rgb(context, 0.2, 0.2, 0.2)
        cairo_move_to(context, margin, margin)
        pango_cairo_show_layout(context, layout)
        guard let image = Pixbuf.from(surface: surface) else {
            throw .decodingFailed(name: source.name, reason: tr("the text could not be drawn"))
        }
        return image
    }

    /// The text drawn for a file that starts with `data`: its first lines, decoded in the file's
    /// encoding (GB18030, UTF-16… as the previewer reads it), tabs as four spaces.
    static func page(of data: Data) -> String {
        TextEncoding.decode(data, isStartOfFile: data.count >= bytesRead).text
            .split(separator: "\n", maxSplits: linesShown, omittingEmptySubsequences: false)
            .prefix(linesShown).joined(separator: "\n")
            .replacingOccurrences(of: "\t", with: "    ")
    }
}
