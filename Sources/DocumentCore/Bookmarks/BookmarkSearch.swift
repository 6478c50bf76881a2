import CGLib
import Foundation

/// The search for a moved item's inode on its volume, most likely folders first, within a
/// deadline. Each folder is listed once; entries are matched on `d_ino` from readdir, so
/// files cost no stat(2) until one matches, and the match is confirmed with statx.
///
/// Order: the deepest folder of the old path that is still in place (the old parent, usually),
/// then the folders around it by their distance in the tree — its subfolders and parent, then
/// its siblings, grandparent and so on, a few steps out; the user folders; the hint folders; a
/// breadth-first walk of the home folder (when on this volume) and of the whole volume.
/// Subfolders are visited newest first, since a move into a folder updates its modification
/// time. Every listing also looks for the folders of the old path by inode: a moved parent is
/// followed to where it went, and searched first.
struct BookmarkSearch {
    private let bookmark: Bookmark
    private let device: UInt64
    private let mountPoint: String
    private let otherMounts: Set<String>
    private let options: Bookmark.ResolveOptions
    private let deadline: ContinuousClock.Instant
    /// The old path's components below the mount point.
    private let components: [String]
    /// Inodes of old-path folders that are no longer in place → their component index.
    private var movedFolders: [UInt64: Int] = [:]
    /// The deepest folder of the old path that is still in place.
    private var anchor: String
    /// Listed folders → their subfolders, newest first.
    private var listed: [String: [String]] = [:]
    private var found: String?

    init(bookmark: Bookmark, path: String, mount: Mount, mountPoints: Set<String>, options: Bookmark.ResolveOptions,
         deadline: ContinuousClock.Instant) {
        self.bookmark = bookmark
        device = mount.device
        mountPoint = mount.mountPoint
        otherMounts = mountPoints.subtracting([mount.mountPoint])
        self.options = options
        self.deadline = deadline
        let relative = isPrefix(mountPoint, of: path) ? String(path.dropFirst(mountPoint == "/" ? 0 : mountPoint.count)) : path
        components = relative.split(separator: "/").map(String.init)
        anchor = mountPoint
        // Walk down the old path while each folder is still the one recorded.
        let folders = bookmark.folderInodes.count == components.count - 1 ? bookmark.folderInodes : []
        var inPlace = true
        for index in 0..<max(components.count - 1, 0) {
            let folder = join(mountPoint, components[0...index])
            let identity = FileIdentity(path: folder)
            let recorded = index < folders.count ? folders[index] : 0
            if inPlace, let identity, identity.kind == .directory, recorded == 0 || identity.inode == recorded {
                anchor = folder
            } else {
                inPlace = false
                if recorded != 0 { movedFolders[recorded] = index }
            }
        }
    }

    /// How far (in folders, up or down the tree) the neighbourhood reaches from the old folder.
    static let neighbourhoodRadius = 4

    /// The item's path, or nil when it was not found before the deadline.
    mutating func run() -> String? {
        let home = options.userDirectories.home.standardizedFileURL.path
        let homeIsHere = isPrefix(mountPoint, of: home) && FileIdentity(path: home)?.device == device
        // 1. The neighbourhood: folders by their distance in the tree from the old folder
        //    (its parent and subfolders, then its siblings and grandparent…), not above the
        //    home folder when the item was in it, nor above the mount point.
        let ceiling = homeIsHere && isPrefix(home, of: anchor) ? home : mountPoint
        if walk(from: [anchor], maximumDepth: Self.neighbourhoodRadius, upTo: ceiling) { return found }
        // 2. The user folders (Documents, Downloads…) and two levels below them, then the
        //    hints (folders of recent documents) and their subfolders, on this volume only.
        for folder in options.userDirectories.userFolders where isOnVolume(folder.path) {
            if walk(from: [folder.path], maximumDepth: 2, upTo: nil) { return found }
            if isLate { return nil }
        }
        for hint in options.hintFolders where isOnVolume(hint.standardizedFileURL.path) {
            if walk(from: [hint.standardizedFileURL.path], maximumDepth: 1, upTo: nil) { return found }
            if isLate { return nil }
        }
        // 3. Everything: the home folder when it is on this volume, then the whole volume.
        for root in homeIsHere && home != mountPoint ? [home, mountPoint] : [mountPoint] {
            if walk(from: [root], maximumDepth: .max, upTo: nil) { return found }
            if isLate { return nil }
        }
        return nil
    }

