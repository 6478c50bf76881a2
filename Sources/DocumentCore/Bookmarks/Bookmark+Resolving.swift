import Foundation

extension Bookmark {
    /// Where a bookmark found its item.
    public struct Resolution: Sendable, Hashable {
        /// The item's location now.
        public let url: URL
        /// True when the bookmark no longer describes the item exactly: it was found elsewhere,
        /// or another file replaced it at the same path (an atomic save), or its volume's device
        /// number changed. Store a fresh bookmark (`Bookmark(url: resolution.url)`).
        public let isStale: Bool

        /// The item's path now.
        public var path: String { url.path }
    }

    /// How far `resolve(options:)` may look for a moved item.
    public struct ResolveOptions: Sendable {
        /// How long the search may take before giving up with `BookmarkError.notFound`.
        /// Checking the recorded path alone is not bounded by it.
        public var budget: Duration
        /// Folders to look in after the neighbourhood and the user folders (the folders of
        /// recent documents, say), in order of preference.
        public var hintFolders: [URL]
        /// Where the user folders and the home folder are.
        public var userDirectories: UserDirectories

        /// 200 ms, no hints, the process's user folders: what `resolve()` uses.
        public init(budget: Duration = .milliseconds(200), hintFolders: [URL] = [],
                    userDirectories: UserDirectories = UserDirectories()) {
            self.budget = budget
            self.hintFolders = hintFolders
            self.userDirectories = userDirectories
        }
    }

    /// Finds the item: at its recorded path when it is still there (a few microseconds), else
    /// by searching its volume for its inode, most likely places first — the old folder, its
    /// neighbours walking outward, the user folders, `options.hintFolders`, then a
    /// breadth-first walk of the home folder and the volume — until `options.budget` runs out.
    /// The search never follows symbolic links nor leaves the volume, and skips folders it
    /// cannot read. A different file at the recorded path (a save that replaced the inode)
    /// is taken to be the item, stale.
    ///
    /// Blocks while it searches: call it off the main thread.
    /// - Throws: `BookmarkError.volumeNotMounted` or `.notFound`.
    public func resolve(options: ResolveOptions = ResolveOptions()) throws(BookmarkError) -> Resolution {
        let deadline = ContinuousClock.now + options.budget
        var volumes: VolumeTable?
        // 1. Still where it was? A different file of the same kind there is a replacement.
        if let found = FileIdentity(path: path) {
            if confirms(found, device: device) {
                return Resolution(url: url, isStale: false)
            }
            if found.inode == inode, Kind(found.kind) == kind {
                // The same inode on a renumbered device (a volume mounted again): same item
                // when its volume is now that device.
                let table = VolumeTable()
                volumes = table
                if let mount = table.currentMount(of: volume), mount.device == found.device, confirms(found, device: found.device) {
                    return Resolution(url: url, isStale: true)
                }
            }
            if Kind(found.kind) == kind {
                return Resolution(url: url, isStale: true)
            }
        }
        // 2. Its volume must be mounted, perhaps somewhere else now.
        let table = volumes ?? VolumeTable()
        guard let mount = table.currentMount(of: volume) else {
            let volumeName = volume.uuid.flatMap(table.label(ofUUID:)) ?? volume.displayName
            throw .volumeNotMounted(name: name, volume: volumeName)
        }
        var currentPath = path
        if mount.mountPoint != volume.mountPoint, isPrefix(volume.mountPoint, of: path) {
            let relative = path.dropFirst(volume.mountPoint == "/" ? 0 : volume.mountPoint.count)
            currentPath = mount.mountPoint == "/" ? String(relative) : mount.mountPoint + relative
            if let found = FileIdentity(path: currentPath), confirms(found, device: mount.device) {
                return Resolution(url: URL(fileURLWithPath: currentPath, isDirectory: kind == .folder), isStale: true)
            }
        }
        // 3. Search.
        var search = BookmarkSearch(bookmark: self, path: currentPath, mount: mount, mountPoints: table.mountPoints,
                                    options: options, deadline: deadline)
        if let found = search.run() {
            return Resolution(url: URL(fileURLWithPath: found, isDirectory: kind == .folder), isStale: true)
        }
        throw .notFound(name: name, lastPath: path)
    }

    /// True when `identity` is the bookmarked item on the device numbered `device`: same
    /// inode and kind, and the same birth time where both sides have one. Without birth times,
    /// an inode number reused by a newer file cannot be told apart, except that the item's
    /// modification time cannot have gone back.
    func confirms(_ identity: FileIdentity, device: UInt64) -> Bool {
        guard identity.inode == inode, identity.device == device, Kind(identity.kind) == kind else { return false }
        if let birth, let other = identity.birth { return birth == other }
        return (identity.modified.seconds, identity.modified.nanoseconds) >= (modified.seconds, modified.nanoseconds)
    }
}
