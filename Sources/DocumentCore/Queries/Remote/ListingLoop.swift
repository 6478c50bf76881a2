import CGLib
import Foundation

/// The thread remote listings talk to GIO on: a GLib main context of its own, running
/// forever, where `g_file_enumerate_children_async`, `g_file_enumerator_next_files_async` and
/// GFileMonitor deliver their results. Queries never wait on it: they hand it work and hear
/// back through their own queue. In the app, the CLI and tests alike, the main thread is not
/// involved.
final class ListingLoop: @unchecked Sendable {
    // @unchecked: `context` is set once, before the thread starts; GMainContext is thread-safe.
    static let shared = ListingLoop(name: "dossier-listing-gio")

    private let context: OpaquePointer
    /// Work handed to the loop's thread and not yet run; loops live as long as the process.
    private let pending = Locked<[@Sendable () -> Void]>([])

    /// A loop of its own, for work that must not wait behind the listings (whose GIO calls
    /// may wait on a server that stopped answering).
    init(name: String) {
        context = g_main_context_new()
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            g_main_loop_run(g_main_loop_new(context, 0))
        }
        thread.name = name
        thread.start()
    }

    /// Runs `work` on the loop's thread, after what was handed to it before. The work goes
    /// through a pthread lock, not only through GLib's queue: GLib's own locks are futexes
    /// ThreadSanitizer cannot follow, and it took the closure built here and run there, and
    /// what it reads, for races (as it did for `GIOLoop`).
    func perform(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
            let loop = Unmanaged<ListingLoop>.fromOpaque(data!).takeUnretainedValue()
            let works = loop.pending.withLock { pending in
                defer { pending.removeAll() }
                return pending
            }
            works.forEach { $0() }
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }
}

/// A GCancellable shared between a query (which cancels it, from any thread) and the GIO
/// calls on the listing loop.
final class ListingCancellable: @unchecked Sendable {
    // @unchecked: GCancellable is thread-safe.
    let pointer: UnsafeMutablePointer<GCancellable>

    init() { pointer = g_cancellable_new() }

    func cancel() { g_cancellable_cancel(pointer) }

    var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }

    deinit { g_object_unref(pointer) }
}
