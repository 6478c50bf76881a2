import CImaging
import DecoderWire
import DocumentCore
import Foundation
import GObjectSupport

/// The worker's side of `FontSpecimen`: the font file loaded into a private fontconfig
/// configuration, each line laid out by Pango with the font alone and drawn by cairo, one under
/// the other, as coverage (white at the ink's alpha) that goes back in a sealed memfd.
enum SpecimenDrawing {
    /// The most rows one line wraps into; past it, the line ends in an ellipsis.
    static let mostRows: Int32 = 6
    /// The largest drawing, in bytes: a font whose metrics claim lines a mile high is refused.
    static let largest = 128 << 20

    static func perform(input: Int32, appearance: FontSpecimen.Appearance) -> (DecoderReply, Int32?) {
        var (reply, output): (DecoderReply, Int32?)
        do throws(FontFileError) {
            (reply, output) = try draw(FontFile.load(input), appearance)
        } catch {
            (reply, output) = (DecoderReply(error: error.message), nil)
        }
        reply.isLeaving = FontFile.names.usedUp
        return (reply, output)
    }

    /// Draws one short line of the font open at `input`, at a size no page asks for, and answers
    /// nothing: the previewer service's first font is sent so while GTK starts, so that the
    /// worker's first use of fontconfig, Pango, HarfBuzz, FreeType and cairo, which is slow, is
    /// over when the page asks for the specimen.
    static func warm(input: Int32) -> (DecoderReply, Int32?) {
        let appearance = FontSpecimen.Appearance(width: 400, scale: 1, dpi: 96)
        if let font = try? FontFile.load(input), let (_, output) = try? draw(font, appearance, oneLine: true), let output {
            close(output)
        }
        return (DecoderReply(isLeaving: FontFile.names.usedUp), nil)
    }

    /// The specimen's lines: its name, alphabet and sample, as far as the font covers them.
    static func texts(of font: FontFile, oneLine: Bool) throws(FontFileError) -> [(role: FontSpecimen.Role, text: String, points: Int)] {
        var texts: [(role: FontSpecimen.Role, text: String, points: Int)] = []
        if font.coversFamily { texts.append((.name, font.family, FontSpecimen.namePoints)) }
        if font.coversLatin { texts += FontSpecimen.alphabet.map { (.alphabet, $0, FontSpecimen.alphabetPoints) } }
        if !font.sample.isEmpty { texts += FontSpecimen.sampleSizes.map { (.sample, font.sample, $0) } }
        guard !texts.isEmpty else { throw FontFileError(tr("The font has no characters that can be shown.")) }
        if oneLine { texts = [(texts[0].role, String(texts[0].text.prefix(8)), 11)] }
        return texts
    }

