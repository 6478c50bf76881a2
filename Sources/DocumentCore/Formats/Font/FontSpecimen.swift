import DecoderWire
import Foundation

/// A font file's specimen (its name, its alphabet and a sample at several sizes), drawn in a
/// decoder worker: FreeType parses the file and runs its hinting instructions there, never in the
/// process that asks. What the font is and covers comes back as values, the lines as their
/// glyphs' coverage in one sealed memfd (the colour is the shower's).
package struct FontSpecimen: Sendable {
    /// The sizes, in points, the sample is drawn at, smallest first.
    package static let sampleSizes = [12, 18, 24, 36, 48, 72]
    package static let namePoints = 40
    package static let alphabetPoints = 24
    package static let alphabet = ["ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "0123456789 .,:;!?&@#%*()[]{}"]

    /// How the lines are drawn, for the widget that shows them: the key of a drawing. It holds no
    /// colour (the lines are coverage, tinted where they are shown), only what is known of the
    /// display before libadwaita's stylesheet is loaded, so a drawing can be asked for ahead.
    package struct Appearance: Sendable, Hashable {
        /// The width the lines wrap at, in logical pixels.
        package var width: Int
        /// Device pixels per logical pixel (the widget's scale factor).
        package var scale: Int
        /// The resolution that turns points into logical pixels (96, or the desktop's text scaling).
        package var dpi: Double
        /// cairo's font options as the widget has them (`cairo_antialias_t`, `cairo_hint_style_t`,
        /// `cairo_hint_metrics_t` values); subpixel antialiasing is drawn grey (there is no
        /// background to draw it on).
        package var antialias: Int32 = 0
        /// cairo's hint style (a `cairo_hint_style_t` value).
        package var hintStyle: Int32 = 0
        /// cairo's hint metrics (a `cairo_hint_metrics_t` value).
        package var hintMetrics: Int32 = 0
        /// Whether glyphs are placed on whole pixels (`pango_context_set_round_glyph_positions`).
        package var roundsGlyphPositions = true

        /// Describes lines wrapped at `width` logical pixels, drawn at `scale` and `dpi`, with
        /// cairo's default font options.
        package init(width: Int, scale: Int, dpi: Double) {
            self.width = width
            self.scale = scale
            self.dpi = dpi
        }

        /// The widest line drawn, in device pixels (`width` × `scale`).
        package static let widest = 8192

        /// The appearance as it goes to a worker.
        var wire: FontAppearance {
            FontAppearance(width: width, scale: scale, dpi: dpi, antialias: antialias, hintStyle: hintStyle,
                           hintMetrics: hintMetrics, roundsGlyphPositions: roundsGlyphPositions)
        }

        /// The appearance a worker was sent, when it is within bounds.
        package init?(_ wire: FontAppearance) {
            guard (1...4).contains(wire.scale), wire.width > 0, wire.width <= Self.widest / wire.scale,
                  (24...480).contains(wire.dpi) else { return nil }
            self.init(width: wire.width, scale: wire.scale, dpi: wire.dpi)
            antialias = wire.antialias
            hintStyle = wire.hintStyle
            hintMetrics = wire.hintMetrics
            roundsGlyphPositions = wire.roundsGlyphPositions
        }
    }

    /// What a line of the specimen shows.
    package enum Role: String, Codable, Sendable {
        /// The family name, in the font itself.
        case name
        /// Capitals, small letters, or digits and punctuation.
        case alphabet
        /// The sample sentence at one of `sampleSizes`.
        case sample
    }

    /// One line of the specimen (wrapped into several rows when it is wider than the appearance's width).
    package struct Line: Sendable {
        /// What the line shows: the name, an alphabet or a sample.
        package let role: Role
        /// What the line says (its accessible text).
        package let text: String
        /// Its size in points.
        package let points: Int
        /// The line's drawn pixels.
        package let pixels: Pixels
    }

    /// A line's pixels: `height` rows of `width` premultiplied ARGB32 pixels (cairo's format, in
    /// the machine's byte order), `stride` bytes apart, from `offset` in `blob`; `scale` pixels to a
    /// logical pixel. The glyphs' coverage: white, at the alpha of their ink, to be tinted with the
    /// text colour where they are shown. Checked against the blob's size: the worker that made
    /// them is not trusted.
    package struct Pixels: Sendable {
        /// The sealed memory that holds the pixels.
        package let blob: SealedBlob
        /// Where the line's first row starts in `blob`, in bytes.
        package let offset: Int
        /// The width in device pixels.
        package let width: Int
        /// The number of rows, in device pixels.
        package let height: Int
        /// The bytes from the start of one row to the start of the next.
        package let stride: Int
        /// Device pixels per logical pixel.
        package let scale: Int
        /// The rows of the line's box (what a label of the line would take); ink above or below
        /// it (tall accents, deep descenders) is in the rows around.
        package let box: Range<Int>
    }

    /// The font's family name ("DejaVu Sans").
    package let family: String
    /// The style of the first face ("Bold Italic"), when the font names it.
    package let style: String?
    /// How many faces the file holds (a .ttc collection several, a variable font one per named instance).
    package let faceCount: Int
    /// Whether the font has the Latin letters and digits: the alphabet lines are there.
    package let coversLatin: Bool
    /// Whether the font can write its own family name: the name line is there.
    package let coversFamily: Bool
    /// The sample sentence: a pangram in a script the font covers, or characters it has.
    package let sample: String
    /// The lines in order: the name, the alphabet, then the sample at each of `sampleSizes`.
    package let lines: [Line]
    /// How they were drawn.
    package let appearance: Appearance
}

/// What the worker says about the font and where each line's pixels are (the wire form).
package struct DrawnSpecimen: Codable {
    package struct Line: Codable {
        var role: FontSpecimen.Role
        var text: String
        var points: Int
        /// The first row in the pixels, and the line's size in pixels.
        var top: Int
        var width: Int
        var height: Int
        /// The line's box: its first row from `top`, and its rows.
        var boxTop: Int
        var boxHeight: Int

        package init(role: FontSpecimen.Role, text: String, points: Int, top: Int, width: Int, height: Int, boxTop: Int,
                     boxHeight: Int) {
            (self.role, self.text, self.points, self.top) = (role, text, points, top)
            (self.width, self.height, self.boxTop, self.boxHeight) = (width, height, boxTop, boxHeight)
        }
    }

    var family: String
    var style: String?
    var faceCount: Int
    var coversLatin: Bool
    var coversFamily: Bool
    var sample: String
    /// The whole drawing, every line one under the other: its size in pixels and bytes per row.
    var width: Int
    var height: Int
    var stride: Int
    var lines: [Line]

    package init(family: String, style: String?, faceCount: Int, coversLatin: Bool, coversFamily: Bool, sample: String,
                 width: Int, height: Int, stride: Int, lines: [Line]) {
        (self.family, self.style, self.faceCount, self.coversLatin, self.coversFamily) = (family, style, faceCount, coversLatin, coversFamily)
        (self.sample, self.width, self.height, self.stride, self.lines) = (sample, width, height, stride, lines)
    }
}

/// Why a font's specimen could not be drawn, as the previewer's error page says it.
package enum FontSpecimenError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The file could not be opened here.
    case unreadable(String)
    /// The worker found no font it can draw in the file; its message says why.
    case notDrawable(String)
    /// The worker stopped while drawing: a crash, or one of its limits.
    case decoderStopped(String)
    /// The worker took longer than this many seconds and was stopped.
    case timedOut(seconds: Int)
    /// No worker could be started.
    case decoderUnavailable(String)
    /// Whoever asked went away before the font was drawn.
    case cancelled

    package var description: String {
        switch self {
        case .unreadable(let reason): tr("The font could not be opened: %s", reason)
        case .notDrawable(let message): message
        case .decoderStopped(let how):
            tr("The font could not be drawn: its decoder stopped (%s). The file may be damaged.", how)
        case .timedOut(let seconds): tr("The font took longer than %s seconds to draw.", String(seconds))
        case .decoderUnavailable(let why): tr("Fonts cannot be shown: the decoder could not be started (%s).", why)
        case .cancelled: tr("Cancelled")
        }
    }
}
