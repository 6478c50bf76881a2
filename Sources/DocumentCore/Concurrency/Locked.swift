import Foundation

/// A value several threads share, reached only while its lock is held: what Synchronization's
/// `Mutex` offers, over a pthread mutex.
///
/// Not `Mutex` because ThreadSanitizer cannot follow it on Linux: a contended `Mutex` waits and
/// hands over in the kernel (priority-inheriting futexes, inside the uninstrumented
/// `libswiftSynchronization`), so `make test-sanitize` saw every contended `withLock` as a data
/// race, and a real race behind such a lock would look the same. TSan intercepts pthread
/// mutexes (NSLock is one), so accesses through `withLock` are checked like any other.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held. The lock is not recursive: `body` must not
    /// call `withLock` on the same instance.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