    private static func draw(_ font: FontFile, _ appearance: FontSpecimen.Appearance,
                             oneLine: Bool = false) throws(FontFileError) -> (DecoderReply, Int32?) {
        if font.unshapedFormat != nil { return try drawUnshaped(font, appearance, oneLine: oneLine) }
        guard let map = dossier_font_map_new_for_config(font.config) else { throw FontFileError(tr("The font could not be read.")) }
        defer { g_object_unref(UnsafeMutableRawPointer(map)) }
        guard let context = pango_font_map_create_context(map) else { throw FontFileError(tr("The font could not be read.")) }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        pango_cairo_context_set_resolution(context, appearance.dpi)
        let options = fontOptions(appearance)
        defer { cairo_font_options_destroy(options) }
        pango_cairo_context_set_font_options(context, options)
        pango_context_set_round_glyph_positions(context, appearance.roundsGlyphPositions ? 1 : 0)

        let texts = try texts(of: font, oneLine: oneLine)

        // Laid out in logical pixels, as GTK lays out a label; drawn `scale` times larger.
        let scale = appearance.scale
        var laidOut: [(layout: OpaquePointer, top: Int, width: Int, height: Int, box: Range<Int>)] = []
        defer { laidOut.forEach { g_object_unref(UnsafeMutableRawPointer($0.layout)) } }
        for line in texts {
            guard let layout = pango_layout_new(context) else { throw FontFileError(tr("The font could not be read.")) }
            let description = pango_font_description_new()
            pango_font_description_set_family(description, font.family)
            pango_font_description_set_size(description, Int32(line.points) * PANGO_SCALE)
            pango_layout_set_font_description(layout, description)
            pango_font_description_free(description)
            pango_layout_set_width(layout, Int32(appearance.width) * PANGO_SCALE)
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_height(layout, -mostRows)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_set_text(layout, line.text, -1)
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_pixel_extents(layout, &ink, &logical)
            // Ink above or below the line's box (tall accents, deep descenders) is kept, and shown
            // over the space around the line as a label shows it; ink left of the line's start is
            // not, as a label at the edge of its column would lose it too.
            let top = Int(min(ink.y, logical.y)), bottom = Int(max(ink.y + ink.height, logical.y + logical.height))
            let right = min(appearance.width, Int(max(ink.x + ink.width, logical.x + logical.width)))
            let boxTop = Int(logical.y) - top
            laidOut.append((layout, top, max(right, 1), max(bottom - top, 1), boxTop..<(boxTop + max(Int(logical.height), 1))))
        }

        let width = (laidOut.map(\.width).max() ?? 1) * scale
        let height = laidOut.reduce(0) { $0 + $1.height } * scale
        let surface = try canvas(width: width, height: height)
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)
        cairo_scale(cairo, Double(scale), Double(scale))
        // Coverage only: white at the ink's alpha, tinted by whoever shows it (its colour
        // follows the style without a new drawing).
        cairo_set_source_rgba(cairo, 1, 1, 1, 1)
        var lines: [DrawnSpecimen.Line] = []
        var y = 0
        for (line, text) in zip(laidOut, texts) {
            cairo_move_to(cairo, 0, Double(y - line.top))
            pango_cairo_show_layout(cairo, line.layout)
            lines.append(DrawnSpecimen.Line(role: text.role, text: text.text, points: text.points, top: y * scale,
                                            width: line.width * scale, height: line.height * scale,
                                            boxTop: line.box.lowerBound * scale, boxHeight: line.box.count * scale))
            y += line.height
        }
        cairo_destroy(cairo)
        return try answer(font, surface, width: width, height: height, lines: lines)
    }

    /// The font options `appearance` asks for (the caller destroys them): grey antialiasing
    /// rather than subpixel, since the pixels go on whatever is behind them.
    static func fontOptions(_ appearance: FontSpecimen.Appearance) -> OpaquePointer? {
        let options = cairo_font_options_create()
        let antialias = cairo_antialias_t(rawValue: UInt32(clamping: appearance.antialias))
        cairo_font_options_set_antialias(options, antialias == CAIRO_ANTIALIAS_SUBPIXEL ? CAIRO_ANTIALIAS_GRAY : antialias)
        cairo_font_options_set_hint_style(options, cairo_hint_style_t(rawValue: UInt32(clamping: appearance.hintStyle)))
        cairo_font_options_set_hint_metrics(options, cairo_hint_metrics_t(rawValue: UInt32(clamping: appearance.hintMetrics)))
        return options
    }

    /// The surface the specimen's lines are drawn on, `width` × `height` pixels; refused when
    /// the font's metrics would make it larger than `largest`.
    static func canvas(width: Int, height: Int) throws(FontFileError) -> OpaquePointer {
        guard width * height * 4 <= largest else {
            throw FontFileError(tr("The font's specimen is too large to draw: its lines would be %s pixels tall.", String(height)))
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(max(height, 1))),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw FontFileError(tr("There is not enough memory to draw the font."))
        }
        return surface
    }

    /// The drawing's pixels in a sealed memfd, and its lines' places in the reply.
    static func answer(_ font: FontFile, _ surface: OpaquePointer, width: Int, height: Int,
                       lines: [DrawnSpecimen.Line]) throws(FontFileError) -> (DecoderReply, Int32?) {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let pixels = cairo_image_surface_get_data(surface),
              let fd = SealedBlob.seal(UnsafeRawBufferPointer(start: pixels, count: stride * height), name: "dossier-font-specimen") else {
            throw FontFileError(tr("There is not enough memory to draw the font."))
        }
        let drawn = DrawnSpecimen(family: font.family, style: font.style, faceCount: font.faceCount,
                                  coversLatin: font.coversLatin, coversFamily: font.coversFamily, sample: font.sample,
                                  width: width, height: height, stride: stride, lines: lines)
        guard let json = try? JSONEncoder().encode(drawn), let text = String(data: json, encoding: .utf8) else {
            close(fd)
            throw FontFileError(tr("The font could not be read."))
        }
        return (DecoderReply(values: ["specimen": text]), fd)
    }
}
