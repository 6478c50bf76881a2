import Dispatch

/// A serial executor over a dispatch queue, so an actor's state can also be reached from
/// dispatch sources and timers on that queue (`assumeIsolated`, checked at run time).
/// Linux's Dispatch has no `DispatchSerialQueue` executor of its own.
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
