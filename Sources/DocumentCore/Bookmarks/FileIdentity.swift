import CGLib
import Foundation

/// A point in time as a file system stores it: seconds and nanoseconds since the epoch.
package struct FileTimestamp: Sendable, Hashable, Codable {
    /// Whole seconds since 1970-01-01 00:00 UTC.
    package var seconds: Int64
    /// The nanoseconds past `seconds`, below one billion.
    package var nanoseconds: UInt32

    /// Makes a timestamp from seconds since the epoch and the nanoseconds past them.
    package init(seconds: Int64, nanoseconds: UInt32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The same moment as a `Date` (to the microsecond or so).
    package var date: Date { Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(nanoseconds) / 1e9) }
}

/// What statx(2) says identifies a file: device and inode, kind, size, modification time and,
/// where the file system keeps one, birth time. Symbolic links are not followed.
struct FileIdentity: Sendable, Hashable {
    enum Kind: UInt8, Sendable {
        case regular = 1, directory, symbolicLink, other
    }

    let device: UInt64
    let inode: UInt64
    /// The mount's ID as in /proc/self/mountinfo (nil when the kernel does not report it).
    let mountID: UInt64?
    let kind: Kind
    let size: Int64
    let modified: FileTimestamp
    let birth: FileTimestamp?

    /// Looks at `path`; nil when it does not exist or cannot be looked at.
    init?(path: String, followingLinks: Bool = false) {
        self.init(directory: AT_FDCWD, name: path, followingLinks: followingLinks)
    }

    /// Looks at `name` inside the open folder `directory` (a descriptor), or at a path.
    init?(directory: Int32, name: String, followingLinks: Bool = false) {
        var raw = dossier_file_identity()
        guard dossier_file_identity_at(directory, name, followingLinks ? 1 : 0, &raw) == 0 else { return nil }
        device = raw.device
        inode = raw.inode
        mountID = raw.mount_id == 0 ? nil : raw.mount_id
        let format: mode_t = mode_t(raw.mode) & S_IFMT
        switch format {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = raw.size
        modified = FileTimestamp(seconds: raw.modified_seconds, nanoseconds: raw.modified_nanoseconds)
        birth = raw.has_birth != 0 ? FileTimestamp(seconds: raw.birth_seconds, nanoseconds: raw.birth_nanoseconds) : nil
    }

    init(device: UInt64, inode: UInt64, mountID: UInt64?, kind: Kind, size: Int64, modified: FileTimestamp,
         birth: FileTimestamp?) {
        self.device = device
        self.inode = inode
        self.mountID = mountID
        self.kind = kind
        self.size = size
        self.modified = modified
        self.birth = birth
    }
}

/// Device numbers as glibc packs them (`makedev`, `major`, `minor` are macros Swift does not import).
enum DeviceNumber {
    static func make(major: UInt64, minor: UInt64) -> UInt64 {
        ((major & 0xfffff000) << 32) | ((major & 0xfff) << 8) | ((minor & 0xffffff00) << 12) | (minor & 0xff)
    }

    static func major(_ device: UInt64) -> UInt64 { ((device >> 8) & 0xfff) | ((device >> 32) & 0xffff_f000) }

    static func minor(_ device: UInt64) -> UInt64 { (device & 0xff) | ((device >> 12) & 0xffff_ff00) }
}
