import Foundation

/// A character encoding a text file can be read in: the name iconv knows it by and the title a
/// person reads in a menu ("Chinese Simplified (GB18030)", as GNOME's text editors name them).
package struct TextEncoding: Hashable, Sendable {
    /// The charset's canonical name, upper case: "UTF-8", "GB18030", "SHIFT_JIS", "WINDOWS-1252".
    package let name: String

    /// An encoding by the name iconv knows it by, in any case ("utf-8" is "UTF-8").
    package init(_ name: String) { self.name = name.uppercased() }

    /// UTF-8, the encoding of most text on Linux.
    package static let utf8 = TextEncoding("UTF-8")
    /// UTF-16, little-endian (Windows' "Unicode").
    package static let utf16LittleEndian = TextEncoding("UTF-16LE")
    /// UTF-16, big-endian.
    package static let utf16BigEndian = TextEncoding("UTF-16BE")
    /// UTF-32, little-endian.
    package static let utf32LittleEndian = TextEncoding("UTF-32LE")
    /// UTF-32, big-endian.
    package static let utf32BigEndian = TextEncoding("UTF-32BE")
    /// Chinese Simplified (GB18030, which includes GB2312 and GBK).
    package static let gb18030 = TextEncoding("GB18030")
    /// Chinese Traditional (Big5).
    package static let big5 = TextEncoding("BIG5")
    /// Japanese (Shift JIS).
    package static let shiftJIS = TextEncoding("SHIFT_JIS")
    /// Japanese (EUC-JP).
    package static let eucJP = TextEncoding("EUC-JP")
    /// Korean (EUC-KR).
    package static let eucKR = TextEncoding("EUC-KR")
    /// Western European (Windows-1252).
    package static let windows1252 = TextEncoding("WINDOWS-1252")
    /// Western European (ISO-8859-1, Latin-1).
    package static let isoLatin1 = TextEncoding("ISO-8859-1")
    /// Central European (Windows-1250).
    package static let windows1250 = TextEncoding("WINDOWS-1250")
    /// Cyrillic (Windows-1251).
    package static let windows1251 = TextEncoding("WINDOWS-1251")
    /// Cyrillic (KOI8-R).
    package static let koi8R = TextEncoding("KOI8-R")

    /// The encodings a text can be re-opened in, in menu order: Unicode first, then by script.
    package static let choices: [TextEncoding] = [
        .utf8, .utf16LittleEndian, .utf16BigEndian,
        .gb18030, .big5, .shiftJIS, .eucJP, .eucKR,
        .windows1252, .isoLatin1, .windows1250, .windows1251, .koi8R,
    ]

    /// The name shown for the encoding: a script and the charset, or the bare charset name for
    /// one the menu does not offer (uchardet knows a few dozen).
    package var title: String {
        switch self {
        // TRANSLATORS: encodings as GNOME's text editors name them: the script or region, then
        // the charset's own name in parentheses, which stays as it is.
        case .utf8: tr("Unicode (UTF-8)")
        case .utf16LittleEndian: tr("Unicode (UTF-16 LE)")
        case .utf16BigEndian: tr("Unicode (UTF-16 BE)")
        case .utf32LittleEndian: tr("Unicode (UTF-32 LE)")
        case .utf32BigEndian: tr("Unicode (UTF-32 BE)")
        case .gb18030: tr("Chinese Simplified (GB18030)")
        case .big5: tr("Chinese Traditional (Big5)")
        case .shiftJIS: tr("Japanese (Shift_JIS)")
        case .eucJP: tr("Japanese (EUC-JP)")
        case .eucKR: tr("Korean (EUC-KR)")
        case .windows1252: tr("Western (Windows-1252)")
        case .isoLatin1: tr("Western (ISO-8859-1)")
        case .windows1250: tr("Central European (Windows-1250)")
        case .windows1251: tr("Cyrillic (Windows-1251)")
        case .koi8R: tr("Cyrillic (KOI8-R)")
        default: name
        }
    }

    /// The encoding a detector's answer means. GB2312 and GBK text is read as GB18030, which
    /// contains both; ASCII and ISO-8859-1 as Windows-1252, which differs from Latin-1 only in
    /// 0x80–0x9F, control codes that text never means (browsers do the same); UHC as EUC-KR.
    init(detected charset: String) {
        switch charset.uppercased() {
        case "GB2312", "GBK", "CP936", "X-GBK", "EUC-CN": self = .gb18030
        case "ASCII", "US-ASCII", "ISO-8859-1", "LATIN1": self = .windows1252
        case "UHC", "CP949": self = .eucKR
        case "SJIS", "CP932", "WINDOWS-31J": self = .shiftJIS
        case let name: self.init(name)
        }
    }

    /// The name to ask iconv for. Shift_JIS and EUC-KR files come from Windows, whose code pages
    /// 932 and 949 extend them; glibc's SHIFT_JIS would also show every backslash as a yen sign.
    var converterName: String {
        switch self {
        case .shiftJIS: "CP932"
        case .eucKR: "CP949"
        default: name
        }
    }

    /// The bytes that start a file in this encoding to mark it, if it has such a mark.
    var byteOrderMark: [UInt8]? {
        switch self {
        case .utf8: [0xEF, 0xBB, 0xBF]
        case .utf16LittleEndian: [0xFF, 0xFE]
        case .utf16BigEndian: [0xFE, 0xFF]
        case .utf32LittleEndian: [0xFF, 0xFE, 0x00, 0x00]
        case .utf32BigEndian: [0x00, 0x00, 0xFE, 0xFF]
        default: nil
        }
    }

    /// True for the code pages of one byte a character (Windows-125x, ISO-8859-x, KOI8…), in
    /// which nearly any bytes are some text: a guess of one on little text proves little.
    var isSingleByte: Bool {
        ["WINDOWS-12", "ISO-8859-", "KOI8-", "IBM", "MAC", "X-MAC", "TIS-620", "VISCII", "CP12", "CP8", "GEORGIAN", "ASCII"]
            .contains { name.hasPrefix($0) }
    }

    /// The bytes of one code unit: what is skipped past a sequence that does not decode.
    var codeUnitSize: Int {
        switch self {
        case .utf16LittleEndian, .utf16BigEndian: 2
        case .utf32LittleEndian, .utf32BigEndian: 4
        default: 1
        }
    }
}

