import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// Text files in the encodings people have: each sample is written by iconv(1) from its
/// Unicode text (`EncodedTexts`), then read back and compared with that text.
final class TextDecodingTests: XCTestCase {
    static let chinese = EncodedTexts.chinese
    static let traditionalChinese = EncodedTexts.traditionalChinese
    static let japanese = EncodedTexts.japanese
    static let korean = EncodedTexts.korean
    static let western = EncodedTexts.western

    static func encoded(_ text: String, as charset: String) throws -> Data {
        try EncodedTexts.encoded(text, as: charset)
    }

    /// Decoded with an English locale as the tie-breaker: the detector alone finds these.
    private func assertDecodes(_ text: String, from charset: String, as encoding: TextEncoding,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let data = try Self.encoded(text, as: charset)
        XCTAssertNotEqual(data, Data(text.utf8), "\(charset) differs from UTF-8", file: file, line: line)
        let decoded = TextEncoding.decode(data, locale: .windows1252)
        XCTAssertEqual(decoded.encoding, encoding, charset, file: file, line: line)
        XCTAssertEqual(decoded.text, text, charset, file: file, line: line)
    }

    func testSimplifiedChineseInGB18030() throws {
        try assertDecodes(Self.chinese, from: "GB18030", as: .gb18030)
    }

    func testGBKAndGB2312AreReadAsGB18030() throws {
        try assertDecodes(Self.chinese, from: "GBK", as: .gb18030)
        try assertDecodes(Self.chinese, from: "GB2312", as: .gb18030)
    }

    func testTraditionalChineseInBig5() throws {
        try assertDecodes(Self.traditionalChinese, from: "BIG5", as: .big5)
    }

    func testJapaneseInShiftJISAndEUCJP() throws {
        try assertDecodes(Self.japanese, from: "SHIFT_JIS", as: .shiftJIS)
        try assertDecodes(Self.japanese, from: "EUC-JP", as: .eucJP)
    }

    func testABackslashInShiftJISStaysABackslash() throws {
        let text = Self.japanese + "C:\\Users\\tanaka\\書類\\メモ.txt\n"
        try assertDecodes(text, from: "CP932", as: .shiftJIS)
    }

    func testKoreanInEUCKR() throws {
        try assertDecodes(Self.korean, from: "EUC-KR", as: .eucKR)
    }

    func testGermanAndFrenchInWindows1252() throws {
        try assertDecodes(Self.western + "Prix : 20 € – “Qualität”\n", from: "WINDOWS-1252", as: .windows1252)
    }

    func testUTF16WithAByteOrderMark() throws {
        let text = Self.chinese + Self.western
        for (charset, encoding, mark) in [("UTF-16LE", TextEncoding.utf16LittleEndian, Data([0xFF, 0xFE])),
                                          ("UTF-16BE", TextEncoding.utf16BigEndian, Data([0xFE, 0xFF]))] {
            let decoded = TextEncoding.decode(mark + (try Self.encoded(text, as: charset)), locale: .windows1252)
            XCTAssertEqual(decoded.encoding, encoding, charset)
            XCTAssertEqual(decoded.text, text, "\(charset): the text, without the mark")
        }
    }

    func testUTF32WithAByteOrderMark() throws {
        let text = Self.korean
        let decoded = TextEncoding.decode(Data([0xFF, 0xFE, 0, 0]) + (try Self.encoded(text, as: "UTF-32LE")), locale: .windows1252)
        XCTAssertEqual(decoded, DecodedText(text: text, encoding: .utf32LittleEndian))
    }

