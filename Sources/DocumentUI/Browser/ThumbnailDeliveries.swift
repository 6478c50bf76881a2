import CGtk
import Foundation
import GObjectSupport

/// Thumbnails handed from the generator's threads to the main thread in a GLib idle source
/// below the frame clock's priority, a few milliseconds' worth at a time: the thumbnails that
/// finish together (a screenful when scrolling stops) never hold up a frame being laid out or
/// drawn, as a main-queue block each would.
final class ThumbnailDeliveries: @unchecked Sendable {
    // @unchecked: `pending` and `scheduled` are guarded by `lock`.
    static let shared = ThumbnailDeliveries()

    /// Main-thread time one dispatch may take before it lets a frame through.
    private static let budget = 4_000  // µs

    private let lock = NSLock()
    private var pending: [@MainActor @Sendable () -> Void] = []
    private var scheduled = false

    /// Runs `work` on the main thread soon, after any frame that is due.
    func post(_ work: @escaping @MainActor @Sendable () -> Void) {
        lock.lock()
        pending.append(work)
        let schedule = !scheduled
        scheduled = true
        lock.unlock()
        guard schedule else { return }
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { _ in
            guard !dispatchedOffMain else { return 1 }
            return MainActor.assumeIsolated { ThumbnailDeliveries.shared.drain() } ? 1 : 0
        }, nil, nil)
    }

    /// Runs waiting work until the budget is spent; true while some is left.
    @MainActor
    private func drain() -> Bool {
        lock.lock()
        var batch = pending
        pending = []
        lock.unlock()
        let start = g_get_monotonic_time()
        var done = 0
        while done < batch.count {
            batch[done]()
            done += 1
            if g_get_monotonic_time() - start > Self.budget { break }
        }
        lock.lock()
        defer { lock.unlock() }
        if done < batch.count {
            batch.removeFirst(done)
            pending = batch + pending
        }
        if pending.isEmpty {
            scheduled = false
            return false
        }
        return true
    }
}
