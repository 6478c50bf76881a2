import Foundation

/// Keeps bookmarks current while Dossier runs: each tracked item gets a `FilePresenter`, so a
/// rename or move — by Dossier through a `FileCoordinator`, or by any other program, seen
/// through inotify — updates its bookmark at once, without a search. A move out of the
/// folders being watched looks like a deletion to inotify; the tracker then resolves the
/// bookmark (a bounded search) before calling the item missing.
///
/// Callbacks run on the tracker's own serial queue.
package final class BookmarkTracker: @unchecked Sendable {
    // @unchecked: `items` is guarded by `lock`; presenters call in on `queue`.

    /// What happened to a tracked item.
    package enum Event: Sendable, Equatable {
        /// It was renamed or moved; here is a fresh bookmark to its new place.
        case moved(key: String, from: URL, bookmark: Bookmark)
        /// It was replaced at the same path (an atomic save): here is a fresh bookmark.
        case replaced(key: String, bookmark: Bookmark)
        /// It is gone, or moved somewhere the search did not reach: no longer watched.
        case missing(key: String)
    }

    private let options: Bookmark.ResolveOptions
    private let onChange: @Sendable (Event) -> Void
    private let queue = DispatchQueue(label: "dossier.bookmark-tracker")
    private let lock = NSLock()
    private var items: [String: TrackedItem] = [:]

    /// A tracker that reports through `onChange`; `options` bound the search after a move
    /// inotify could not follow. The search runs in the background, after the fact, so it gets
    /// two seconds by default rather than an interactive resolve's short budget: on a busy machine
    /// with cold caches the walk can need more than that, and calling a moved file missing
    /// stops following it for good.
    package init(options: Bookmark.ResolveOptions = Bookmark.ResolveOptions(budget: .seconds(2)),
                onChange: @escaping @Sendable (Event) -> Void) {
        self.options = options
        self.onChange = onChange
    }

    deinit {
        for item in items.values { FileCoordinator.removeFilePresenter(item) }
    }

    /// Starts tracking the item of `bookmark` under `key` (replacing what `key` tracked).
    package func track(_ bookmark: Bookmark, as key: String) {
        let item = TrackedItem(key: key, bookmark: bookmark, queue: queue, tracker: self)
        let previous = lock.withLock { () -> TrackedItem? in
            defer { items[key] = item }
            return items[key]
        }
        if let previous { FileCoordinator.removeFilePresenter(previous) }
        FileCoordinator.addFilePresenter(item)
    }

    /// Stops tracking `key`.
    package func stopTracking(_ key: String) {
        if let item = lock.withLock({ items.removeValue(forKey: key) }) {
            FileCoordinator.removeFilePresenter(item)
        }
    }

    /// The current bookmark for `key`.
    package func bookmark(for key: String) -> Bookmark? {
        lock.withLock { items[key] }?.bookmark
    }

    /// The keys tracked.
    package var keys: [String] { lock.withLock { Array(items.keys) } }

    // MARK: From the presenters (on `queue`)

    fileprivate func item(_ item: TrackedItem, movedFrom old: Bookmark, to url: URL) {
        let fresh = (try? Bookmark(url: url)) ?? old.relocated(to: url.path)
        item.bookmark = fresh
        onChange(.moved(key: item.key, from: old.url, bookmark: fresh))
    }

    fileprivate func itemChanged(_ item: TrackedItem) {
        let old = item.bookmark
        guard let identity = FileIdentity(path: old.path), identity.inode != old.inode || identity.device != old.device,
              let fresh = try? Bookmark(path: old.path) else { return }
        item.bookmark = fresh
        onChange(.replaced(key: item.key, bookmark: fresh))
    }

    fileprivate func itemVanished(_ item: TrackedItem) {
        let old = item.bookmark
        guard isTracked(item) else { return }
        if let resolution = try? old.resolve(options: options), resolution.path != old.path {
            // Moved out of sight of inotify: follow it, and watch its new folder.
            FileCoordinator.removeFilePresenter(item)
            let fresh = (try? Bookmark(url: resolution.url)) ?? old.relocated(to: resolution.path)
            item.bookmark = fresh
            FileCoordinator.addFilePresenter(item)
            onChange(.moved(key: item.key, from: old.url, bookmark: fresh))
        } else if FileIdentity(path: old.path) == nil {
            stopTracking(item.key)
            onChange(.missing(key: item.key))
        } else {
            itemChanged(item)  // deleted and recreated within one window: a replacement
        }
    }

    private func isTracked(_ item: TrackedItem) -> Bool {
        lock.withLock { items[item.key] === item }
    }
}

/// One tracked item, presented so the tracker hears what happens to it.
private final class TrackedItem: FilePresenter, @unchecked Sendable {
    // @unchecked: `current` is guarded by `lock`.
    let key: String
    let presentedItemOperationQueue: DispatchQueue
    private weak var tracker: BookmarkTracker?
    private let lock = NSLock()
    private var current: Bookmark

    init(key: String, bookmark: Bookmark, queue: DispatchQueue, tracker: BookmarkTracker) {
        self.key = key
        current = bookmark
        presentedItemOperationQueue = queue
        self.tracker = tracker
    }

    var bookmark: Bookmark {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    var presentedItemURL: URL? { bookmark.url }

    func presentedItem(didMoveTo url: URL) {
        let old = bookmark
        bookmark = old.relocated(to: url.path)  // at once, so presentedItemURL follows
        tracker?.item(self, movedFrom: old, to: url)
    }

    func presentedItemDidChange() { tracker?.itemChanged(self) }
    func presentedItemWasDeleted() { tracker?.itemVanished(self) }
}

extension Bookmark {
    /// The same bookmark pointing at a new path (when a fresh one cannot be made).
    func relocated(to path: String) -> Bookmark {
        var moved = self
        moved.path = path
        return moved
    }
}