    private func isOnVolume(_ path: String) -> Bool {
        isPrefix(mountPoint, of: path) && FileIdentity(path: path)?.device == device
    }

    /// Breadth-first from `roots`, down into subfolders and, when `ceiling` is set, up into
    /// parents as far as `ceiling`, `maximumDepth` steps at most. Folders listed before are
    /// not listed again, but are walked through. True when the item was found.
    private mutating func walk(from roots: [String], maximumDepth: Int, upTo ceiling: String?) -> Bool {
        var layer = roots
        var seen = Set(roots)
        var depth = 0
        while !layer.isEmpty, !isLate {
            var next: [String] = []
            for folder in layer {
                if list(folder) { return true }
                if isLate { return false }
                guard depth < maximumDepth else { continue }
                if let ceiling, folder != ceiling, folder != "/", isPrefix(ceiling, of: folder) {
                    let parent = (folder as NSString).deletingLastPathComponent
                    if seen.insert(parent).inserted { next.append(parent) }
                }
                for child in listed[folder] ?? [] where seen.insert(child).inserted {
                    next.append(child)
                }
            }
            layer = next
            depth += 1
        }
        return false
    }

    private var isLate: Bool { ContinuousClock.now >= deadline }

    /// Lists `folder` once, looking for the item's inode and for moved folders of its old
    /// path. True when the item was found (in `found`) — also through a moved folder.
    private mutating func list(_ folder: String) -> Bool {
        guard listed[folder] == nil, !isLate else { return false }
        listed[folder] = []
        guard let directory = opendir(folder) else { return false }  // unreadable: skip it
        defer { closedir(directory) }
        let fd = dirfd(directory)
        var subfolders: [(path: String, modified: FileTimestamp)] = []
        var relocated: [(path: String, index: Int)] = []
        var count = 0
        while let entry = readdir(directory) {
            count += 1
            if count & 1023 == 0, isLate { break }
            let inode = UInt64(entry.pointee.d_ino)
            let type = entry.pointee.d_type
            // d_type: 4 DT_DIR, 10 DT_LNK, 0 DT_UNKNOWN (some file systems do not fill it in).
            if inode == bookmark.inode || type == 4 || type == 0 {
                let name = String(cString: dossier_dirent_name(entry))
                if name == "." || name == ".." { continue }
                guard let identity = FileIdentity(directory: fd, name: name) else { continue }
                let path = folder == "/" ? "/" + name : folder + "/" + name
                if identity.inode == bookmark.inode, bookmark.confirms(identity, device: device) {
                    found = path
                    return true
                }
                guard identity.kind == .directory, identity.device == device, !otherMounts.contains(path) else { continue }
                subfolders.append((path, identity.modified))
                if let index = movedFolders[identity.inode] {
                    relocated.append((path, index))
                }
            }
        }
        subfolders.sort { ($0.modified.seconds, $0.modified.nanoseconds) > ($1.modified.seconds, $1.modified.nanoseconds) }
        listed[folder] = subfolders.map(\.path)
        // A folder of the old path turned up here: the item is most likely still inside it.
        for (path, index) in relocated {
            let candidate = join(path, components[(index + 1)...])
            if let identity = FileIdentity(path: candidate), bookmark.confirms(identity, device: device) {
                found = candidate
                return true
            }
            if walk(from: [path], maximumDepth: .max, upTo: nil) { return true }
        }
        return false
    }

    private func join(_ base: String, _ parts: ArraySlice<String>) -> String {
        guard !parts.isEmpty else { return base }
        return (base == "/" ? "" : base) + "/" + parts.joined(separator: "/")
    }
}
