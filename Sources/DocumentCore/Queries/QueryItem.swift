import Foundation

/// One entry of a `DirectoryQuery`: what a browser needs to show, sort and filter an item
/// without touching the disk again. Made from one `lstat` (and a `stat` of a link's target);
/// the type comes from the name alone, never from the content.
public struct QueryItem: Sendable, Hashable, CustomStringConvertible {
    /// The file name, as shown. Names that are not valid UTF-8 are shown with replacement
    /// characters (and their `url` does not resolve).
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

    init(
        name: String, parent: QueryFolder, isDirectory: Bool, isSymlink: Bool, isHidden: Bool,
        size: Int64, modified: Date, type: DocumentType
    ) {
        self.name = name
        self.parent = parent
        self.isDirectory = isDirectory
        self.isSymlink = isSymlink
        self.isHidden = isHidden
        self.size = size
        self.modified = modified
        self.type = type
    }

    /// The item's path relative to the query's folder: its name, or "drafts/notes.txt" for an
    /// item a recursive query found in a subfolder.
    public var relativePath: String { parent.relativePath.isEmpty ? name : parent.relativePath + "/" + name }

    /// The item's absolute path.
    public var path: String { parent.childPath(name) }

    /// The item's location.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: isDirectory) }

    public var description: String { relativePath }

    public static func == (lhs: QueryItem, rhs: QueryItem) -> Bool {
        lhs.name == rhs.name && lhs.isDirectory == rhs.isDirectory && lhs.isSymlink == rhs.isSymlink
            && lhs.isHidden == rhs.isHidden && lhs.size == rhs.size && lhs.modified == rhs.modified
            && lhs.type == rhs.type && (lhs.parent === rhs.parent || lhs.parent.path == rhs.parent.path)
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
    let path: String
    let relativePath: String

    init(path: String, relativePath: String) {
        self.path = path
        self.relativePath = relativePath
    }

    func childPath(_ name: String) -> String { path == "/" ? "/" + name : path + "/" + name }

    func childRelativePath(_ name: String) -> String { relativePath.isEmpty ? name : relativePath + "/" + name }

    func child(_ name: String) -> QueryFolder {
        QueryFolder(path: childPath(name), relativePath: childRelativePath(name))
    }
}
