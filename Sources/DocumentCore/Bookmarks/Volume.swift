import CGLib
import Foundation

/// The file system a bookmarked item lives on, as recorded in the bookmark: what finds the
/// volume again after a reboot or a replug (its UUID), and how to name it to a person.
package struct Volume: Sendable, Hashable, Codable {
    /// The file system UUID udev lists in `/dev/disk/by-uuid`; nil for file systems without
    /// one (tmpfs, overlay, network mounts) or where udev keeps no such folder (containers).
    package var uuid: String?
    /// The label from `/dev/disk/by-label`, when the file system has one.
    package var label: String?
    /// Where it was mounted (`/`, `/media/ann/STICK`).
    package var mountPoint: String
    /// The file system type (`ext4`, `vfat`, `tmpfs`…).
    package var fileSystemType: String
    /// The device number (`st_dev`) of its files when recorded. Not stable across reboots for
    /// every file system, so the UUID or the mount point decides which volume is meant.
    package var device: UInt64

    /// A volume described by hand (tools and tests; `Bookmark(url:)` records the real one).
    package init(uuid: String?, label: String?, mountPoint: String, fileSystemType: String, device: UInt64) {
        self.uuid = uuid
        self.label = label
        self.mountPoint = mountPoint
        self.fileSystemType = fileSystemType
        self.device = device
    }

    /// How to name the volume in a message: its label, else its UUID, else its mount point.
    package var displayName: String { label ?? uuid ?? mountPoint }
}

/// One line of /proc/self/mountinfo (proc(5)).
struct Mount: Sendable, Hashable {
    let id: UInt64
    let device: UInt64
    /// The folder of the file system mounted here (`/` unless a bind mount of a subfolder).
    let root: String
    let mountPoint: String
    let fileSystemType: String
    let source: String
}

/// The mounts of this process, and the UUIDs and labels udev gives their devices. Read when
/// made; a few dozen lines and one small folder, so cheap to make again when in doubt.
struct VolumeTable: Sendable {
    let mounts: [Mount]
    private let disks: String

    /// Reads `mountInfo` (normally `/proc/self/mountinfo`) and remembers where udev's
    /// `by-uuid` and `by-label` folders are (`/dev/disk`; a test may forge its own).
    init(mountInfo: String = "/proc/self/mountinfo", diskFolder: String = "/dev/disk") {
        disks = diskFolder
        let text = (try? String(contentsOfFile: mountInfo, encoding: .utf8)) ?? ""
        mounts = text.split(separator: "\n").compactMap(Self.parse)
    }

    /// Every mount point, for walks that must not wander onto another file system.
    var mountPoints: Set<String> { Set(mounts.map(\.mountPoint)) }

    /// The mount a file is on: by its mount ID when the kernel gives it, else the mount of its
    /// device whose mount point is the longest prefix of its path. Later lines win, as a
    /// mount stacked on the same point hides the earlier one.
    func mount(containing path: String, identity: FileIdentity) -> Mount? {
        if let id = identity.mountID, let exact = mounts.last(where: { $0.id == id }) {
            return exact
        }
        let candidates = mounts.filter { $0.device == identity.device && isPrefix($0.mountPoint, of: path) }
        return candidates.max { $0.mountPoint.count < $1.mountPoint.count }
            ?? mounts.filter { isPrefix($0.mountPoint, of: path) }.max { $0.mountPoint.count < $1.mountPoint.count }
    }

    /// Describes the volume of `mount` for a bookmark.
    func volume(of mount: Mount) -> Volume {
        let uuid = name(in: "by-uuid", of: mount)
        return Volume(
            uuid: uuid, label: name(in: "by-label", of: mount), mountPoint: mount.mountPoint,
            fileSystemType: mount.fileSystemType, device: mount.device)
    }

