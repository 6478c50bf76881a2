import Foundation

/// Dossier's bookmark for each recent document it recorded, by URI, in
/// `$XDG_DATA_HOME/dossier/recents.json`:
///
///     {"version": 1, "bookmarks": {"file:///home/ann/a.pdf": "<base64 bookmark>"}}
///
/// Kept beside the XBEL rather than inside it: GBookmarkFile has no API for private metadata,
/// and drops metadata of other owners when it writes, as every GTK program that records a
/// recent file would. Written with `SafeSave`; reloaded when changed on disk.
///
/// Not thread-safe: `RecentDocuments` owns one behind its lock.
final class RecentBookmarks {
    private struct Contents: Codable {
        var version: Int
        var bookmarks: [String: String]
    }

    let url: URL
    private(set) var bookmarks: [String: Bookmark] = [:]
    /// The base64 form of each, kept so a save does not encode every bookmark again.
    private var encoded: [String: String] = [:]
    private var onDisk: FileState?
    private var loaded = false
    private var dirty = false

    init(url: URL) { self.url = url }

    func refresh() throws(RecentsError) {
        let state = FileState(path: url.path)
        guard !loaded || state != onDisk else { return }
        loaded = true
        onDisk = state
        dirty = false
        guard state != nil else {
            bookmarks = [:]
            encoded = [:]
            return
        }
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: Data(contentsOf: url))
        } catch {
            throw .unreadable(path: url.path, reason: "\(error.localizedDescription)")
        }
        // Entries a newer Dossier wrote, or damaged ones, are skipped: they only cost a search.
        bookmarks = contents.bookmarks.compactMapValues { try? Bookmark(base64Encoded: $0) }
        encoded = contents.bookmarks.filter { bookmarks[$0.key] != nil }
    }

    subscript(uri: String) -> Bookmark? {
        get { bookmarks[uri] }
        set {
            guard bookmarks[uri] != newValue else { return }
            bookmarks[uri] = newValue
            encoded[uri] = newValue?.base64EncodedString()
            dirty = true
        }
    }

    func removeAll() {
        guard !bookmarks.isEmpty else { return }
        bookmarks = [:]
        encoded = [:]
        dirty = true
    }

    /// Writes the changes, if any.
    func save() throws(RecentsError) {
        guard dirty else { return }
        let contents = Contents(version: 1, bookmarks: encoded)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SafeSave.write(try encoder.encode(contents), to: url)
        } catch let error as SaveError {
            throw .unwritable(path: url.path, reason: error.description)
        } catch {
            throw .unwritable(path: url.path, reason: error.localizedDescription)
        }
        onDisk = FileState(path: url.path)
        dirty = false
    }
}
