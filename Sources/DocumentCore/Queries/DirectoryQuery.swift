import Foundation
import Synchronization

/// A live, sorted listing of a folder (or of a tree, recursively, filtered by a predicate):
/// the NSMetadataQuery of Linux.
///
/// Started, it lists the folder on a background queue in batches — the first of them at
/// once, even in a folder of 100,000 files — then delivers every item in order, then follows
/// the folder with inotify and delivers change sets (inserted, removed, updated, moved, as
/// indices in the current order) at most once per `coalescingInterval`. Types come from names
/// alone. Events arrive in order on the executor chosen at start, never on the caller's
/// thread while it lists. Keep a reference for as long as events are wanted: a query stops
/// when it is released.
///
/// ```swift
/// let query = DirectoryQuery(folder: url)
/// query.start(onMainActor: { event in … })
/// ```
public final class DirectoryQuery: Sendable {
    /// The folder listed.
    public let folder: URL
    private let engine: QueryEngine
    private let state: Locked<State>
    private let stopped = StopFlag()

    private struct State {
        var started = false
        var options: QueryOptions
    }

    /// A query of `folder` with `options`; nothing happens until it is started. A local
    /// `file:` URL is read with `readdir` and followed with inotify; any other URI (sftp://,
    /// smb://, dav://… on a GVFS mount) is listed through GIO's asynchronous enumeration, in
    /// batches, and followed with a GFileMonitor or by listing it again every
    /// `refreshInterval`. A remote location that is not mounted fails with `.notMounted`.
    public init(folder: URL, options: QueryOptions = QueryOptions()) {
        self.folder = folder.isFileURL ? folder.standardizedFileURL : folder
        let root = folder.isFileURL
            ? QueryFolder(path: Self.normalizedPath(folder), relativePath: "")
            : QueryFolder(path: Self.trimmedURI(folder), relativePath: "", isRemote: true)
        engine = QueryEngine(root: root, options: options, remoteLocation: folder.isFileURL ? nil : folder.absoluteString)
        state = Locked(State(options: options))
    }

    deinit {
        stopped.set()
        engine.perform { $0.stop() }
    }

    /// The options in effect (or about to be).
    public var options: QueryOptions { state.withLock { $0.options } }

    /// Changes the order or what is listed. A new order re-sorts what is there; other changes
    /// list the folder again. Either way `.reload(_, .optionsChanged)` follows.
    /// `observesChanges` cannot change once started.
    public func setOptions(_ options: QueryOptions) {
        state.withLock { $0.options = options }
        engine.perform { $0.setOptions(options) }
    }

    /// Starts the query; `handler` gets every event, in order, on `queue` (which must be
    /// serial; by default a private one). A query starts once; later calls do nothing.
    public func start(on queue: DispatchQueue? = nil, handler: @escaping @Sendable (QueryEvent) -> Void) {
        guard claimStart() else { return }
        let queue = queue ?? DispatchQueue(label: "dossier.query.events")
        let stopped = self.stopped
        engine.perform { running in
            running.start(sink: { event in
                queue.async {
                    // Nothing reaches the handler once the query was stopped.
                    guard !stopped.isSet else { return }
                    handler(event)
                }
            }, barrier: { done in queue.async(execute: done) })
        }
    }

    /// Starts the query with `handler` called on the main actor (the GTK main loop, through
    /// the main-queue bridge).
    public func start(onMainActor handler: @escaping @MainActor (QueryEvent) -> Void) {
        start(on: .main) { event in
            MainActor.assumeIsolated { handler(event) }
        }
    }

    /// Starts the query and returns its events as a stream, which the query keeps alive until
    /// the stream ends (after `.failed`) or its consumer stops iterating.
    public func events() -> AsyncStream<QueryEvent> {
        AsyncStream { continuation in
            guard claimStart() else {
                continuation.finish()
                return
            }
            continuation.onTermination = { _ in self.stop() }
            engine.perform { running in
                running.start(sink: { event in
                    continuation.yield(event)
                    if case .failed = event { continuation.finish() }
                }, barrier: { done in done() })
            }
        }
    }

