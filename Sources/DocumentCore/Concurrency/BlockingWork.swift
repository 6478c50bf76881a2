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
