import Foundation

/// Why a coordinated access did not happen.
public enum CoordinationError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Another reader or writer held the item longer than the timeout allowed.
    case timedOut(name: String)
    /// The caller cancelled while waiting.
    case cancelled(name: String)
    /// The lock itself could not be taken (the runtime folder is not writable, say).
    case lockFailed(name: String, reason: String)
    /// The location is not a local file (a GVFS URI): coordination covers this computer's
    /// files only.
    case notLocal(location: String)

    public var description: String {
        switch self {
        case .timedOut(let name): tr("'%s' is busy: another program is still using it", name)
        case .cancelled(let name): tr("Access to '%s' was cancelled", name)
        case .lockFailed(let name, let reason): tr("'%s' could not be locked: %s", name, reason)
        case .notLocal(let location):
            tr("'%s' is not a local file: coordinated access covers only files on this computer's disks", location)
        }
    }

    public var errorDescription: String? { description }
}

/// A flag a caller sets to stop a coordinated call that is still waiting for its lock.
public final class CoordinationCancellation: @unchecked Sendable {
    // @unchecked: the flag is guarded by the lock.
    private let lock = NSLock()
    private var cancelled = false

    /// Makes a flag that is not set.
    public init() {}

    /// Stops the coordinated calls given this flag that still wait for their lock.
    public func cancel() { lock.withLock { cancelled = true } }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { lock.withLock { cancelled } }
}
