import CGLib
import Foundation
import GObjectSupport

/// How far a download has come.
package struct DownloadProgress: Sendable, Equatable {
    /// The bytes received so far.
    package let bytesDone: Int64
    /// The size the server announced (-1 when it did not say).
    package let bytesExpected: Int64

    /// From 0 to 1 (0 while the size is unknown).
    package var fraction: Double {
        bytesExpected > 0 ? min(1, Double(bytesDone) / Double(bytesExpected)) : 0
    }
}

/// Remote files brought into Dossier's cache on demand, for the previewer, the thumbnailer
/// and apps that take only paths: asynchronous through GIO, cancellable, with progress.
///
/// Requests for the same version of a file share one download. A `.userInitiated` request
/// (the previewer's item) starts at once; `.background` ones (thumbnails) wait their turn, a
/// few at a time and at GIO's low priority. A copy already in the cache, of the version the
/// server has now, is returned without downloading.
package final class RemoteDownloads: Sendable {
    /// How soon a download starts.
    package enum Priority: Sendable {
        /// At once (the previewer's item), or in turn with a few others at GIO's low priority (thumbnails).
        case userInitiated, background
    }

    /// The downloads of the process, into the default cache.
    package static let shared = RemoteDownloads()

    /// The cache the copies are kept in.
    package let cache: RemoteCache
    /// How many background downloads run at once.
    let backgroundSlots: Int

    private let state = Locked(State())

    private struct State {
        var flights: [String: Flight] = [:]
        var waiting: [Flight] = []
        var runningBackground = 0
        var transfersStarted = 0
    }

    /// How many downloads this object started (for tests of sharing).
    var transfersStarted: Int { state.withLock { $0.transfersStarted } }

    /// Makes downloads into `cache`, running at most `backgroundSlots` background downloads at once.
    package init(cache: RemoteCache = RemoteCache(), backgroundSlots: Int = 2) {
        self.cache = cache
        self.backgroundSlots = max(1, backgroundSlots)
    }

    /// A whole local copy of the file at `url` (a remote URI, or a path in GVFS's FUSE folder),
    /// of the version the server has now: from the cache, else downloaded. `progress` is
    /// called (on another thread, a few times a second at most) while it downloads; never
    /// for a copy already cached. Cancelling the calling task stops waiting, and stops the
    /// download when no one else waits for it.
    package func fetch(_ url: URL, priority: Priority = .userInitiated,
                      progress: (@Sendable (DownloadProgress) -> Void)? = nil) async throws(RemoteDownloadError) -> RemoteCopy {
        let cancellable = IOCancellable()
        let ioPriority = priority == .userInitiated ? G_PRIORITY_DEFAULT : G_PRIORITY_LOW
        let queried = await withTaskCancellationHandler { () async -> Result<RemoteFileInfo, RemoteDownloadError> in
            do throws(RemoteDownloadError) {
                return .success(try await RemoteFileInfo.query(url, priority: ioPriority, cancellable: cancellable))
            } catch {
                return .failure(error)
            }
        } onCancel: {
            cancellable.cancel()
        }
        return try await fetch(try queried.get(), priority: priority, progress: progress)
    }

    /// `fetch` for a version already asked about.
    package func fetch(_ info: RemoteFileInfo, priority: Priority = .userInitiated,
                      progress: (@Sendable (DownloadProgress) -> Void)? = nil) async throws(RemoteDownloadError) -> RemoteCopy {
        guard info.isRegularFile else { throw .notAFile(name: info.displayName) }
        _ = try RemoteCache.fileName(for: info)
        if info.size > cache.limit { throw .tooLarge(name: info.displayName, size: info.size, limit: cache.limit) }
        if let copy = cache.lookup(info) { return copy }
        let waiter = Waiter(progress: progress)
        let key = RemoteCache.entryName(for: info)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, RemoteDownloadError>, Never>) in
                join(key: key, info: info, priority: priority, waiter: waiter, continuation: continuation)
            }
        } onCancel: {
            leave(key: key, waiter: waiter)
        }
        try result.get()
        guard let copy = cache.lookup(info) else {
            // Evicted or replaced between the download and now (another process): once more.
            if Task.isCancelled { throw .cancelled(name: info.displayName) }
            return try await fetch(info, priority: priority, progress: progress)
        }
        return copy
    }

    /// `fetch`, waiting on the calling thread: for threads that may block (the thumbnailer's
    /// pool, the CLI), never the main thread.
    package func fetchBlocking(_ url: URL, priority: Priority = .background) throws(RemoteDownloadError) -> RemoteCopy {
        try waitFor { () async throws(RemoteDownloadError) in try await self.fetch(url, priority: priority) }
    }

    /// `fetch` of a version already asked about, waiting on the calling thread.
    package func fetchBlocking(_ info: RemoteFileInfo, priority: Priority = .background) throws(RemoteDownloadError) -> RemoteCopy {
        try waitFor { () async throws(RemoteDownloadError) in try await self.fetch(info, priority: priority) }
    }

    // MARK: Sharing and ordering

    private func join(key: String, info: RemoteFileInfo, priority: Priority, waiter: Waiter,
                      continuation: CheckedContinuation<Result<Void, RemoteDownloadError>, Never>) {
        let start: Flight? = state.withLock { state in
            if waiter.isCancelled {
                continuation.resume(returning: .failure(.cancelled(name: info.displayName)))
                return nil
            }
            waiter.continuation = continuation
            if let flight = state.flights[key] {
                flight.waiters.append(waiter)
                // The previewer asks for what a thumbnail waits for: it goes now.
                if priority == .userInitiated, !flight.isStarted {
                    state.waiting.removeAll { $0 === flight }
                    flight.isStarted = true
                    return flight
                }
                return nil
            }
            // A flight that landed since the caller's look in the cache has left the copy
            // there (a transfer commits before it lands): no second download of it.
            if cache.lookup(info) != nil {
                continuation.resume(returning: .success(()))
                return nil
            }
            let flight = Flight(key: key, transfer: RemoteTransfer(
                info: info, cache: cache, ioPriority: priority == .userInitiated ? G_PRIORITY_DEFAULT : G_PRIORITY_LOW))
            flight.isBackground = priority == .background
            flight.waiters = [waiter]
            state.flights[key] = flight
            if priority == .userInitiated || state.runningBackground < backgroundSlots {
                if flight.isBackground { state.runningBackground += 1 }
                flight.isStarted = true
                return flight
            }
            state.waiting.append(flight)
            return nil
        }
        if let start { run(start) }
    }

    private func run(_ flight: Flight) {
        state.withLock { $0.transfersStarted += 1 }
        let transfer = flight.transfer
        let expected = transfer.info.size
        let clock = ContinuousClock()
        let last = Locked(clock.now - .seconds(1))
        transfer.progress = { [weak self, weak flight] done in
            guard let self, let flight else { return }
            // A few times a second at most, and the end.
            let now = clock.now
            guard done == expected || last.withLock({ value in
                guard now - value >= .milliseconds(100) else { return false }
                value = now
                return true
            }) else { return }
            let observers = self.state.withLock { _ in flight.waiters.compactMap(\.progress) }
            let progress = DownloadProgress(bytesDone: done, bytesExpected: expected)
            for observer in observers { observer(progress) }
        }
        transfer.completion = { [weak self] result in self?.land(flight, result) }
        transfer.start()
    }

    private func land(_ flight: Flight, _ result: Result<Void, RemoteDownloadError>) {
        let (waiters, next): ([Waiter], Flight?) = state.withLock { state in
            if state.flights[flight.key] === flight { state.flights[flight.key] = nil }
            if flight.isBackground { state.runningBackground -= 1 }
            let waiters = flight.waiters
            flight.waiters = []
            var next: Flight?
            if state.runningBackground < backgroundSlots, !state.waiting.isEmpty {
                next = state.waiting.removeFirst()
                next?.isStarted = true
                state.runningBackground += 1
            }
            return (waiters, next)
        }
        for waiter in waiters { waiter.continuation?.resume(returning: result) }
        if let next { run(next) }
    }

    private func leave(key: String, waiter: Waiter) {
        let (continuation, cancelTransfer, name): (CheckedContinuation<Result<Void, RemoteDownloadError>, Never>?, RemoteTransfer?, String) =
            state.withLock { state in
                waiter.isCancelled = true
                guard let flight = state.flights[key], flight.waiters.contains(where: { $0 === waiter }) else { return (nil, nil, "") }
                let name = flight.transfer.info.displayName
                flight.waiters.removeAll { $0 === waiter }
                let continuation = waiter.continuation
                waiter.continuation = nil
                guard flight.waiters.isEmpty else { return (continuation, nil, name) }
                if !flight.isStarted {
                    state.waiting.removeAll { $0 === flight }
                    state.flights[key] = nil
                    return (continuation, nil, name)
                }
                // No one waits any more: the download stops (its `land` frees the slot), and a
                // later request starts a new one.
                state.flights[key] = nil
                return (continuation, flight.transfer, name)
            }
        continuation?.resume(returning: .failure(.cancelled(name: name)))
        cancelTransfer?.cancel()
    }
}

