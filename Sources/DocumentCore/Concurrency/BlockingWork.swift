import Foundation

/// Runs `work`, which blocks (a wait for a decoder worker, a long read), on one of Dispatch's
/// threads and returns its result. Not on one of the few threads Swift's concurrency has (one
/// a core): a Markdown file's pictures or an archive's listing waiting there for a worker would
/// stall every other task of the process meanwhile.
package func blockingWork<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
    }
}

/// Set when whoever asked for a piece of work no longer wants it (the page it was for went): a
/// decode still waiting for a worker is then dropped, never sent (`DecoderWorkerPool.perform`).
package final class Cancellation: Sendable {
    private let flag = Locked(false)

    /// Makes a flag that is not set.
    package init() {}

    /// Whether `cancel()` was called.
    package var isCancelled: Bool { flag.withLock { $0 } }

    /// Sets the flag: work that has not started yet is dropped.
    package func cancel() { flag.withLock { $0 = true } }
}

/// `blockingWork` given a `Cancellation` that the calling task's cancellation sets.
package func blockingWork<Value: Sendable>(_ work: @escaping @Sendable (Cancellation) -> Value) async -> Value {
    let cancellation = Cancellation()
    return await withTaskCancellationHandler {
        await blockingWork { work(cancellation) }
    } onCancel: {
        cancellation.cancel()
    }
}
