import CGLib
import Foundation

/// A reference to a local file or folder that finds it again after it was renamed or moved,
/// also by another program while Dossier was not running: the bookmark data of Linux.
///
/// It records the item's path, its identity on disk (`st_dev`, `st_ino`, birth time where the
/// file system keeps one), its size and modification time, the inodes of the folders above
/// it, and its volume (UUID, label, mount point). `resolve(options:)` checks the path first
/// and, when the item is no longer there, searches for its inode within a time budget.
/// A bookmark is a plain value: store it as JSON (`Codable`) or as compact data
/// (`dataRepresentation`, `base64EncodedString()`), both versioned.
public struct Bookmark: Sendable, Hashable, Codable {
    /// The format this build writes; data with a higher version is refused with
    /// `BookmarkError.newerVersion`.
    public static let formatVersion = 1

    /// The kind of item bookmarked.
    public enum Kind: UInt8, Sendable, Codable {
        /// A regular file, a folder, or anything else (a device, a socket, a FIFO).
        case file = 1, folder, other
    }

    /// The absolute path, with symbolic links resolved, when the bookmark was made.
    public var path: String
    /// `st_dev` of the item when the bookmark was made.
    public var device: UInt64
    /// `st_ino` of the item: with the volume, what identifies it wherever it moves.
    public var inode: UInt64
    /// Whether the item was a file, a folder or something else when the bookmark was made.
    public var kind: Kind
    /// The size in bytes when the bookmark was made.
    public var size: Int64
    /// The modification time when the bookmark was made.
    package var modified: FileTimestamp
    /// The birth time (statx `STATX_BTIME`); nil where the file system keeps none. When both
    /// sides have one, it must match: an inode number reused by a new file is not the item.
    package var birth: FileTimestamp?
    /// The volume the item is on.
    package var volume: Volume
    /// The inodes of the folders between the volume's mount point and the item, outermost
    /// first (one per path component below the mount point, except the item's own): finds the
    /// item when a folder above it was moved.
    public var folderInodes: [UInt64]
    /// When the bookmark was made, to the second.
    public var created: Date

    /// Makes a bookmark to the local item at `url`, following symbolic links to what they
    /// point at.
    /// - Throws: `BookmarkError.notLocal` for a non-file URL; `.cannotCreate` when the item
    ///   is missing or cannot be looked at.
    public init(url: URL) throws(BookmarkError) {
        try self.init(url: url, volumes: VolumeTable())
    }

    /// Makes a bookmark to the local item at `path` (see `init(url:)`).
    public init(path: String) throws(BookmarkError) {
        try self.init(url: URL(fileURLWithPath: path))
    }

    init(url: URL, volumes: VolumeTable) throws(BookmarkError) {
        guard url.isFileURL else { throw .notLocal(location: url.absoluteString) }
        let name = url.lastPathComponent
        guard let resolved = realpath(url.path, nil) else {
            throw .cannotCreate(name: name, reason: String(cString: strerror(errno)))
        }
        let path = String(cString: resolved)
        free(resolved)
        guard let identity = FileIdentity(path: path) else {
            throw .cannotCreate(name: name, reason: String(cString: strerror(errno)))
        }
        guard let mount = volumes.mount(containing: path, identity: identity) else {
            throw .cannotCreate(name: name, reason: tr("its volume is not listed in /proc/self/mountinfo"))
        }
        self.init(path: path, identity: identity, volume: volumes.volume(of: mount),
                  folderInodes: Self.folderInodes(of: path, below: mount.mountPoint))
    }

    init(path: String, identity: FileIdentity, volume: Volume, folderInodes: [UInt64], created: Date = Date()) {
        self.path = path
        device = identity.device
        inode = identity.inode
        kind = Kind(identity.kind)
        size = identity.size
        modified = identity.modified
        birth = identity.birth
        self.volume = volume
        self.folderInodes = folderInodes
        // Whole seconds, as both stored forms keep it.
        self.created = Date(timeIntervalSince1970: created.timeIntervalSince1970.rounded())
    }

    /// Every field given: for tools and tests that build or alter a bookmark by hand.
    package init(path: String, device: UInt64, inode: UInt64, kind: Kind, size: Int64, modified: FileTimestamp,
                birth: FileTimestamp?, volume: Volume, folderInodes: [UInt64], created: Date) {
        self.path = path
        self.device = device
        self.inode = inode
        self.kind = kind
        self.size = size
        self.modified = modified
        self.birth = birth
        self.volume = volume
        self.folderInodes = folderInodes
        self.created = created
    }

    /// The item's last known location.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: kind == .folder) }

    /// The item's name when the bookmark was made.
    public var name: String { (path as NSString).lastPathComponent }

    /// The inodes of the folders from below `mountPoint` down to the item's parent.
    static func folderInodes(of path: String, below mountPoint: String) -> [UInt64] {
        var inodes: [UInt64] = []
        var folder = (path as NSString).deletingLastPathComponent
        while folder != mountPoint, folder.count > mountPoint.count, isPrefix(mountPoint, of: folder) {
            inodes.append(FileIdentity(path: folder)?.inode ?? 0)  // 0: could not be looked at
            folder = (folder as NSString).deletingLastPathComponent
        }
        return inodes.reversed()
    }
}

extension Bookmark.Kind {
    init(_ kind: FileIdentity.Kind) {
        switch kind {
        case .regular: self = .file
        case .directory: self = .folder
        case .symbolicLink, .other: self = .other
        }
    }
}
