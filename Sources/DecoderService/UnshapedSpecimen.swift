import CImaging
import DecoderWire
import DocumentCore
import Foundation

extension SpecimenDrawing {
    /// The specimen of a font HarfBuzz cannot read, so Pango cannot lay out (Type 1, BDF, PCF,
    /// WOFF, WOFF2): FreeType reads the file, and cairo draws each character's glyph after the
    /// last by the advances the font gives, unshaped (no ligatures or kerning, which the Latin,
    /// Greek and Cyrillic text of these formats hardly needs). A bitmap font's nearest size is
    /// scaled. Lines wrap between words at the column's width, to `mostRows` rows at most.
    static func drawUnshaped(_ font: FontFile, _ appearance: FontSpecimen.Appearance,
                             oneLine: Bool) throws(FontFileError) -> (DecoderReply, Int32?) {
        var error: Int32 = 0
        let opened = withExtendedLifetime(font) { dossier_cairo_face_for_file("/proc/self/fd/\(font.descriptor)", &error) }
        guard let face = opened else {
            throw FontFileError(tr("The file is not a font that can be read, or it is damaged."))
        }
        defer { cairo_font_face_destroy(face) }
        let texts = try texts(of: font, oneLine: oneLine)

        // Measured on a context of its own, in logical pixels, as the Pango path lays out.
        guard let scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else {
            throw FontFileError(tr("There is not enough memory to draw the font."))
        }
        defer { cairo_surface_destroy(scratch) }
        guard let measuring = cairo_create(scratch) else { throw FontFileError(tr("There is not enough memory to draw the font.")) }
        defer { cairo_destroy(measuring) }
        let options = fontOptions(appearance)
        defer { cairo_font_options_destroy(options) }
        cairo_set_font_face(measuring, face)
        cairo_set_font_options(measuring, options)

        struct Laid {
            var rows: [String]
            var size: Double
            var ascent: Double
            var rowHeight: Int
            var width: Int
            var height: Int { rowHeight * rows.count }
        }
        var laidOut: [Laid] = []
        for line in texts {
            let size = Double(line.points) * appearance.dpi / 72
            cairo_set_font_size(measuring, size)
            var extents = cairo_font_extents_t()
            cairo_font_extents(measuring, &extents)
            guard cairo_status(measuring) == CAIRO_STATUS_SUCCESS else {
                throw FontFileError(tr("The file is not a font that can be read, or it is damaged."))
            }
            // A font whose metrics are not numbers, or claim lines taller than any screen.
            let rowHeight = (extents.ascent + extents.descent).rounded(.up)
            guard rowHeight.isFinite, rowHeight >= 1, rowHeight <= 20_000, extents.ascent.isFinite else {
                throw FontFileError(tr("The font's specimen is too large to draw: its lines would be %s pixels tall.",
                                       rowHeight.isFinite ? String(Int(rowHeight)) : "∞"))
            }
            let rows = wrapped(line.text, width: Double(appearance.width), measuring)
            let widest = rows.map { advance(of: $0, measuring) }.max() ?? 0
            laidOut.append(Laid(rows: rows, size: size, ascent: extents.ascent, rowHeight: Int(rowHeight),
                                width: max(1, min(appearance.width, Int(widest.rounded(.up))))))
        }

        let scale = appearance.scale
        let width = (laidOut.map(\.width).max() ?? 1) * scale
        let height = laidOut.reduce(0) { $0 + $1.height } * scale
        let surface = try canvas(width: width, height: height)
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)
        cairo_scale(cairo, Double(scale), Double(scale))
        cairo_set_font_face(cairo, face)
        cairo_set_font_options(cairo, options)
        cairo_set_source_rgba(cairo, 1, 1, 1, 1)
        var lines: [DrawnSpecimen.Line] = []
        var y = 0
        for (laid, text) in zip(laidOut, texts) {
            cairo_set_font_size(cairo, laid.size)
            for (index, row) in laid.rows.enumerated() {
                cairo_move_to(cairo, 0, Double(y + index * laid.rowHeight) + laid.ascent)
                cairo_show_text(cairo, row)
            }
            lines.append(DrawnSpecimen.Line(role: text.role, text: text.text, points: text.points, top: y * scale,
                                            width: laid.width * scale, height: laid.height * scale,
                                            boxTop: 0, boxHeight: laid.height * scale))
            y += laid.height
        }
        cairo_destroy(cairo)
        return try answer(font, surface, width: width, height: height, lines: lines)
    }

    /// How far `text` advances at the context's font and size.
    private static func advance(of text: String, _ cairo: OpaquePointer) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        return extents.x_advance.isFinite ? extents.x_advance : 0
    }

    /// `text` in rows no wider than `width` at the context's font: broken between words (a
    /// word wider than a row, between characters), `mostRows` at most, the last ending in "..."
    /// when the text goes on.
    static func wrapped(_ text: String, width: Double, _ cairo: OpaquePointer) -> [String] {
        var rows: [String] = []
        var current = ""
        var pending = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)[...]
        while let word = pending.first, rows.count < Int(mostRows) {
            let candidate = current.isEmpty ? word : current + " " + word
            if advance(of: candidate, cairo) <= width {
                current = candidate
                pending.removeFirst()
            } else if current.isEmpty {
                // One word wider than the row: as many of its characters as fit (one at least).
                var fitting = ""
                for character in word {
                    if !fitting.isEmpty, advance(of: fitting + String(character), cairo) > width { break }
                    fitting.append(character)
                }
                rows.append(fitting)
                pending[pending.startIndex] = String(word.dropFirst(fitting.count))
                if pending[pending.startIndex].isEmpty { pending.removeFirst() }
            } else {
                rows.append(current)
                current = ""
            }
        }
        if !current.isEmpty, rows.count < Int(mostRows) { rows.append(current) }
        if !pending.isEmpty, var last = rows.popLast() {
            while !last.isEmpty, advance(of: last + "...", cairo) > width { last.removeLast() }
            rows.append(last + "...")
        }
        return rows.isEmpty ? [""] : rows
    }
}
