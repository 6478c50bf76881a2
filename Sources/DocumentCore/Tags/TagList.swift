import Foundation

/// The value of the `user.xdg.tags` extended attribute, as KDE (Baloo, Dolphin) writes it:
/// tags separated by commas, no escaping.
public enum TagList {
    /// The tags in `value`: spaces around each trimmed, empty ones and repeats dropped, the
    /// first occurrence's order kept.
    public static func parse(_ value: String) -> [String] {
        // Every comma separates, as KDE splits the bytes: one followed by a combining mark
        // (",\u{301}") is a single Character with it, which a split on Characters would miss.
        normalize(value.unicodeScalars.split(separator: ",", omittingEmptySubsequences: true).map(String.init))
    }

    /// The tags in the attribute's bytes, as `getxattr` gives them (UTF-8; bytes that are not
    /// become U+FFFD).
    package static func parse<Bytes: Collection>(attribute bytes: Bytes) -> [String] where Bytes.Element == UInt8 {
        parse(String(decoding: bytes, as: UTF8.self))
    }

    /// `tags` trimmed, without empty ones or repeats, in their first order.
    public static func normalize(_ tags: [String]) -> [String] {
        var seen: Set<String> = []
        return tags.compactMap { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, seen.insert(trimmed).inserted else { return nil }
            return trimmed
        }
    }

    /// The attribute value for `tags` (already normalized): joined with commas, no spaces.
    public static func format(_ tags: [String]) -> String {
        tags.joined(separator: ",")
    }

    /// A tag that cannot be stored: one holding a comma (the separator) or a line break,
    /// also as part of a larger Character.
    static func invalidTag(in tags: [String]) -> String? {
        tags.first { $0.unicodeScalars.contains { $0 == "," || $0 == "\n" } }
    }
}