    /// Delivers at once every change the system has reported for the folder so far, without
    /// waiting for the coalescing interval, then calls `completion` after those changes: on the
    /// handler's queue for `start`, once they are in the stream for `events()`, after the
    /// first gathering if it is still under way, and at once for a query not started or
    /// stopped. A change made before the call has then been delivered, and one not delivered
    /// was not made: for code that must know the list is current, and for tests.
    public func synchronize(_ completion: @escaping @Sendable () -> Void) {
        engine.perform { $0.synchronize(completion) }
    }

    /// Lists the folder again now and delivers what changed as `.changes`: for a remote
    /// location whose server reports no changes, when the person asks (a Reload button), on
    /// top of the periodic listing. Local folders are followed by inotify and need no refresh,
    /// but it works there too.
    public func refresh() {
        engine.perform { $0.refresh() }
    }

    /// Stops following the folder. Events already on their way are dropped; no more come.
    public func stop() {
        stopped.set()
        engine.perform { $0.stop() }
    }

    /// Tells every live query listing `url` (or its folder) that the item there changed, so
    /// the change shows at once instead of after inotify and the coalescing interval. For
    /// changes this process makes (the file coordinator calls it); call it for both ends of a
    /// move. Locations are compared by path, without resolving links.
    public static func noteChange(at url: URL) {
        guard url.isFileURL else { return noteRemoteChange(at: url) }
        let path = normalizedPath(url)
        for engine in QueryRegistry.all where path == engine.root.path || path.hasPrefix(engine.root.path) {
            engine.perform { $0.noteChange(absolutePath: path) }
        }
    }

    /// Lists `folder` once, without following it, and returns the items in order. Blocks the
    /// calling thread until done (for command-line tools; never on a GUI's main thread).
    public static func gather(folder: URL, options: QueryOptions = QueryOptions()) throws(DirectoryQueryError) -> [QueryItem] {
        var options = options
        options.observesChanges = false
        let query = DirectoryQuery(folder: folder, options: options)
        let outcome = Outcome()
        query.start { event in
            switch event {
            case .reload(let items, _): outcome.finish(.success(items))
            case .failed(let error): outcome.finish(.failure(error))
            default: break
            }
        }
        let result = outcome.wait()
        query.stop()
        return try result.get()
    }

    /// A remote item changed by this process: every query listing its folder lists it again
    /// (after the coalescing interval), since a remote entry cannot be looked at alone
    /// without waiting on the server.
    private static func noteRemoteChange(at url: URL) {
        let uri = trimmedURI(url)
        for engine in QueryRegistry.all where engine.root.isRemote && (uri == engine.root.path || uri.hasPrefix(engine.root.path + "/")) {
            engine.perform { $0.remoteFolderChanged(.changed) }
        }
    }

    private func claimStart() -> Bool {
        state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
    }

    /// A remote location's URI without its trailing slashes ("sftp://host/a/" → "sftp://host/a").
    static func trimmedURI(_ url: URL) -> String {
        var uri = url.absoluteString
        while uri.hasSuffix("/") && !uri.hasSuffix("://") { uri.removeLast() }
        return uri
    }

    /// The local folder's path without trailing slashes; empty for a path whose bytes are not
    /// UTF-8 (`FolderReader` refuses it), which a path string would turn into another folder's.
    static func normalizedPath(_ url: URL) -> String {
        if url.rawPath.string == nil { return "" }
        var path = url.standardizedFileURL.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "/" : path
    }
}

/// Set once when a query is stopped; read on the delivery queue.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}

/// The one result of a blocking gather.
private final class Outcome: Sendable {
    private let result = Locked<Result<[QueryItem], DirectoryQueryError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ value: Result<[QueryItem], DirectoryQueryError>) {
        let first = result.withLock { current in
            defer { if current == nil { current = value } }
            return current == nil
        }
        if first { done.signal() }
    }

    func wait() -> Result<[QueryItem], DirectoryQueryError> {
        done.wait()
        return result.withLock { $0 } ?? .failure(.failed(name: "", reason: "no result"))
    }
}
