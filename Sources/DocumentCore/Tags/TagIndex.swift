import CGLib
import Foundation

/// Which files in some folders have which tags — "all files tagged X" — built by scanning the
/// folders and their subfolders off the calling thread, then kept current through folder
/// presenters: a file that appears, changes (a tag written by KDE's Dolphin, `setfattr`, or
/// `TagStore`), moves or goes is read again or dropped.
///
/// Hidden files and folders (names starting with a dot) are left out unless asked for;
/// symbolic links are not followed. Each folder watched costs one inotify watch.
package final class TagIndex: @unchecked Sendable {
    // @unchecked: `tagsByPath`, `watches`, `touched` and `isWatching` are only touched on `queue`.

    /// What changed in the index.
    package enum Change: Sendable, Equatable {
        /// A scan of the folders finished.
        case scanned
        /// The tags of the item at this URL were read again (it may have none now, or be gone).
        case changed(URL)
    }

    /// The folders indexed, with symbolic links resolved.
    package let folders: [URL]
    /// Where tags are read from.
    package let store: TagStore
    /// Whether names starting with a dot are indexed.
    package let includesHidden: Bool

    private let queue = DispatchQueue(label: "dossier.tag-index")
    private var tagsByPath: [String: [String]] = [:]
    private var watches: [String: FolderWatch] = [:]
    /// Paths updated by events while a scan ran: the scan's older view must not overwrite them.
    private var touched: Set<String> = []
    private var isWatching = false
    private let observers = Observers<Change>()

    /// An index of `folders` (and everything below them), reading tags through `store`.
    package init(folders: [URL], store: TagStore = TagStore(), includesHidden: Bool = false) {
        self.folders = folders.map { url in
            guard let resolved = realpath(url.path, nil) else { return url.standardizedFileURL }
            defer { free(resolved) }
            return URL(fileURLWithPath: String(cString: resolved), isDirectory: true)
        }
        self.store = store
        self.includesHidden = includesHidden
    }

    // MARK: Building

    /// Scans the folders on the calling thread and returns when done, without watching them:
    /// for a one-off question. Blocks: not on the main thread.
    package func scan() {
        let found = folders.reduce(into: [String: [String]]()) { result, folder in
            result.merge(Self.read(tree: folder.path, store: store, includesHidden: includesHidden)) { $1 }
        }
        queue.sync { tagsByPath = found }
        observers.notify(.scanned)
    }

    /// Starts watching the folders, then scans them on a background thread; `completion` runs
    /// (on that thread) when the first scan is in. Changes seen meanwhile are kept.
    package func start(completion: (@Sendable () -> Void)? = nil) {
        DispatchQueue.global(qos: .utility).async { [self] in
            var found: [String: [String]] = [:]
            queue.sync {
                isWatching = true
                touched = []
            }
            for root in self.folders {
                found.merge(Self.read(tree: root.path, store: store, includesHidden: includesHidden) { folder in
                    queue.sync { if isWatching { watch(folder) } }
                }) { $1 }
            }
            queue.sync {
                guard isWatching else { return }
                var fresh = found
                for path in touched {
                    fresh[path] = tagsByPath[path]
                    for key in fresh.keys where isPrefix(path, of: key) { fresh[key] = tagsByPath[key] }
                }
                tagsByPath = fresh
            }
            observers.notify(.scanned)
            completion?()
        }
    }

    /// Stops watching; the index keeps what it knows.
    package func stop() {
        queue.sync {
            isWatching = false
            for watch in watches.values { FileCoordinator.removeFilePresenter(watch) }
            watches = [:]
        }
    }

    deinit {
        for watch in watches.values { FileCoordinator.removeFilePresenter(watch) }
    }

    // MARK: Asking

    /// The items with `tag`, sorted by path.
    package func files(taggedWith tag: String) -> [URL] {
        let wanted = tag.trimmingCharacters(in: .whitespacesAndNewlines)
        return queue.sync { tagsByPath.filter { $0.value.contains(wanted) }.keys.sorted() }.map { URL(fileURLWithPath: $0) }
    }

    /// Every tag in use, with how many items have it.
    package var tagCounts: [String: Int] {
        queue.sync {
            tagsByPath.values.reduce(into: [String: Int]()) { counts, tags in tags.forEach { counts[$0, default: 0] += 1 } }
        }
    }

    /// The tags the index knows for the item at `url`.
    package func tags(of url: URL) -> [String] {
        queue.sync { tagsByPath[url.standardizedFileURL.path] ?? [] }
    }

    /// Calls `handler` after each change, on a background thread, while the token lives.
    package func addObserver(_ handler: @escaping @Sendable (Change) -> Void) -> ObservationToken {
        observers.add(handler)
    }

    // MARK: Scanning

    /// The tags of every item below `root` (itself included); `willList` hears of each folder
    /// just before it is listed (to watch it first, so no change slips between).
    private static func read(tree root: String, store: TagStore, includesHidden: Bool,
                             willList: (String) -> Void = { _ in }) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var queue = [root]
        if let tags = try? store.tags(of: URL(fileURLWithPath: root)), !tags.isEmpty { result[root] = tags }
        while let folder = queue.popLast() {
            willList(folder)
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = String(cString: dossier_dirent_name(entry))
                guard name != ".", name != "..", includesHidden || !name.hasPrefix(".") else { continue }
                let path = folder == "/" ? "/" + name : folder + "/" + name
                var type = entry.pointee.d_type  // 4 DT_DIR, 8 DT_REG, 0 DT_UNKNOWN
                if type == 0 {
                    let kind = FileIdentity(path: path)?.kind
                    type = kind == .directory ? 4 : kind == .regular ? 8 : 1
                }
                guard type == 4 || type == 8 else { continue }
                if type == 4 { queue.append(path) }
                if let tags = try? store.tags(of: URL(fileURLWithPath: path)), !tags.isEmpty { result[path] = tags }
            }
        }
        return result
    }

    // MARK: Keeping current (on `queue`)

    private func watch(_ folder: String) {
        guard watches[folder] == nil else { return }
        let watch = FolderWatch(url: URL(fileURLWithPath: folder, isDirectory: true), queue: queue, index: self)
        watches[folder] = watch
        FileCoordinator.addFilePresenter(watch)
    }

    private func isIndexed(_ path: String) -> Bool {
        folders.contains { isPrefix($0.path, of: path) }
            && (includesHidden || !path.split(separator: "/").contains { $0.hasPrefix(".") })
    }

    /// Reads the item at `path` again: a new folder is scanned and watched.
    fileprivate func itemChanged(_ path: String) {
        guard isWatching else { return }
        touched.insert(path)
        guard isIndexed(path), let identity = FileIdentity(path: path) else {
            forget(path)
            return
        }
        if identity.kind == .directory, watches[path] == nil {
            let found = Self.read(tree: path, store: store, includesHidden: includesHidden, willList: watch)
            for (item, tags) in found {
                tagsByPath[item] = tags
                touched.insert(item)
            }
        } else {
            let tags = (try? store.tags(of: URL(fileURLWithPath: path))) ?? []
            tagsByPath[path] = tags.isEmpty ? nil : tags
        }
        observers.notify(.changed(URL(fileURLWithPath: path)))
    }

    /// An item moved from `old` to `new`: its entries (and a folder's watches) follow it, or
    /// are dropped when it left the indexed folders.
    fileprivate func itemMoved(from old: String, to new: String) {
        guard isWatching, old != new else { return }
        let moved = tagsByPath.filter { isPrefix(old, of: $0.key) }
        let movedWatches = watches.filter { isPrefix(old, of: $0.key) }
        for key in moved.keys { tagsByPath[key] = nil }
        for key in movedWatches.keys { watches[key] = nil }
        if isIndexed(new) {
            for (key, tags) in moved { tagsByPath[new + key.dropFirst(old.count)] = tags }
            for (key, watch) in movedWatches { watches[new + key.dropFirst(old.count)] = watch }
            itemChanged(new)
        } else {
            movedWatches.values.forEach { FileCoordinator.removeFilePresenter($0) }
            observers.notify(.changed(URL(fileURLWithPath: old)))
        }
    }

    /// The item at `path` is gone: drop it and everything below it.
    fileprivate func forget(_ path: String) {
        touched.insert(path)
        for key in tagsByPath.keys where isPrefix(path, of: key) { tagsByPath[key] = nil }
        for (key, watch) in watches where isPrefix(path, of: key) {
            FileCoordinator.removeFilePresenter(watch)
            watches[key] = nil
        }
        observers.notify(.changed(URL(fileURLWithPath: path)))
    }
}

/// A folder of a `TagIndex`, presented so the index hears about the items in it.
private final class FolderWatch: FilePresenter, @unchecked Sendable {
    // @unchecked: `url` is guarded by `lock`; `index` is only used on the index's queue.
    private let lock = NSLock()
    private var url: URL
    private weak var index: TagIndex?
    let presentedItemOperationQueue: DispatchQueue

    init(url: URL, queue: DispatchQueue, index: TagIndex) {
        self.url = url
        presentedItemOperationQueue = queue
        self.index = index
    }

    var presentedItemURL: URL? { lock.withLock { url } }

    func presentedItem(didMoveTo url: URL) { lock.withLock { self.url = url } }
    func presentedSubitemDidAppear(at url: URL) { index?.itemChanged(url.path) }
    func presentedSubitemDidChange(at url: URL) { index?.itemChanged(url.path) }
    func presentedSubitem(at oldURL: URL, didMoveTo newURL: URL) { index?.itemMoved(from: oldURL.path, to: newURL.path) }
    func presentedSubitemWasDeleted(at url: URL) { index?.forget(url.path) }
}
