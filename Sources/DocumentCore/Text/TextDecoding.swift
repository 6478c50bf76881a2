import Foundation

/// Text read from a file, and the encoding it was read in.
package struct DecodedText: Sendable, Equatable {
    /// The text, without a byte order mark.
    package let text: String
    /// The encoding the bytes were read in.
    package let encoding: TextEncoding
}

extension TextEncoding {
    /// Reads the bytes of a text file (all of it, or its start) in the encoding they are in:
    ///
    /// 1. a byte order mark decides (UTF-8, UTF-16 or UTF-32, either byte order);
    /// 2. otherwise bytes that are valid UTF-8 are UTF-8;
    /// 3. otherwise uchardet's guess, if the bytes decode in it; then the legacy encoding of the
    ///    user's locale (GB18030 for zh_CN, Shift_JIS for ja…), if they decode in that; then
    ///    Windows-1252, in which every byte decodes. A few CJK characters (a name, a short
    ///    note) are too little for the detector: when the locale's encoding is Chinese,
    ///    Japanese or Korean, it comes before a guess of a single-byte encoding.
    ///
    /// `isStartOfFile`: the bytes are only the start of the file, read up to a limit, so a
    /// character cut at their end is no error (it is dropped); in a whole file it is one.
    /// The detector sees the first 64 KiB at most. Never fails: the worst case is Windows-1252.
    package static func decode(_ data: Data, isStartOfFile: Bool = false) -> DecodedText {
        decode(data, isStartOfFile: isStartOfFile, locale: userLegacy)
    }

    /// `decode(_:isStartOfFile:)` with the locale's legacy encoding given (for tests).
    static func decode(_ data: Data, isStartOfFile: Bool = false, locale legacy: TextEncoding) -> DecodedText {
        data.withUnsafeBytes { bytes in
            if let marked = [TextEncoding.utf8, .utf32LittleEndian, .utf32BigEndian, .utf16LittleEndian, .utf16BigEndian]
                .first(where: { $0.isMarked(bytes) }) {
                return DecodedText(text: marked.decode(bytes), encoding: marked)
            }
            if let text = validUTF8(bytes, allowingCutEnd: isStartOfFile) { return DecodedText(text: text, encoding: .utf8) }
            let guess = CharsetDetector.guess(bytes).map(TextEncoding.init(detected:))
            if guess == .utf8 {
                // Mostly UTF-8, with a stray byte or two: shown repaired, as a text editor would.
                return DecodedText(text: String(decoding: bytes, as: UTF8.self), encoding: .utf8)
            }
            var candidates = [guess, legacy]
            if !legacy.isSingleByte, guess?.isSingleByte ?? true, looksLikeAFewCJKCharacters(bytes) { candidates.reverse() }
            for candidate in candidates.compactMap({ $0 }) {
                if let text = try? CharsetConversion.decode(bytes, as: candidate, strict: true, allowingCutEnd: isStartOfFile) {
                    return DecodedText(text: text, encoding: candidate)
                }
            }
            return DecodedText(text: CharsetConversion.decodeWindows1252(bytes), encoding: .windows1252)
        }
    }

    /// Fewer non-ASCII bytes than this and uchardet's single-byte answers are a coin toss:
    /// "中文" in GB18030 is KOI8-R to it, "日本語" in Shift_JIS Windows-1252.
    static let fewestBytesToGuess = 64

    /// True for a few non-ASCII bytes (fewer than `fewestBytesToGuess`) that mostly come in runs,
    /// as the bytes of CJK characters do. Accented Latin letters mostly stand alone between
    /// ASCII ones ("Größe"), and are nearly always valid GB18030, Big5 or Shift_JIS too: for
    /// them the detector's single-byte answer stands.
    private static func looksLikeAFewCJKCharacters(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let sample = bytes.prefix(CharsetDetector.limit)
        var nonASCII = 0, inRuns = 0
        for index in sample.indices where sample[index] >= 0x80 {
            nonASCII += 1
            if nonASCII >= fewestBytesToGuess { return false }
            let before = index > sample.startIndex && sample[index - 1] >= 0x80
            let after = index + 1 < sample.endIndex && sample[index + 1] >= 0x80
            if before || after { inRuns += 1 }
        }
        return nonASCII > 0 && inRuns * 5 >= nonASCII * 4
    }

    /// `data` read in this encoding, whatever it holds: a byte order mark of this encoding is
    /// dropped, bytes that mean nothing in it show as U+FFFD, an incomplete character at the end
    /// is dropped. An encoding iconv does not know reads as Windows-1252.
    package func decode(_ data: Data) -> String {
        data.withUnsafeBytes { decode($0) }
    }

    func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        let body = isMarked(bytes) ? UnsafeRawBufferPointer(rebasing: bytes[(byteOrderMark?.count ?? 0)...]) : bytes
        if self == .utf8 {
            return String(decoding: body.prefix(body.count - incompleteUTF8Tail(body)), as: UTF8.self)
        }
        return (try? CharsetConversion.decode(body, as: self, strict: false, allowingCutEnd: true)) ?? CharsetConversion.decodeWindows1252(body)
    }

    private func isMarked(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let mark = byteOrderMark else { return false }
        return bytes.count >= mark.count && zip(bytes, mark).allSatisfy { $0 == $1 }
    }

    /// The bytes as a String if they are UTF-8 (but for an incomplete last character, when
    /// `allowingCutEnd`).
    static func validUTF8(_ bytes: UnsafeRawBufferPointer, allowingCutEnd: Bool) -> String? {
        String(validating: bytes.prefix(bytes.count - (allowingCutEnd ? incompleteUTF8Tail(bytes) : 0)), as: UTF8.self)
    }
}

/// How many bytes at the end of `bytes` begin a UTF-8 character that the end cuts off (0–3).
func incompleteUTF8Tail(_ bytes: UnsafeRawBufferPointer) -> Int {
    var tail = 0
    while tail < min(3, bytes.count) {
        let byte = bytes[bytes.count - 1 - tail]
        tail += 1
        guard byte & 0xC0 == 0x80 else {
            // A lead byte: the character it starts needs this many bytes in all.
            let length = switch byte {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0  // ASCII, or a byte that starts nothing: not a cut character
            }
            return length > tail ? tail : 0
        }
    }
    return 0
}
