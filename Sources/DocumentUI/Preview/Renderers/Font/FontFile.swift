import CGtk
import DocumentCore
import Foundation

/// A font file loaded into a fontconfig configuration of its own: the font is usable by Pango
/// through that configuration (see `dossier_font_map_new_for_config`) without being installed,
/// and nothing else is in it, so every glyph drawn with it is the file's own.
final class FontFile: @unchecked Sendable {
    // @unchecked: the configuration is built on the loading thread and only read afterwards.
    let config: OpaquePointer
    let family: String
    let style: String?
    /// How many faces the file holds (a .ttc collection holds several; the first is shown).
    let faceCount: Int
    /// Whether the font has the Latin letters and digits of the specimen.
    let coversLatin: Bool
    /// Whether the font can write its own family name.
    let coversFamily: Bool
    /// The translated pangram when the font can show it, else one of `pangrams`, else a run of
    /// characters the font has (a symbol font).
    let sample: String

    private init(config: OpaquePointer, family: String, style: String?, faceCount: Int, coversLatin: Bool,
                 coversFamily: Bool, sample: String) {
        self.config = config
        self.family = family
        self.style = style
        self.faceCount = faceCount
        self.coversLatin = coversLatin
        self.coversFamily = coversFamily
        self.sample = sample
    }

    deinit { FcConfigDestroy(config) }

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

    /// Loads the font at `path` (blocking: call it off the main thread).
    static func load(_ path: String) throws(PreviewError) -> FontFile {
        guard let config = FcConfigCreate() else { throw PreviewError(tr("The font could not be read.")) }
        let added = path.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: strlen(name) + 1) { FcConfigAppFontAddFile(config, $0) }
        }
        guard added != 0, let fonts = FcConfigGetFonts(config, FcSetApplication), fonts.pointee.nfont > 0,
              let pattern = fonts.pointee.fonts[0] else {
            FcConfigDestroy(config)
            throw PreviewError(tr("The file is not a font that can be read, or it is damaged."))
        }
        func string(_ name: String) -> String? {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, name, 0, &value) == FcResultMatch, let value else { return nil }
            return String(cString: value)
        }
        guard let family = string("family") else {
            FcConfigDestroy(config)
            throw PreviewError(tr("The font has no family name."))
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
        return FontFile(config: config, family: family, style: string("style"), faceCount: Int(fonts.pointee.nfont),
                        coversLatin: covers(latin), coversFamily: covers(family), sample: sample)
    }
}