    /// Where `volume` is mounted now: by UUID when it has one, else at its recorded mount
    /// point with the same file system type. nil: not mounted.
    func currentMount(of volume: Volume) -> Mount? {
        // Where udev keeps no by-uuid folder (a container), the UUID cannot be looked up:
        // the mount point is all there is to go by.
        if let uuid = volume.uuid, FileManager.default.fileExists(atPath: disks + "/by-uuid") {
            let device = disk(named: uuid, in: "by-uuid")
            guard let device else { return nil }
            // The whole file system's mount; where there is none (a chroot or container sees
            // only bind mounts of folders), the one where the volume was, then any.
            return mounts.last { matches($0, device) && $0.root == "/" }
                ?? mounts.last { matches($0, device) && $0.mountPoint == volume.mountPoint }
                ?? mounts.last { matches($0, device) }
        }
        return mounts.last { $0.mountPoint == volume.mountPoint && $0.fileSystemType == volume.fileSystemType }
    }

    /// The label udev lists now for a device with `uuid`, if any (a volume that is plugged in
    /// but not mounted still has one).
    func label(ofUUID uuid: String) -> String? {
        guard let device = disk(named: uuid, in: "by-uuid") else { return nil }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: disks + "/by-label")) ?? [] {
            if let other = disk(named: name, in: "by-label"), other == device { return Self.unescapeUdev(name) }
        }
        return nil
    }

    // MARK: udev's symlinks

    /// What a `/dev/disk/by-*/NAME` link points at: the block device's number when it is one,
    /// and its resolved path.
    private struct Disk: Equatable {
        let device: UInt64?
        let path: String
    }

    private func disk(named name: String, in folder: String) -> Disk? {
        let link = disks + "/" + folder + "/" + name
        guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return nil }
        let absolute = destination.hasPrefix("/") ? destination : disks + "/" + folder + "/" + destination
        let path = URL(fileURLWithPath: absolute).standardizedFileURL.path
        var status = stat()
        let device = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFBLK ? UInt64(status.st_rdev) : nil
        return Disk(device: device, path: path)
    }

    private func matches(_ mount: Mount, _ disk: Disk) -> Bool {
        if let device = disk.device, DeviceNumber.major(mount.device) != 0 { return device == mount.device }
        return mount.source == disk.path
    }

    private func name(in folder: String, of mount: Mount) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: disks + "/" + folder)) ?? []
        for name in names.sorted() {
            if let disk = disk(named: name, in: folder), matches(mount, disk) {
                return folder == "by-label" ? Self.unescapeUdev(name) : name
            }
        }
        return nil
    }

    /// udev writes unsafe bytes of a label as `\xHH` (a space is `\x20`).
    static func unescapeUdev(_ name: String) -> String {
        guard name.contains("\\x") else { return name }
        var bytes: [UInt8] = []
        var utf8 = Array(name.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.first == UInt8(ascii: "x"), utf8.count >= 3,
               let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: mountinfo

    /// `36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw` (proc(5)).
    private static func parse(_ line: Substring) -> Mount? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 10, let separator = fields.firstIndex(of: "-"), separator + 2 < fields.count,
              let id = UInt64(fields[0]) else { return nil }
        let numbers = fields[2].split(separator: ":")
        guard numbers.count == 2, let major = UInt64(numbers[0]), let minor = UInt64(numbers[1]) else { return nil }
        return Mount(
            id: id, device: DeviceNumber.make(major: major, minor: minor), root: unescapeOctal(fields[3]),
            mountPoint: unescapeOctal(fields[4]), fileSystemType: String(fields[separator + 1]),
            source: unescapeOctal(fields[separator + 2]))
    }

    /// mountinfo writes space, tab, newline and backslash as `\040`, `\011`, `\012`, `\134`.
    static func unescapeOctal(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        var utf8 = Array(field.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.count >= 3,
               let value = UInt8(String(decoding: utf8.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// True when `folder` is `path` or one of its ancestors.
func isPrefix(_ folder: String, of path: String) -> Bool {
    folder == "/" || path == folder || path.hasPrefix(folder + "/")
}
