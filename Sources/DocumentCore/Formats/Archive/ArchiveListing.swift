import Foundation

/// An archive's entries (zip, tar and its compressed forms, 7z, rar, cpio, ar/deb, ISO 9660…),
/// as a folder tree flattened in display order: unsafe entries first, then each folder
/// followed by its contents, folders before files.
///
/// libarchive reads the archive in a decoder worker (`ArchiveReader`); what comes back is
/// checked here as untrusted (`ArchiveListingCoding`), and the unsafe flags and the tree are
/// worked out in this process from the paths alone.
package struct ArchiveListing: Equatable, Sendable {
    package var entries: [ArchiveEntry]
    /// True when the listing stopped at `entryLimit`, `timeLimit` or `textLimit`.
    package var isTruncated: Bool
    /// libarchive's message when it could not read past some entry.
    package var damage: String?

    package init(entries: [ArchiveEntry], isTruncated: Bool, damage: String?) {
        self.entries = entries
        self.isTruncated = isTruncated
        self.damage = damage
    }

    package static let entryLimit = 500_000
    /// A tar.xz has no index: listing it reads it whole. Past this, what was read is shown
    /// (well within the previewer's 15 s, with time left to sort the tree). The worker's own
    /// limits (`PreviewWorkers.limits`) stop a single entry that never ends.
    package static let timeLimit: Duration = .seconds(6)
    /// The longest path or link target kept, in bytes (a zip's names are at most 65,535).
    package static let pathLimit = 1 << 16
    /// The most bytes of paths and link targets in one listing: past this it is truncated.
    package static let textLimit = 128 << 20
    /// The longest damage message kept, in bytes.
    package static let damageLimit = 4096

    /// Reads the entries of the archive at `path` in a decoder worker; `raw` also accepts a
    /// lone compressed file (`notes.txt.gz`) as an archive of one entry. Blocking: call it off
    /// the main thread. Dropped unsent, with `.cancelled`, once `cancellation` is set.
    package static func read(_ path: FileSystemPath, raw: Bool, cancellation: Cancellation? = nil) -> Result<ArchiveListing, ArchiveError> {
        Result { () throws(ArchiveError) -> ArchiveListing in
            let inOrder = try ArchiveWorkers.list(path, raw: raw, cancellation: cancellation)
            return arranged(inOrder)
        }
    }

    /// `listing` (entries in the archive's order, as the worker sends them) with every entry's
    /// unsafe flag worked out here, nested into the display tree.
    package static func arranged(_ listing: ArchiveListing) -> ArchiveListing {
        var entries = listing.entries
        for index in entries.indices {
            entries[index].isUnsafe = isUnsafe(entries[index].path)
            entries[index].name = entries[index].path
            entries[index].depth = 0
        }
        return ArchiveListing(entries: tree(entries), isTruncated: listing.isTruncated, damage: listing.damage)
    }

    /// True for a path that would land outside a folder it is extracted into: absolute (`/x`,
    /// `C:\x`, `\\server\x`) or climbing with `..`. Zip writers on Windows use `\` too.
    package static func isUnsafe(_ path: String) -> Bool {
        if path.hasPrefix("/") || path.hasPrefix("\\") { return true }
        let characters = Array(path.prefix(2))
        if characters.count == 2, characters[1] == ":", characters[0].isASCII, characters[0].isLetter { return true }
        return path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
    }

    /// The components of a safe path, without `.` and empty ones (`./a//b/` is `a`, `b`).
    static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    /// `text` cut to at most `limit` bytes of UTF-8, whole characters only.
    package static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var end = text.startIndex
        var length = 0
        for index in text.indices {
            let next = length + text[index].utf8.count
            if next > limit { break }
            length = next
            end = text.index(after: index)
        }
        return String(text[..<end])
    }
}
