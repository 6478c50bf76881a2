import Foundation

/// Keeps an observer registered until it is cancelled or released.
public final class ObservationToken: Sendable {
    private let cancellation: Locked<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) {
        cancellation = Locked(cancel)
    }

    /// Stops the observer; later calls do nothing.
    public func cancel() {
        let action = cancellation.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}

/// The observers of one kind of change, called in no particular order on the thread that
/// reports the change.
final class Observers<Value: Sendable>: Sendable {
    private let handlers = Locked<[UUID: @Sendable (Value) -> Void]>([:])

    /// Registers `handler`; it stays registered while the returned token lives.
    func add(_ handler: @escaping @Sendable (Value) -> Void) -> ObservationToken {
        let id = UUID()
        handlers.withLock { $0[id] = handler }
        return ObservationToken { [weak self] in
            self?.handlers.withLock { _ = $0.removeValue(forKey: id) }
        }
    }

    func notify(_ value: Value) {
        for handler in handlers.withLock({ Array($0.values) }) {
            handler(value)
        }
    }
}
