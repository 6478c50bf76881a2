import Foundation

/// Tags of files whose file system has no user extended attributes (ramfs, some FUSE and
/// network file systems), kept in `$XDG_DATA_HOME/dossier/tags.json` and keyed by a bookmark,
/// so they follow the file when it is renamed or moved on its volume:
///
///     {"version": 1, "entries": [{"bookmark": "<base64>", "tags": ["work", "urgent"]}]}
///
/// Looked up by the file's device and inode (and birth time where there is one). Reloaded
/// when changed on disk; written with `SafeSave` inside a coordinated write.
final class TagFallbackStore: @unchecked Sendable {
    // @unchecked: `entries` and `onDisk` are only touched under `lock`.
    private struct Contents: Codable {
        struct Entry: Codable {
            var bookmark: String
            var tags: [String]
        }
        var version: Int
        var entries: [Entry]
    }

    private struct Entry {
        var bookmark: Bookmark
        var tags: [String]
    }

    let url: URL
    private let lock = NSLock()
    private var entries: [Entry] = []
    private var onDisk: FileState?
    private var loaded = false

    init(url: URL) { self.url = url }

    func tags(of path: String, identity: FileIdentity) throws(TagError) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        try refresh()
        return entries.first { matches($0.bookmark, identity) }?.tags ?? []
    }

    func setTags(_ tags: [String], of path: String, identity: FileIdentity) throws(TagError) {
        do {
            try FileCoordinator().coordinate(writingItemAt: url, timeout: .seconds(10)) { _ in
                lock.lock()
                defer { lock.unlock() }
                try refresh()
                entries.removeAll { matches($0.bookmark, identity) }
                if !tags.isEmpty {
                    let bookmark: Bookmark
                    do {
                        bookmark = try Bookmark(path: path)
                    } catch {
                        throw TagError.failed(name: (path as NSString).lastPathComponent, reason: "\(error)")
                    }
                    entries.append(Entry(bookmark: bookmark, tags: tags))
                }
                try save()
            }
        } catch let error as TagError {
            throw error
        } catch {
            throw .storeFailed(path: url.path, reason: "\(error)")
        }
    }

    /// Same device and inode, and the same birth time when both have one.
    private func matches(_ bookmark: Bookmark, _ identity: FileIdentity) -> Bool {
        guard bookmark.device == identity.device, bookmark.inode == identity.inode else { return false }
        if let birth = bookmark.birth, let other = identity.birth { return birth == other }
        return true
    }

    private func refresh() throws(TagError) {
        let state = FileState(path: url.path)
        guard !loaded || state != onDisk else { return }
        loaded = true
        onDisk = state
        guard state != nil else {
            entries = []
            return
        }
        do {
            let contents = try JSONDecoder().decode(Contents.self, from: Data(contentsOf: url))
            entries = contents.entries.compactMap { entry in
                (try? Bookmark(base64Encoded: entry.bookmark)).map { Entry(bookmark: $0, tags: entry.tags) }
            }
        } catch {
            throw .storeFailed(path: url.path, reason: error.localizedDescription)
        }
    }

    private func save() throws(TagError) {
        let contents = Contents(version: 1, entries: entries.map {
            Contents.Entry(bookmark: $0.bookmark.base64EncodedString(), tags: $0.tags)
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SafeSave.write(try encoder.encode(contents), to: url)
        } catch let error as SaveError {
            throw .storeFailed(path: url.path, reason: error.description)
        } catch {
            throw .storeFailed(path: url.path, reason: error.localizedDescription)
        }
        onDisk = FileState(path: url.path)
    }
}
