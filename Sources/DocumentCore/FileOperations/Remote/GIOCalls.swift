import CGLib
import Foundation
import GObjectSupport

/// Runs GIO's asynchronous file calls from a worker thread, one at a time, and waits for each.
///
/// Each call starts with a main context of its own pushed as the thread's default, so its
/// completion and progress callbacks run on this thread while it waits, never on the GUI's
/// main loop (which may not even run: the CLI, the tests). The calls share one GCancellable,
/// cancelled as soon as the `Progress` is: a call to a server that stopped answering ends
/// with `G_IO_ERROR_CANCELLED` instead of holding the operation.
final class GIOCalls {
    let cancellable: UnsafeMutablePointer<GCancellable>
    private let context: OpaquePointer
    private let progress: Progress?

    init(progress: Progress?) {
        self.progress = progress
        cancellable = g_cancellable_new()
        context = g_main_context_new()
    }

    deinit {
        g_object_unref(cancellable)
        g_main_context_unref(context)
    }

    var isCancelled: Bool {
        if progress?.isCancelled == true { g_cancellable_cancel(cancellable) }
        return g_cancellable_is_cancelled(cancellable) != 0
    }

    /// Starts one asynchronous call with `start` (given the callback and its data to pass on),
    /// runs this thread's context until it completes, then returns what `finish` makes of it.
    /// - Throws: the GError `finish` reported.
    func call<T>(
        _ start: (GAsyncReadyCallback, gpointer) -> Void,
        finish: (OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
    ) throws(GLibError) -> T {
        let completion = Completion()
        g_main_context_push_thread_default(context)
        // The Progress has no callback of its own here: look at it a few times a second.
        let watch = Unmanaged.passRetained(CancelWatch(self))
        let source = g_timeout_source_new(100)!
        g_source_set_callback(source, { data in
            Unmanaged<CancelWatch>.fromOpaque(data!).takeUnretainedValue().check() ? 1 : 0
        }, watch.toOpaque(), { data in Unmanaged<CancelWatch>.fromOpaque(data!).release() })
        g_source_attach(source, context)
        start(completed, Unmanaged.passRetained(completion).toOpaque())
        while completion.result == nil { g_main_context_iteration(context, 1) }
        g_source_destroy(source)
        g_source_unref(source)
        g_main_context_pop_thread_default(context)
        let result = completion.result!
        defer { g_object_unref(UnsafeMutableRawPointer(result)) }
        var error: UnsafeMutablePointer<GError>?
        let value = finish(result, &error)
        if let error { throw GLibError(consuming: error) }
        return value
    }

    /// `call` for a function that reports progress through a `GFileProgressCallback`:
    /// `report` gets the bytes done and the total, on this thread.
    func call<T>(
        reporting report: @escaping (Int64, Int64) -> Void,
        _ start: (GFileProgressCallback, gpointer, GAsyncReadyCallback, gpointer) -> Void,
        finish: (OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
    ) throws(GLibError) -> T {
        let box = ProgressBox(report)
        return try withExtendedLifetime(box) { () throws(GLibError) -> T in
            try call({ callback, data in
                start(progressed, Unmanaged.passUnretained(box).toOpaque(), callback, data)
            }, finish: finish)
        }
    }
}

private final class Completion {
    var result: OpaquePointer?
}

private final class ProgressBox {
    let report: (Int64, Int64) -> Void
    init(_ report: @escaping (Int64, Int64) -> Void) { self.report = report }
}

/// Cancels the calls' GCancellable once their Progress is cancelled.
private final class CancelWatch {
    weak var calls: GIOCalls?
    init(_ calls: GIOCalls) { self.calls = calls }

    /// True while there is something left to watch.
    func check() -> Bool {
        guard let calls else { return false }
        return !calls.isCancelled
    }
}

private let completed: GAsyncReadyCallback = { _, result, data in
    let completion = Unmanaged<Completion>.fromOpaque(data!).takeRetainedValue()
    g_object_ref(UnsafeMutableRawPointer(result))
    completion.result = result
}

private let progressed: GFileProgressCallback = { current, total, data in
    Unmanaged<ProgressBox>.fromOpaque(data!).takeUnretainedValue().report(Int64(current), Int64(total))
}
