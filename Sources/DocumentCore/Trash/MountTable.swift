import Foundation

/// Which file systems the Trash knows about: where they are mounted (to list and empty
/// their trash folders) and which one holds a given item (to trash it without copying).
package struct MountTable: Sendable {
    enum Source: Sendable {
        /// `/proc/self/mountinfo`, read at each use.
        case system
        /// Only these mount points are listed; which file system holds an item is still
        /// found from the devices the kernel reports.
        case only([String])
        /// These folders count as the tops of file systems of their own, though they are
        /// not mount points: for tests, which cannot always mount anything.
        case simulated([String])
    }

    let source: Source

    /// The system's mounts, from `/proc/self/mountinfo`.
    package static let system = MountTable(source: .system)

    /// Only `mountPoints` are looked at when listing or emptying trash folders; an empty list
    /// means the home trash only. Items are still placed by their real file system.
    package static func only(_ mountPoints: [URL]) -> MountTable {
        MountTable(source: .only(mountPoints.map(\.standardizedFileURL.path)))
    }

    /// Treats each folder in `topDirectories` as the top of its own file system (an item
    /// inside one goes to that folder's `.Trash-$uid`), and lists only those.
    package static func simulated(_ topDirectories: [URL]) -> MountTable {
        MountTable(source: .simulated(topDirectories.map { $0.resolvingSymlinksInPath().standardizedFileURL.path }))
    }

    /// The system's mounts, or those named (colon-separated) in `$DOSSIER_TRASH_VOLUMES`
    /// when it is set, as sandboxes and tests do to keep away from real trash folders.
    package static var `default`: MountTable {
        guard let restricted = ProcessInfo.processInfo.environment["DOSSIER_TRASH_VOLUMES"] else { return .system }
        return .only(restricted.split(separator: ":").map { URL(fileURLWithPath: String($0), isDirectory: true) })
    }

    /// One file system as the Trash sees it.
    struct Volume: Equatable {
        /// Equal for two paths on the same file system.
        let identity: String
        /// The folder the file system is mounted on ("$topdir" in the specification).
        let topDirectory: String
    }

    /// The mount points whose trash folders to list, in mount order.
    func mountPoints() -> [String] {
        switch source {
        case .system:
            guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return [] }
            return Self.parseMountInfo(text).filter { !Self.virtualFileSystems.contains($0.type) }.map(\.mountPoint)
        case .only(let points), .simulated(let points):
            return points
        }
    }

    /// The file system that holds `path` (an existing folder or the nearest existing
    /// ancestor is asked), found by walking up while the device stays the same.
    func volume(containing path: String) -> Volume? {
        if case .simulated(let tops) = source,
            let top = tops.filter({ FileSystem.isPath(path, inside: $0) }).max(by: { $0.count < $1.count })
        {
            return Volume(identity: "simulated:" + top, topDirectory: top)
        }
        var current = path
        var status = stat()
        while stat(current, &status) != 0 {
            guard current != "/" else { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
        let startDevice = UInt64(status.st_dev)
        while current != "/" {
            let parent = (current as NSString).deletingLastPathComponent
            var parentStatus = stat()
            guard stat(parent, &parentStatus) == 0, UInt64(parentStatus.st_dev) == startDevice else { break }
            current = parent
        }
        return Volume(identity: "device:\(startDevice)", topDirectory: current)
    }

    /// File system types that never hold user files, whose mount points are not looked at.
    static let virtualFileSystems: Set<String> = [
        "proc", "sysfs", "cgroup", "cgroup2", "devpts", "devtmpfs", "mqueue", "debugfs", "tracefs",
        "securityfs", "pstore", "bpf", "fusectl", "configfs", "binfmt_misc", "hugetlbfs", "nsfs",
        "rpc_pipefs", "efivarfs", "selinuxfs", "autofs", "ramfs",
    ]

    /// Reads `/proc/self/mountinfo`: field 5 is the mount point (with `\040`-style octal
    /// escapes), the field after " - " the file system type.
    static func parseMountInfo(_ text: String) -> [(mountPoint: String, type: String)] {
        var mounts: [(String, String)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 7, let separator = fields.firstIndex(of: "-"), separator + 1 < fields.count else {
                continue
            }
            mounts.append((unescapeOctal(String(fields[4])), String(fields[separator + 1])))
        }
        return mounts
    }

    private static func unescapeOctal(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var bytes: [UInt8] = []
        let input = Array(text.utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "\\"), index + 3 < input.count,
                let value = UInt8(String(decoding: input[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