/// One download and everyone waiting for it. Guarded by `RemoteDownloads.state`'s lock.
private final class Flight: @unchecked Sendable {
    let key: String
    let transfer: RemoteTransfer
    var waiters: [Waiter] = []
    var isStarted = false
    var isBackground = false

    init(key: String, transfer: RemoteTransfer) {
        self.key = key
        self.transfer = transfer
    }
}

/// A caller waiting for a flight. Guarded by `RemoteDownloads.state`'s lock.
private final class Waiter: @unchecked Sendable {
    let progress: (@Sendable (DownloadProgress) -> Void)?
    var continuation: CheckedContinuation<Result<Void, RemoteDownloadError>, Never>?
    var isCancelled = false

    init(progress: (@Sendable (DownloadProgress) -> Void)?) { self.progress = progress }
}

/// Runs `work` and waits for it on the calling thread (never the main thread: GIO's replies
/// come on the I/O loop, not there, but the main thread must not wait on the network).
func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async throws(RemoteDownloadError) -> Value) throws(RemoteDownloadError) -> Value {
    let box = BlockingResult<Value>()
    let semaphore = DispatchSemaphore(value: 0)
    Task.detached {
        do throws(RemoteDownloadError) {
            box.result = .success(try await work())
        } catch {
            box.result = .failure(error)
        }
        semaphore.signal()
    }
    semaphore.wait()
    return try box.result!.get()
}

private final class BlockingResult<Value>: @unchecked Sendable {
    // @unchecked: written before the semaphore is signalled, read after it is waited for.
    var result: Result<Value, RemoteDownloadError>?
}