extension TextEncoding {
    /// The encoding text files had on systems of this locale before UTF-8 (`zh_TW.UTF-8`:
    /// Big5): the detector's tie-breaker. Windows-1252 where no other is typical.
    static func legacy(forLocale locale: String) -> TextEncoding {
        let name = locale.split(separator: ".").first.map(String.init) ?? ""
        let parts = name.split(separator: "_")
        let language = parts.first.map { $0.lowercased() } ?? ""
        let territory = parts.count > 1 ? parts[1].split(separator: "@").first.map { $0.uppercased() } ?? "" : ""
        switch language {
        case "zh": return ["TW", "HK", "MO"].contains(territory) ? .big5 : .gb18030
        case "ja": return .shiftJIS
        case "ko": return .eucKR
        case "ru", "uk", "be", "bg", "sr", "mk": return .windows1251
        case "pl", "cs", "sk", "hu", "sl", "hr", "bs", "ro": return .windows1250
        case "el": return TextEncoding("WINDOWS-1253")
        case "tr": return TextEncoding("WINDOWS-1254")
        case "he": return TextEncoding("WINDOWS-1255")
        case "ar", "fa", "ur": return TextEncoding("WINDOWS-1256")
        case "lt", "lv", "et": return TextEncoding("WINDOWS-1257")
        case "vi": return TextEncoding("WINDOWS-1258")
        case "th": return TextEncoding("TIS-620")
        default: return .windows1252
        }
    }

    /// The legacy encoding of the user's locale for characters (`LC_ALL`, `LC_CTYPE`, then
    /// `LANG`, as POSIX orders them), read once: every thumbnail of a text asks for it.
    static let userLegacy: TextEncoding = {
        let environment = ProcessInfo.processInfo.environment
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return legacy(forLocale: locale ?? "")
    }()
}
