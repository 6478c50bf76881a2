import CGLib
import Foundation
import GObjectSupport

/// Why a name cannot be given to an item.
public enum NameProblem: String, Sendable, Hashable, Codable {
    /// The name is empty or only white space.
    case empty
    /// The name contains "/", which separates folders in a path.
    case containsSlash
    /// The name contains a NUL byte.
    case containsNul
    /// The name is "." or "..", which every folder already has.
    case reserved
    /// The name is longer than 255 bytes (NAME_MAX).
    case tooLong
}

/// File names as people see them: a base and an extension, numbered and "(copy)" variants,
/// and the rules a new name must follow on a POSIX file system.
enum FileName {
    /// The longest name most Linux file systems accept, in bytes (NAME_MAX).
    static let maximumLength = 255

    /// Extensions that sit in front of a compression extension and belong to it (`.tar.gz`).
    private static let innerExtensions: Set<String> = ["tar"]
    static let compressionExtensions: Set<String> = [
        "gz", "bz2", "xz", "zst", "lz", "lzma", "lzo", "z", "br", "lz4", "sz",
    ]

    /// Why `name` cannot name an item, or nil when it can.
    static func problem(with name: String) -> NameProblem? {
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .empty }
        if name.contains("/") { return .containsSlash }
        if name.utf8.contains(0) { return .containsNul }
        if name == "." || name == ".." { return .reserved }
        if name.utf8.count > maximumLength { return .tooLong }
        return nil
    }

    /// Splits `name` into the part before its extension and the extension with its dot:
    /// "report.pdf" → ("report", ".pdf"), "backup.tar.gz" → ("backup", ".tar.gz"),
    /// ".bashrc" → (".bashrc", ""), "Makefile" → ("Makefile", ""). Folders keep their whole
    /// name, and a "extension" with spaces or of more than 10 characters is part of the name.
    static func split(_ name: String, isFolder: Bool) -> (base: String, extension: String) {
        guard !isFolder, let dot = extensionDot(in: name, before: name.endIndex) else { return (name, "") }
        var start = dot
        let outer = name[name.index(after: dot)...].lowercased()
        if compressionExtensions.contains(outer), let inner = extensionDot(in: name, before: dot),
            innerExtensions.contains(name[name.index(after: inner)..<dot].lowercased())
        {
            start = inner
        }
        return (String(name[..<start]), String(name[start...]))
    }

    /// The dot that starts the last extension of `name[..<end]`, if it has one.
    private static func extensionDot(in name: String, before end: String.Index) -> String.Index? {
        let head = name[..<end]
        guard let dot = head.lastIndex(of: "."), dot != head.startIndex else { return nil }  // ".bashrc"
        let candidate = head[head.index(after: dot)...]
        guard !candidate.isEmpty, candidate.count <= 10, !candidate.contains(where: \.isWhitespace) else { return nil }
        return dot
    }

    /// The name of the `number`th copy of an item: "name (copy).ext", then
    /// "name (copy 2).ext", … A name that already ends in a copy suffix is numbered on from
    /// its root, so duplicating "a (copy).txt" gives "a (copy 2).txt", not "a (copy) (copy).txt".
    static func copyName(of name: String, isFolder: Bool, number: Int) -> String {
        let (base, ext) = split(name, isFolder: isFolder)
        let root = removingCopySuffix(base)
        let candidate = number <= 1 ? tr("%s (copy)%s", root, ext) : tr("%s (copy %s)%s", root, String(number), ext)
        return fitting(candidate, base: root) { shorter in
            number <= 1 ? tr("%s (copy)%s", shorter, ext) : tr("%s (copy %s)%s", shorter, String(number), ext)
        }
    }

    /// "base" without a trailing " (copy)" or " (copy N)", as the current language writes it.
    static func removingCopySuffix(_ base: String) -> String {
        let plain = tr("%s (copy)%s", "", "")
        if !plain.isEmpty, base.hasSuffix(plain), base.count > plain.count {
            return String(base.dropLast(plain.count))
        }
        // The numbered form around a marker: " (copy " + N + ")" in English.
        let marker = "\u{1}"
        let numbered = tr("%s (copy %s)%s", "", marker, "")
        let parts = numbered.components(separatedBy: marker)
        guard parts.count == 2, !parts[0].isEmpty, base.hasSuffix(parts[1]) else { return base }
        let withoutEnd = base.dropLast(parts[1].count)
        guard let range = withoutEnd.range(of: parts[0], options: .backwards) else { return base }
        let digits = withoutEnd[range.upperBound...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            range.lowerBound > withoutEnd.startIndex
        else { return base }
        return String(withoutEnd[..<range.lowerBound])
    }

    /// The name of the `number`th item of the same name in the Trash: "name.ext", then
    /// "name.2.ext", "name.3.ext", … (the numbering GIO uses), short enough that
    /// "NAME.trashinfo" still fits in NAME_MAX.
    static func trashName(of name: String, isFolder: Bool, number: Int) -> String {
        let reserve = ".trashinfo".utf8.count
        let (base, ext) = split(name, isFolder: isFolder)
        let make = { (stem: String) in number <= 1 ? stem + ext : "\(stem).\(number)\(ext)" }
        let candidate = make(base)
        if candidate.utf8.count + reserve <= maximumLength { return candidate }
        return fitting(candidate, base: base, limit: maximumLength - reserve, make)
    }

    /// The name of the thumbnail of `name` written into a folder of the user's choice
    /// (`dossier thumbnail --output`): "name.ext.png", or, where that is longer than
    /// NAME_MAX, the base shortened by whole characters and followed by the start of the whole
    /// name's MD5, so two long names that begin alike get two thumbnails ("name…~1a2b3c4d.ext.png").
    static func thumbnailName(of name: String) -> String {
        let candidate = name + ".png"
        guard candidate.utf8.count > maximumLength else { return candidate }
        let (base, ext) = split(name, isFolder: false)
        let hash = String((takeString(g_compute_checksum_for_string(G_CHECKSUM_MD5, name, -1)) ?? "").prefix(8))
        return fitting(candidate, base: base) { "\($0)~\(hash)\(ext).png" }
    }

    /// Shortens `base` (by whole characters) until `make(base)` fits in `limit` bytes.
    private static func fitting(
        _ candidate: String, base: String, limit: Int = maximumLength, _ make: (String) -> String
    ) -> String {
        guard candidate.utf8.count > limit else { return candidate }
        var stem = base
        while !stem.isEmpty {
            stem.removeLast()
            let shorter = make(stem)
            if shorter.utf8.count <= limit { return shorter }
        }
        return make(stem)
    }

    /// The name of a new folder: "Untitled Folder", then "Untitled Folder 2", …
    static func untitledFolderName(number: Int) -> String {
        number <= 1 ? tr("Untitled Folder") : tr("Untitled Folder %s", String(number))
    }
}
