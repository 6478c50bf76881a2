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

    /// Runs `work` on the loop's thread, after what was handed to it before.
    func perform(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(LoopWork(work)).toOpaque()
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
            Unmanaged<LoopWork>.fromOpaque(data!).takeUnretainedValue().work()
            return 0  // G_SOURCE_REMOVE
        }, box, { data in Unmanaged<LoopWork>.fromOpaque(data!).release() })
    }
}

private final class LoopWork {
    let work: @Sendable () -> Void
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }
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
