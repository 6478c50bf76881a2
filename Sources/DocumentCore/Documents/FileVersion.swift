import Foundation

/// One version of an item's content as it is on disk: its inode, size and modification time.
/// A save compares the version it read with the one on disk now, to notice that someone else
/// saved in between (a save by rename gives a new inode; a write in place a new time or size).
public struct FileVersion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The `st_dev` of the file system that holds the file.
    public let device: UInt64
    /// The file's `st_ino`: a save by rename gives a new one.
    public let inode: UInt64
    /// The size in bytes.
    public let size: Int64
    /// The modification time's whole seconds since the epoch.
    public let modifiedSeconds: Int64
    /// The nanoseconds past `modifiedSeconds`.
    public let modifiedNanoseconds: Int64

    /// The version of the file at `url` now (following symbolic links), or nil when absent.
    public init?(at url: URL) {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedSeconds = Int64(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
    }

    /// When this version was written.
    public var modificationDate: Date {
        Date(timeIntervalSince1970: TimeInterval(modifiedSeconds) + TimeInterval(modifiedNanoseconds) / 1e9)
    }

    public var description: String { "inode \(inode), \(size) bytes, modified \(modificationDate)" }
}
