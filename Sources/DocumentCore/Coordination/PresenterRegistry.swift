import Foundation

/// The presenters of this process, by the canonical path of what they present, and the one
/// place that tells them about changes, whether the coordinator or the inotify watcher saw them.
final class PresenterRegistry: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    static let shared = PresenterRegistry()

    private struct Entry {
        weak var presenter: (any FilePresenter)?
        var path: String
        var isFolder: Bool
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Paths whose current state the coordinator already reported, so the inotify echo of an
    /// in-process change is not reported twice: path → (state after the change, expiry).
    private var reported: [String: (state: FileState?, until: ContinuousClock.Instant)] = [:]
    /// Presenters whose own coordinated call is under way: they may be blocked waiting for
    /// it, so they are never waited on (asked to save, or told synchronously) meanwhile.
    private var busy: [ObjectIdentifier: Int] = [:]
    /// Paths a coordinated write or move is changing right now (with how many such calls): from
    /// before its accessor runs until the result is reported and remembered (see `isChanging`).
    private var changing: [String: Int] = [:]
    private let queueKey = DispatchSpecificKey<Int>()
    private lazy var watcher = ChangeWatcher(registry: self)

    func add(_ presenter: any FilePresenter) {
        guard let url = presenter.presentedItemURL else { return }
        let path = CoordinationLock.canonicalPath(of: url)
        var status = stat()
        let isFolder = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        let queue = presenter.presentedItemOperationQueue
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(queue).hashValue)
        lock.withLock {
            entries[ObjectIdentifier(presenter)] = Entry(presenter: presenter, path: path, isFolder: isFolder)
        }
        watcher.watch(path: path, isFolder: isFolder)
    }

    func remove(_ presenter: any FilePresenter) {
        let removed = lock.withLock { entries.removeValue(forKey: ObjectIdentifier(presenter)) }
        if let removed {
            watcher.unwatch(path: removed.path, isFolder: removed.isFolder)
        }
    }

    func beginCoordination(of presenter: ObjectIdentifier?) {
        guard let presenter else { return }
        lock.withLock { busy[presenter, default: 0] += 1 }
    }

    func endCoordination(of presenter: ObjectIdentifier?) {
        guard let presenter else { return }
        lock.withLock {
            busy[presenter, default: 1] -= 1
            if busy[presenter] == 0 { busy[presenter] = nil }
        }
    }

    /// Marks `paths` as being changed by a coordinated call, until `endChange(at:)`.
    func beginChange(at paths: [String]) {
        lock.withLock { for path in paths { changing[path, default: 0] += 1 } }
    }

    func endChange(at paths: [String]) {
        lock.withLock {
            for path in paths {
                changing[path, default: 1] -= 1
                if changing[path] == 0 { changing[path] = nil }
            }
        }
    }

    /// True while a coordinated call that has not yet reported its change is changing one of
    /// `paths`, something inside one, or an item beside one (a safe save's temporary file is
    /// made next to the item). The watcher then holds its window: the kernel queues the change's
    /// inotify events during the call, and a window classified before the coordinator remembered
    /// its report would deliver them again, as an outside change, and the temporary file with them.
    func isChanging(anyOf paths: [String]) -> Bool {
        lock.withLock {
            guard !changing.isEmpty else { return false }
            let folders = Set(changing.keys.map { ($0 as NSString).deletingLastPathComponent })
            return paths.contains { path in
                folders.contains((path as NSString).deletingLastPathComponent)
                    || changing.keys.contains { path == $0 || path.hasPrefix($0 + "/") }
            }
        }
    }

    /// True when no presenter is registered: coordinated calls then skip all reporting.
    var isEmpty: Bool { lock.withLock { entries.isEmpty } }

    // MARK: Asking before a coordinated write

    /// Runs `action` for each presenter of `path` (and of items inside it when `descendants`),
    /// except `excluded`, on its queue, waiting for each.
    func ask(presentersOf path: String, descendants: Bool = false, excluding excluded: ObjectIdentifier?,
             _ action: @escaping @Sendable (any FilePresenter) throws -> Void) {
        for (presenter, _) in presenters(where: { entry in
            entry.path == path || (descendants && entry.path.hasPrefix(path + "/"))
        }, excluding: excluded) where !isBusy(presenter) {
            run(on: presenter, synchronously: true) { try? action(presenter) }
        }
    }

    /// Runs `action` for each presenter of the folder holding `path`.
    func ask(folderPresentersAround path: String, excluding excluded: ObjectIdentifier?,
             _ action: @escaping @Sendable (any FilePresenter) throws -> Void) {
        let parent = (path as NSString).deletingLastPathComponent
        for (presenter, _) in presenters(where: { $0.isFolder && $0.path == parent }, excluding: excluded)
        where !isBusy(presenter) {
            run(on: presenter, synchronously: true) { try? action(presenter) }
        }
    }

    // MARK: Delivering changes

    /// Tells every interested presenter about `change`. The coordinator delivers synchronously
    /// (before its call returns) and remembers the result so the inotify echo is dropped.
    func deliver(_ change: PresentedChange, excluding excluded: ObjectIdentifier? = nil, fromCoordinator: Bool) {
        if fromCoordinator {
            remember(change)
        }
        let synchronously = fromCoordinator
        switch change {
        case .changed(let url), .appeared(let url):
            let path = url.path
            for (presenter, _) in presenters(where: { $0.path == path }, excluding: excluded) {
                run(on: presenter, synchronously: synchronously) { presenter.presentedItemDidChange() }
            }
            let parent = (path as NSString).deletingLastPathComponent
            for (presenter, _) in presenters(where: { $0.isFolder && $0.path == parent }, excluding: excluded) {
                if case .appeared = change {
                    run(on: presenter, synchronously: synchronously) { presenter.presentedSubitemDidAppear(at: url) }
                } else {
                    run(on: presenter, synchronously: synchronously) { presenter.presentedSubitemDidChange(at: url) }
                }
            }
        case .moved(let from, let to):
            let old = from.path
            let new = to.path
            // The item and everything inside it follow the move.
            let moving = lock.withLock { () -> [(any FilePresenter, URL)] in
                var result: [(any FilePresenter, URL)] = []
                for (id, entry) in entries {
                    guard let presenter = entry.presenter else { continue }
                    if entry.path == old || entry.path.hasPrefix(old + "/") {
                        let moved = new + entry.path.dropFirst(old.count)
                        entries[id]?.path = moved
                        if id != excluded { result.append((presenter, URL(fileURLWithPath: moved))) }
                    }
                }
                return result
            }
            for (presenter, url) in moving {
                run(on: presenter, synchronously: synchronously) { presenter.presentedItem(didMoveTo: url) }
            }
            let folders = Set([(old as NSString).deletingLastPathComponent, (new as NSString).deletingLastPathComponent])
            for (presenter, _) in presenters(where: { $0.isFolder && folders.contains($0.path) }, excluding: excluded) {
                run(on: presenter, synchronously: synchronously) { presenter.presentedSubitem(at: from, didMoveTo: to) }
            }
        case .deleted(let url):
            let path = url.path
            for (presenter, _) in presenters(where: { $0.path == path || $0.path.hasPrefix(path + "/") }, excluding: excluded) {
                run(on: presenter, synchronously: synchronously) { presenter.presentedItemWasDeleted() }
            }
            let parent = (path as NSString).deletingLastPathComponent
            for (presenter, _) in presenters(where: { $0.isFolder && $0.path == parent }, excluding: excluded) {
                run(on: presenter, synchronously: synchronously) { presenter.presentedSubitemWasDeleted(at: url) }
            }
        }
    }

    /// The barrier behind `FileCoordinator.deliverPendingChanges`: the watcher delivers what
    /// the kernel has queued, then each presenter's queue is waited on, after those deliveries.
    func deliverPendingChanges(timeout: Duration) -> Bool {
        let hasWatcher = lock.withLock { !entries.isEmpty }
        guard hasWatcher, watcher.flush(timeout: timeout) else { return !hasWatcher }
        let queues = presenters(where: { _ in true }, excluding: nil).map { $0.0.presentedItemOperationQueue }
        for queue in queues { queue.sync {} }
        return true
    }

    /// True when the watcher's view of `path` is exactly what the coordinator already reported.
    func wasReported(_ path: String) -> Bool {
        lock.withLock {
            let now = ContinuousClock.now
            reported = reported.filter { $0.value.until > now }
            guard let entry = reported[path] else { return false }
            return entry.state == FileState(path: path)
        }
    }

    private func remember(_ change: PresentedChange) {
        let paths: [String] = switch change {
        case .changed(let url), .appeared(let url), .deleted(let url): [url.path]
        case .moved(let from, let to): [from.path, to.path]
        }
        lock.withLock {
            let until = ContinuousClock.now + .seconds(2)
            for path in paths {
                reported[path] = (FileState(path: path), until)
            }
        }
    }

    private func presenters(where include: (Entry) -> Bool, excluding excluded: ObjectIdentifier?)
        -> [(any FilePresenter, String)] {
        lock.withLock {
            entries.compactMap { id, entry in
                guard id != excluded, let presenter = entry.presenter, include(entry) else { return nil }
                return (presenter, entry.path)
            }
        }
    }

    private func isBusy(_ presenter: any FilePresenter) -> Bool {
        lock.withLock { busy[ObjectIdentifier(presenter)] != nil }
    }

    /// Runs `work` on the presenter's queue; when the caller must wait and is already on that
    /// queue, runs it in place instead of deadlocking. A busy presenter is told later instead.
    private func run(on presenter: any FilePresenter, synchronously: Bool, _ work: @escaping @Sendable () -> Void) {
        let queue = presenter.presentedItemOperationQueue
        if synchronously && !isBusy(presenter) {
            if DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(queue).hashValue {
                work()
            } else {
                queue.sync(execute: work)
            }
        } else {
            queue.async(execute: work)
        }
    }
}

/// What identifies a version of a path's content: absent, or inode, size and times.
struct FileState: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec
    let changed: timespec

    init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
        changed = status.st_ctim
    }

    static func == (lhs: FileState, rhs: FileState) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
    }
}
