import CImaging
import DocumentCore
import Foundation

/// A font file loaded, inside a decoder worker, into a fontconfig configuration of its own:
/// Pango uses the font through that configuration (`dossier_font_map_new_for_config`) without
/// it being installed, and nothing else is in it, so every glyph drawn with it is the file's own.
///
/// The worker has the file only as an open descriptor; fontconfig, FreeType (through cairo) and
/// HarfBuzz (through Pango) each open it again by the name `/proc/self/fd/N`. cairo keeps
/// FreeType faces by file name for as long as its cache holds a size of them, after the request
/// that drew them: with the same N for every request (the lowest free descriptor), a font drawn
/// after another was laid out with its own metrics and drawn with the first one's glyphs. So
/// each font gets a number that no other font of this worker had (`FontFile.names`).
final class FontFile {
    let config: OpaquePointer
    let family: String
    let style: String?
    /// How many faces the file holds (a .ttc collection several, a variable font one per named
    /// instance); the first is shown.
    let faceCount: Int
    /// Whether the font has the Latin letters and digits of the specimen.
    let coversLatin: Bool
    /// Whether the font can write its own family name.
    let coversFamily: Bool
    /// The translated pangram when the font can show it, else one of `pangrams`, else a run of
    /// characters the font has (a symbol font).
    let sample: String
    /// The format, when it is one HarfBuzz cannot read and so Pango cannot lay out (Type 1,
    /// BDF, PCF, WOFF, WOFF2): its specimen is drawn by FreeType and cairo, unshaped. Nil for
    /// TrueType and OpenType.
    let unshapedFormat: String?
    /// The descriptor the font is read through, closed with it.
    let descriptor: Int32

    private init(config: OpaquePointer, descriptor: Int32, family: String, style: String?, faceCount: Int,
                 coversLatin: Bool, coversFamily: Bool, sample: String, unshapedFormat: String?) {
        self.config = config
        self.descriptor = descriptor
        self.unshapedFormat = unshapedFormat
        self.family = family
        self.style = style
        self.faceCount = faceCount
        self.coversLatin = coversLatin
        self.coversFamily = coversFamily
        self.sample = sample
    }

    deinit {
        FcConfigDestroy(config)
        close(descriptor)
    }

    static let latin = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    /// Specimen lines in the scripts fonts are most often made for, tried in order.
    static let pangrams = [
        "The quick brown fox jumps over the lazy dog.",
        "Съешь же ещё этих мягких французских булок, да выпей чаю.",
        "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
        "我能吞下玻璃而不伤身体。",
        "いろはにほへと ちりぬるを わかよたれそ つねならむ",
        "다람쥐 헌 쳇바퀴에 타고파",
        "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر",
        "דג סקרן שט בים מאוכזב ולפתע מצא חברה",
        "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले विष्णुवतार भगवान श्रीराम",
        "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า",
    ]

    /// The longest family or style name kept (a name table may hold 64 KB of one).
    static let longestName = 200

