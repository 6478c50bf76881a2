import Foundation

/// The contents of one `info/NAME.trashinfo` file (Trash specification 1.0, "Contents of a
/// trash directory"):
///
///     [Trash Info]
///     Path=foo/bar/meow.bmp
///     DeletionDate=2004-08-31T22:32:08
package struct TrashInfo: Equatable {
    /// The original location, unescaped: absolute, or relative to the trash's top folder.
    package var path: String
    /// When the item was trashed; nil when the record has no readable date.
    package var deletionDate: Date?

    /// Why a `.trashinfo` file could not be read.
    package enum Problem: Error, Equatable {
        case missingGroup
        case missingPath
        case invalidPath(String)

        var description: String {
            switch self {
            case .missingGroup: tr("it has no [Trash Info] group")
            case .missingPath: tr("it has no Path key")
            case .invalidPath(let value): tr("its Path “%s” is not a valid escaped path", value)
            }
        }
    }

    /// The file's text, as the specification lays it out.
    package var serialized: String {
        var text = "[Trash Info]\nPath=\(Self.escape(path))\n"
        if let deletionDate {
            text += "DeletionDate=\(Self.format(deletionDate))\n"
        }
        return text
    }

    init(path: String, deletionDate: Date?) {
        self.path = path
        self.deletionDate = deletionDate
    }

    /// Reads a `.trashinfo` file's text. Keys outside the `[Trash Info]` group, comments and
    /// unknown keys are ignored; a missing or unreadable date is tolerated (nil).
    package init(parsing text: String) throws(Problem) {
        var inGroup = false
        var sawGroup = false
        var path: String?
        var date: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                inGroup = line == "[Trash Info]"
                sawGroup = sawGroup || inGroup
                continue
            }
            guard inGroup, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            // The first occurrence of a key counts, as in GKeyFile.
            if key == "Path", path == nil { path = value }
            if key == "DeletionDate", date == nil { date = value }
        }
        guard sawGroup else { throw .missingGroup }
        guard let path, !path.isEmpty else { throw .missingPath }
        guard let unescaped = Self.unescape(path), !unescaped.isEmpty else { throw .invalidPath(path) }
        self.path = unescaped
        deletionDate = date.flatMap(Self.parseDate)
    }

    // MARK: Escaping

    /// The bytes RFC 2396 leaves unescaped ("unreserved": letters, digits and `-_.!~*'()`),
    /// plus "/", which the Trash specification keeps as it is.
    private static let unescaped: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()/".utf8))

    /// Escapes a path "in the same manner as in URLs (as defined in RFC 2396), characters
    /// “/” are not escaped": every other byte of its UTF-8 becomes `%XX`.
    static func escape(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            if unescaped.contains(byte) {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Undoes `escape` (and any other `%XX` escaping); nil for a malformed escape or bytes
    /// that are not UTF-8.
    static func unescape(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Dates

    /// "YYYY-MM-DDThh:mm:ss" in local time, without a zone, as the specification asks.
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Reads "YYYY-MM-DDThh:mm:ss" as local time; anything after the seconds (fractions or a
    /// zone some writers add) is ignored.
    static func parseDate(_ text: String) -> Date? {
        let characters = Array(text.utf8)
        guard characters.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for index in range {
                let byte = characters[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"),
            characters[10] == UInt8(ascii: "T"), characters[13] == UInt8(ascii: ":"), characters[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        parts.tm_isdst = -1  // let the C library decide whether summer time applied
        let seconds = mktime(&parts)
        guard seconds != -1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
