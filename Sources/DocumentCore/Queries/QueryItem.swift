import Foundation

/// One entry of a `DirectoryQuery`: what a browser needs to show, sort and filter an item
/// without touching the disk again. Made from one `lstat` (and a `stat` of a link's target);
/// the type comes from the name alone, never from the content.
public struct QueryItem: Sendable, Hashable, CustomStringConvertible {
    /// The file name. A name that is not UTF-8 has its invalid bytes as U+FFFD here; its bytes
    /// are kept (`url` reaches the file) and `displayName` says so.
    public let name: String
    /// True for a folder, or a link to one.
    public let isDirectory: Bool
    /// True when the item itself is a symbolic link (the other fields describe its target,
    /// or the link when the target is missing).
    public let isSymlink: Bool
    /// True for names starting with "." and names listed in the folder's `.hidden` file.
    public let isHidden: Bool
    /// The size in bytes of a file (of the target, for a link); 0 for folders and special files.
    public let size: Int64
    /// The last modification of the content.
    public let modified: Date
    /// The type the name suggests (`DocumentType(fileName:)`); `.folder` for folders, the
    /// `inode/*` type for special files and broken links.
    public let type: DocumentType
    /// The folder that holds the item, shared by all its siblings.
    let parent: QueryFolder
    /// What GIO said besides, for an item of a remote location; nil for a local one (which
    /// then costs one pointer more, not a dictionary of attributes).
    let remote: RemoteItemDetails?
    /// The name's bytes, kept only for a local name that is not UTF-8 (nil for every other).
    let nameBytes: [UInt8]?

    init(
        name: String, parent: QueryFolder, isDirectory: Bool, isSymlink: Bool, isHidden: Bool,
        size: Int64, modified: Date, type: DocumentType, remote: RemoteItemDetails? = nil, nameBytes: [UInt8]? = nil
    ) {
        self.nameBytes = nameBytes
        self.name = name
        self.parent = parent
        self.isDirectory = isDirectory
        self.isSymlink = isSymlink
        self.isHidden = isHidden
        self.size = size
        self.modified = modified
        self.type = type
        self.remote = remote
    }

    /// The name to show: the server's display name for a remote item (GIO's
    /// `standard::display-name`, which may differ from the name in its URI); a name that is not
    /// UTF-8 as GLib shows it ("caf\u{FFFD}.txt (invalid encoding)"); else `name`.
    public var displayName: String {
        if let nameBytes { return FileSystemPath(bytes: nameBytes).displayName }
        return remote?.displayName ?? name
    }

    /// False for a local name whose bytes are not UTF-8: `path` then does not name the file
    /// (its invalid bytes are U+FFFD), and only `url` reaches it.
    public var hasUTF8Name: Bool { nameBytes == nil }

    /// The icon GIO gives a remote item (`g_icon_to_string` of `standard::icon`, for
    /// `g_icon_new_for_string`); nil for local items, whose icon comes from their type.
    public var iconDescription: String? { remote?.icon }

    /// A thumbnail GIO already knows of for a remote item (`thumbnail::path`); nil otherwise.
    public var thumbnailPath: String? { remote?.thumbnailPath }

    /// True for an item of a remote location, listed through GIO (`url` is then its URI).
    public var isRemote: Bool { parent.isRemote }

    /// The item's path relative to the query's folder: its name, or "drafts/notes.txt" for an
    /// item a recursive query found in a subfolder.
    public var relativePath: String { parent.relativePath.isEmpty ? name : parent.relativePath + "/" + name }

    /// The item's absolute path; for a remote item, its URI (`sftp://host/folder/name`).
    public var path: String { parent.childPath(name) }

    /// The item's location: a `file:` URL (whose escapes keep a name's bytes), or the remote
    /// item's URI.
    public var url: URL {
        if let nameBytes {
            let folder = FileSystemPath(parent.path).bytes
            return FileSystemPath(bytes: (folder == [UInt8(ascii: "/")] ? [] : folder) + [UInt8(ascii: "/")] + nameBytes).url
        }
        guard parent.isRemote else { return URL(fileURLWithPath: path, isDirectory: isDirectory) }
        return URL(string: path) ?? URL(fileURLWithPath: "/")
    }

    public var description: String { relativePath }

    public static func == (lhs: QueryItem, rhs: QueryItem) -> Bool {
        lhs.name == rhs.name && lhs.nameBytes == rhs.nameBytes && lhs.isDirectory == rhs.isDirectory && lhs.isSymlink == rhs.isSymlink
            && lhs.isHidden == rhs.isHidden && lhs.size == rhs.size && lhs.modified == rhs.modified
            && lhs.type == rhs.type && (lhs.parent === rhs.parent || lhs.parent.path == rhs.parent.path)
            && lhs.remote == rhs.remote
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(parent.path)
        hasher.combine(name)
        hasher.combine(size)
        hasher.combine(modified)
        hasher.combine(type)
        hasher.combine(isDirectory)
        hasher.combine(isSymlink)
        hasher.combine(isHidden)
    }
}

/// A folder a query lists: its absolute path and its path relative to the query's folder.
/// One instance is shared by every item in it, so an item costs a pointer, not a path.
final class QueryFolder: Sendable {
    /// The absolute path; for a remote folder, its URI without a trailing slash.
    let path: String
    let relativePath: String
    /// True for a folder GIO lists (a URI of sftp://, smb://, dav://…), not a local path.
    let isRemote: Bool

    init(path: String, relativePath: String, isRemote: Bool = false) {
        self.path = path
        self.relativePath = relativePath
        self.isRemote = isRemote
    }

    func childPath(_ name: String) -> String {
        if isRemote { return path + "/" + RemoteItemDetails.escapedName(name) }
        return path == "/" ? "/" + name : path + "/" + name
    }

    func childRelativePath(_ name: String) -> String { relativePath.isEmpty ? name : relativePath + "/" + name }

    func child(_ name: String) -> QueryFolder {
        QueryFolder(path: childPath(name), relativePath: childRelativePath(name), isRemote: isRemote)
    }
}

/// What GIO tells about a remote item besides what every item has. Shared by copies of the item.
final class RemoteItemDetails: Sendable, Equatable {
    let displayName: String?
    let icon: String?
    let thumbnailPath: String?
    let etag: String?

    init(displayName: String?, icon: String?, thumbnailPath: String?, etag: String?) {
        self.displayName = displayName
        self.icon = icon
        self.thumbnailPath = thumbnailPath
        self.etag = etag
    }

    static func == (lhs: RemoteItemDetails, rhs: RemoteItemDetails) -> Bool {
        lhs.displayName == rhs.displayName && lhs.icon == rhs.icon && lhs.thumbnailPath == rhs.thumbnailPath
            && lhs.etag == rhs.etag
    }

    /// A name as one segment of a URI path, as GIO escapes a child's name.
    static func escapedName(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }
}