    /// Loads the font open at `input` (the worker's request input; it stays the caller's).
    /// - Throws: a message for the person who asked, in their language.
    static func load(_ input: Int32) throws(FontFileError) -> FontFile {
        var status = stat()
        guard fstat(input, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw FontFileError(tr("The file is not a font that can be read, or it is damaged."))
        }
        guard let descriptor = names.take(input) else {
            throw FontFileError(tr("The font could not be read: %s", String(cString: strerror(errno))))
        }
        guard let config = FcConfigCreate() else {
            close(descriptor)
            throw FontFileError(tr("The font could not be read."))
        }
        let name = "/proc/self/fd/\(descriptor)"
        let added = name.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: strlen(name) + 1) { FcConfigAppFontAddFile(config, $0) }
        }
        guard added != 0, let fonts = FcConfigGetFonts(config, FcSetApplication), fonts.pointee.nfont > 0,
              let pattern = fonts.pointee.fonts[0] else {
            FcConfigDestroy(config)
            close(descriptor)
            throw FontFileError(tr("The file is not a font that can be read, or it is damaged."))
        }
        func string(_ name: String) -> String? {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, name, 0, &value) == FcResultMatch, let value else { return nil }
            return String(String(cString: value).prefix(longestName))
        }
        let unshapedFormat = unshapedFormat(input, fontconfigSays: string("fontformat"))
        guard let family = string("family") else {
            FcConfigDestroy(config)
            close(descriptor)
            throw FontFileError(tr("The font has no family name."))
        }
        var charset: OpaquePointer?
        _ = FcPatternGetCharSet(pattern, "charset", 0, &charset)
        func covers(_ text: String) -> Bool {
            guard let charset else { return false }
            return text.unicodeScalars.allSatisfy { $0 == " " || FcCharSetHasChar(charset, $0.value) != 0 }
        }
        let translated = tr("The quick brown fox jumps over the lazy dog.")
        var sample = ([translated] + pangrams).first(where: covers) ?? ""
        if sample.isEmpty, let charset {
            var scalars = String.UnicodeScalarView()
            var code: UInt32 = 0x21
            while scalars.count < 48, code < 0x3_0000 {
                if FcCharSetHasChar(charset, code) != 0, let scalar = Unicode.Scalar(code),
                   !scalar.properties.isWhitespace,
                   ![.control, .nonspacingMark, .enclosingMark, .format].contains(scalar.properties.generalCategory) {
                    scalars.append(scalar)
                    if scalars.count % 12 == 0 { scalars.append(" ") }
                }
                code += 1
            }
            sample = String(scalars)
        }
        return FontFile(config: config, descriptor: descriptor, family: family, style: string("style"),
                        faceCount: Int(fonts.pointee.nfont), coversLatin: covers(latin), coversFamily: covers(family),
                        sample: sample, unshapedFormat: unshapedFormat)
    }

    /// The format of the font open at `input` when Pango cannot draw it: Pango (from 1.44) draws
    /// through HarfBuzz, which reads TrueType and OpenType files only; a Type 1, a bitmap or a
    /// WOFF font laid out with no font at all (empty boxes, lines a million pixels tall).
    private static func unshapedFormat(_ input: Int32, fontconfigSays format: String?) -> String? {
        var magic = [UInt8](repeating: 0, count: 4)
        if pread(input, &magic, 4, 0) == 4 {
            if magic == Array("wOFF".utf8) { return "WOFF" }
            if magic == Array("wOF2".utf8) { return "WOFF2" }
        }
        guard let format else { return tr("unknown") }
        return ["TrueType", "CFF"].contains(format) ? nil : format
    }

    /// The descriptor numbers fonts are read through, each used once in a worker's life.
    static let names = DescriptorNames()
}

/// Descriptor numbers never used twice: `take` gives a copy of a descriptor at a number above
/// every one it gave before. When they run out (the limit on open files), `usedUp` is true and
/// the worker leaves after its reply: the next request starts a new one.
final class DescriptorNames: Sendable {
    /// The first number, above the descriptors the worker keeps (its socket, its libraries').
    static let first: Int32 = 64
    private let next = Locked(DescriptorNames.first)

    /// A copy of `fd` at a number not given before, or nil (errno set) when none is left.
    func take(_ fd: Int32) -> Int32? {
        next.withLock { next in
            guard next < Self.ceiling else {
                errno = EMFILE
                return nil
            }
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, next)
            guard copy >= 0 else { return nil }
            next = copy + 1
            return copy
        }
    }

    /// True once no number is left for another font.
    var usedUp: Bool { next.withLock { $0 >= Self.ceiling } }

    /// The limit on descriptor numbers (RLIMIT_NOFILE's soft limit), at most 2^20.
    private static var ceiling: Int32 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int32(min(limit.rlim_cur, 1 << 20))
    }
}

/// Why a font file could not be read, in a message for the person who asked.
struct FontFileError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