    func testUTF8WithAndWithoutAByteOrderMark() {
        let text = Self.japanese + Self.western
        XCTAssertEqual(TextEncoding.decode(Data(text.utf8)), DecodedText(text: text, encoding: .utf8))
        XCTAssertEqual(TextEncoding.decode(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)), DecodedText(text: text, encoding: .utf8),
                       "the mark is not part of the text")
        XCTAssertEqual(TextEncoding.decode(Data()), DecodedText(text: "", encoding: .utf8))
    }

    /// The previewer and the thumbnailer read a file's first bytes: a cut inside a character
    /// leaves UTF-8 UTF-8 (the cut character is left out), and a cut GB18030 file GB18030.
    func testAPrefixCutInsideACharacterKeepsItsEncoding() throws {
        let firstLine = Self.chinese.prefix { $0 != "\n" }  // characters of three bytes each
        let utf8 = Data(firstLine.utf8)
        for kept in [1, 2] {
            let decoded = TextEncoding.decode(utf8.prefix(utf8.count - 3 + kept), isStartOfFile: true)
            XCTAssertEqual(decoded.encoding, .utf8, "\(kept) bytes of the last character")
            XCTAssertEqual(decoded.text, String(firstLine.dropLast()), "the text up to the cut character")
        }
        let gb = try Self.encoded(Self.chinese, as: "GB18030")
        let lineBytes = try Self.encoded(String(firstLine), as: "GB18030").count
        let cut = TextEncoding.decode(gb.prefix(lineBytes - 1), isStartOfFile: true, locale: .windows1252)  // half of "。"
        XCTAssertEqual(cut.encoding, .gb18030)
        XCTAssertEqual(cut.text, String(firstLine.dropLast()))
    }

    /// Text the detector cannot place is read in the locale's old encoding: a few words of
    /// Chinese mean GB18030 to someone in China, Big5 in Taiwan.
    func testTheLocaleBreaksTies() {
        XCTAssertEqual(TextEncoding.legacy(forLocale: "zh_CN.UTF-8"), .gb18030)
        XCTAssertEqual(TextEncoding.legacy(forLocale: "zh_TW.UTF-8"), .big5)
        XCTAssertEqual(TextEncoding.legacy(forLocale: "zh_HK"), .big5)
        XCTAssertEqual(TextEncoding.legacy(forLocale: "ja_JP.UTF-8"), .shiftJIS)
        XCTAssertEqual(TextEncoding.legacy(forLocale: "ko_KR.UTF-8"), .eucKR)
        XCTAssertEqual(TextEncoding.legacy(forLocale: "ru_RU.UTF-8"), .windows1251)
        XCTAssertEqual(TextEncoding.legacy(forLocale: "de_DE.UTF-8"), .windows1252)
        XCTAssertEqual(TextEncoding.legacy(forLocale: "C.UTF-8"), .windows1252)
        XCTAssertEqual(TextEncoding.legacy(forLocale: ""), .windows1252)
    }

    /// A few CJK characters are too little for the detector: the locale's encoding reads them,
    /// when they are whole text in it (a cut character says they are not). Western text with
    /// a few accents is read as the detector says, whatever the locale.
    func testAFewWordsAreReadInTheLocalesEncoding() throws {
        let cases: [(String, String, TextEncoding)] = [
            ("你好世界", "GB18030", .gb18030), ("中文", "GB18030", .gb18030), ("報告書", "BIG5", .big5),
            ("日本語", "SHIFT_JIS", .shiftJIS), ("한국어", "EUC-KR", .eucKR),
        ]
        for (text, charset, locale) in cases {
            let decoded = TextEncoding.decode(try Self.encoded(text + "\n", as: charset), locale: locale)
            XCTAssertEqual(decoded, DecodedText(text: text + "\n", encoding: locale), "\(text) for a \(locale.name) locale")
        }
        // A whole file that ends on 0xE9 ("Café" in Windows-1252) has no character cut at its
        // end: it is neither UTF-8 (0xE9 would start a three-byte character) nor GB18030.
        let cafe = TextEncoding.decode(try Self.encoded("Café", as: "WINDOWS-1252"), locale: .gb18030)
        XCTAssertEqual(cafe.text, "Café")
        for locale in [TextEncoding.gb18030, .big5, .shiftJIS, .eucKR] {
            let western = TextEncoding.decode(try Self.encoded(Self.western, as: "WINDOWS-1252"), locale: locale)
            XCTAssertEqual(western, DecodedText(text: Self.western, encoding: .windows1252), "for a \(locale.name) locale")
        }
    }

    /// Bytes every guess fails on end in Windows-1252, where every byte means something.
    func testBytesNothingReadsEndInWindows1252() {
        let bytes = Data((0x80...0xFF).map { UInt8($0) } + [0x0A])
        let decoded = TextEncoding.decode(bytes, locale: .shiftJIS)
        XCTAssertFalse(decoded.text.isEmpty)
        XCTAssertFalse(decoded.text.contains("\u{FFFD}"), "read in \(decoded.encoding.name), every byte means something")
        XCTAssertEqual(TextEncoding.windows1252.decode(Data([0x80, 0x81, 0x9F, 0xE9])), "€\u{81}Ÿé")
    }

    /// Re-opening in another encoding always shows something: bytes that mean nothing in it
    /// become U+FFFD.
    func testDecodingAsAChosenEncodingNeverFails() throws {
        let gb = try Self.encoded(Self.chinese, as: "GB18030")
        XCTAssertEqual(TextEncoding.gb18030.decode(gb), Self.chinese)
        let asJapanese = TextEncoding.shiftJIS.decode(gb)
        XCTAssertFalse(asJapanese.isEmpty)
        XCTAssertNotEqual(asJapanese, Self.chinese)
        XCTAssertTrue(TextEncoding.utf8.decode(gb).contains("\u{FFFD}"), "GB18030 is not UTF-8")
        let utf16 = try Self.encoded("ab", as: "UTF-16LE") + Data([0x00, 0xDC]) + (try Self.encoded("c", as: "UTF-16LE"))
        XCTAssertEqual(TextEncoding.utf16LittleEndian.decode(utf16), "ab\u{FFFD}c", "a lone surrogate, skipped as one unit")
        XCTAssertEqual(TextEncoding("NO-SUCH-CHARSET").decode(Data("abc".utf8)), "abc")
    }

    /// Hostile files: random bytes of every length finish, and decode to something.
    func testRandomBytesNeverHangOrCrash() {
        var generator = SystemRandomNumberGenerator()
        for length in [1, 2, 3, 7, 64, 1000, 70_000, 300_000] {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let decoded = TextEncoding.decode(bytes)
            XCTAssertFalse(decoded.text.isEmpty && length > 4, "\(length) random bytes")
        }
    }
}
