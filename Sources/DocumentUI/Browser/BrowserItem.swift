import DocumentCore
import Foundation

/// One item the browser shows, whatever the location: a folder's entry, a recent document,
/// a tagged file or a trashed item. A value: the views read it, never the disk.
struct BrowserItem: Sendable, Hashable {
    /// Where the item is now (inside the Trash for a trashed item). Made from `key` when asked:
    /// a URL kept per item cost about 400–700 bytes, tens of megabytes for a 100,000-file folder.
    /// A remote item's key is its URI (sftp://…), a local one's an absolute path.
    var url: URL {
        guard !key.hasPrefix("/"), let remote = URL(string: key) else { return URL(fileURLWithPath: key, isDirectory: isDirectory) }
        return remote
    }
    /// The name shown (the original name for a trashed item).
    let name: String
    /// `name` as the browser shows it: invisible controls written out (`VisibleName`).
    var shownName: String { VisibleName.of(name) }
    let isDirectory: Bool
    let isHidden: Bool
    let size: Int64
    let modified: Date?
    let type: DocumentType
    /// The folder shown under the name: for search results in a subfolder, recent documents
    /// and tagged files ("Documents/drafts"); nil in a folder's own listing.
    var location: String?
    /// For an item in the Trash: where it was and when it was deleted.
    var trashed: TrashedItem? { trashedBox?.item }
    /// Boxed, so items outside the Trash don't carry its room.
    private let trashedBox: TrashedBox?
    /// For a recent document: when it was last used.
    var lastUsed: Date?

    /// What identifies the item across changes of its attributes: its absolute path, or a
    /// remote item's URI.
    let key: String

    /// The key of the item at `url`: its path, or its URI when it is not a local file or its
    /// path's bytes are not UTF-8 (the URI's escapes keep them; a path string would not).
    static func key(for url: URL) -> String { url.isFileURL ? url.rawPath.string ?? url.absoluteString : url.absoluteString }

    init(url: URL, name: String, isDirectory: Bool, isHidden: Bool = false, size: Int64 = 0, modified: Date? = nil,
         type: DocumentType, location: String? = nil, trashed: TrashedItem? = nil) {
        self.init(path: Self.key(for: url), name: name, isDirectory: isDirectory, isHidden: isHidden, size: size, modified: modified,
                  type: type, location: location, trashed: trashed)
    }

    /// The item at the absolute `path`.
    init(path: String, name: String, isDirectory: Bool, isHidden: Bool = false, size: Int64 = 0, modified: Date? = nil,
         type: DocumentType, location: String? = nil, trashed: TrashedItem? = nil) {
        key = path
        self.name = name
        self.isDirectory = isDirectory
        self.isHidden = isHidden
        self.size = size
        self.modified = modified
        self.type = type
        self.location = location
        trashedBox = trashed.map(TrashedBox.init)
    }

    /// A folder query's item; `showingFolder` adds its subfolder (for recursive search results).
    init(_ item: QueryItem, showingFolder: Bool = false) {
        // The folder only when shown: a 100,000-file folder's listing makes no path strings.
        let folder = showingFolder ? (item.relativePath as NSString).deletingLastPathComponent : ""
        self.init(path: item.hasUTF8Name ? item.path : item.url.absoluteString, name: item.displayName, isDirectory: item.isDirectory, isHidden: item.isHidden,
                  size: item.size, modified: item.modified, type: item.type,
                  location: showingFolder && !folder.isEmpty ? folder : nil)
    }

    /// The item at `url`, read with one `stat` (off the main thread), or nil when it is gone.
    init?(reading url: URL, location: String? = nil) {
        var status = stat()
        guard url.rawPath.withCString({ stat($0, &status) }) == 0 else { return nil }
        let isDirectory = status.st_mode & S_IFMT == S_IFDIR
        let name = url.isFileURL ? url.fileDisplayName : url.lastPathComponent
        self.init(url: url, name: name, isDirectory: isDirectory, isHidden: name.hasPrefix("."),
                  size: isDirectory ? 0 : Int64(status.st_size),
                  modified: Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)),
                  type: isDirectory ? .folder : DocumentType(fileName: name), location: location)
    }

    /// A trashed item, described by its entry in the Trash.
    init(trashed item: TrashedItem) {
        var status = stat()
        let exists = lstat(item.url.path, &status) == 0
        let isDirectory = exists && status.st_mode & S_IFMT == S_IFDIR
        let name = item.originalName
        self.init(url: item.url, name: name, isDirectory: isDirectory, isHidden: false,
                  size: exists && !isDirectory ? Int64(status.st_size) : 0, modified: item.deletionDate,
                  type: isDirectory ? .folder : DocumentType(fileName: name),
                  location: (item.originalPath as NSString).deletingLastPathComponent, trashed: item)
    }

    /// Does the name contain `text` (case and accents ignored)?
    func matches(_ text: String) -> Bool {
        text.isEmpty || name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }
}

/// A trashed item's entry, shared by copies of its browser item.
private final class TrashedBox: Hashable, Sendable {
    let item: TrashedItem
    init(_ item: TrashedItem) { self.item = item }
    static func == (lhs: TrashedBox, rhs: TrashedBox) -> Bool { lhs.item == rhs.item }
    func hash(into hasher: inout Hasher) { hasher.combine(item) }
}

/// A path shown shorter: "~/Documents" for a folder under the home folder.
func displayPath(_ path: String, home: String = NSHomeDirectory()) -> String {
    if path == home { return "~" }
    if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
    return path
}
