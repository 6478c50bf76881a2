import CGLib
import Foundation
import GObjectSupport
import Synchronization

/// Runs GIO's asynchronous file calls for a worker thread, one at a time, and waits for each.
///
/// Every call starts on one thread of its own (`GIOLoop`), whose main context stays for the
/// life of the process: GVFS's client keeps state from a call's context for later ones (a
/// cancelled upload left the next call on a fresh context waiting forever), and callbacks
/// never touch the GUI's main loop, which may not even run (the CLI, the tests). The worker
/// waits on a semaphore; it looks at its `Progress` a few times a second meanwhile and
/// cancels the calls' shared GCancellable once that is cancelled, so a call to a server that
/// stopped answering ends with `G_IO_ERROR_CANCELLED` instead of holding the operation. A call
/// with neither an answer nor progress for `stallLimit` is cancelled the same way.
///
/// A waiter on the main thread outside any dispatch (a test, the CLI) holds GLib's default
/// context and runs it itself meanwhile, as a main loop would, so that the GIO thread cannot
/// take it (`GIOLoop`): GTK's sources there must run on the main thread.
final class GIOCalls {
    let cancellable: UnsafeMutablePointer<GCancellable>
    private let progress: Progress?
    /// When the running call last completed or reported progress (uptime, nanoseconds).
    private let lastActivity = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)

    init(progress: Progress?) {
        self.progress = progress
        cancellable = g_cancellable_new()
    }

    deinit { g_object_unref(cancellable) }

    /// How long a cancelled call may take to end, in nanoseconds, before it is given up.
    static let cancelGrace: UInt64 = 10_000_000_000
    /// How long a call may go without an answer or progress, in nanoseconds, before it is
    /// cancelled: GVFS's own timeouts end a silent server sooner, so this only ends a call
    /// nothing will ever answer.
    static let stallLimit: UInt64 = 180_000_000_000

    /// Whether the calls are cancelled; passes a cancelled `Progress` on to GIO first.
    var isCancelled: Bool {
        if progress?.isCancelled == true { g_cancellable_cancel(cancellable) }
        return g_cancellable_is_cancelled(cancellable) != 0
    }

    /// Starts one asynchronous call with `start` (given the callback and its data to pass on)
    /// on the GIO thread, waits until it completes, then returns what `finish` makes of it.
    /// - Throws: the GError `finish` reported.
    func call<T>(
        _ start: @escaping (GAsyncReadyCallback, gpointer) -> Void,
        finish: (OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
    ) throws(GLibError) -> T {
        let completion = Completion()
        let data = Unmanaged.passRetained(completion).toOpaque()
        lastActivity.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        // The main thread outside any dispatch keeps the default context going itself.
        let runsDefaultContext = Thread.isMainThread && g_main_depth() == 0
        let global = g_main_context_default()!
        var holdsDefaultContext = runsDefaultContext && g_main_context_acquire(global) != 0
        defer { if holdsDefaultContext { g_main_context_release(global) } }
        GIOLoop.shared.begin()
        defer { GIOLoop.shared.end() }
        GIOLoop.shared.perform(UncheckedSendable { start(completed, data) })
        let step: DispatchTimeInterval = runsDefaultContext ? .milliseconds(5) : .milliseconds(100)
        // A cancelled call whose completion never comes (GVFS finishing it on a context no one
        // runs) is given up after `cancelGrace`, so a cancelled operation never holds its worker.
        var cancelledAt: DispatchTime?
        var stalled = false
        while completion.done.wait(timeout: .now() + step) == .timedOut {
            if runsDefaultContext {
                // Taken as soon as the GIO thread's look at it ends.
                if !holdsDefaultContext { holdsDefaultContext = g_main_context_acquire(global) != 0 }
                if holdsDefaultContext { dispatchReady(global) }
            }
            let now = DispatchTime.now()
            if !stalled, now.uptimeNanoseconds &- lastActivity.load(ordering: .relaxed) > Self.stallLimit {
                stalled = true
                g_cancellable_cancel(cancellable)
            }
            guard isCancelled else { continue }
            if let cancelledAt {
                if now.uptimeNanoseconds - cancelledAt.uptimeNanoseconds > Self.cancelGrace {
                    throw stalled ? Self.stopped : Self.ioError(G_IO_ERROR_CANCELLED, tr("the operation was cancelled"))
                }
            } else {
                cancelledAt = now
            }
        }
        guard let result = completion.result else {
            throw GLibError(domain: "dossier", code: 0, message: tr("the operation ended without a result"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(result)) }
        var error: UnsafeMutablePointer<GError>?
        let value = finish(result, &error)
        if let error {
            let reported = GLibError(consuming: error)
            throw stalled ? Self.stopped : reported
        }
        return value
    }

    /// The error of a call cancelled for going `stallLimit` without an answer.
    private static var stopped: GLibError { ioError(G_IO_ERROR_TIMED_OUT, tr("the location stopped answering")) }

    private static func ioError(_ code: GIOErrorEnum, _ message: String) -> GLibError {
        GLibError(domain: String(cString: g_quark_to_string(g_io_error_quark())), code: Int(code.rawValue), message: message)
    }

    /// `call` for a function that reports progress through a `GFileProgressCallback`:
    /// `report` gets the bytes done and the total, on the GIO thread.
    func call<T>(
        reporting report: @escaping (Int64, Int64) -> Void,
        _ start: @escaping (GFileProgressCallback, gpointer, GAsyncReadyCallback, gpointer) -> Void,
        finish: (OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
    ) throws(GLibError) -> T {
        let box = ProgressBox { [unowned self] done, total in
            lastActivity.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            report(done, total)
        }
        let progressData = Unmanaged.passUnretained(box).toOpaque()
        return try withExtendedLifetime(box) { () throws(GLibError) -> T in
            try call({ callback, data in start(progressed, progressData, callback, data) }, finish: finish)
        }
    }
}

/// The thread GIO's asynchronous file calls start on, running its own main loop for the life
/// of the process (started on first use).
///
/// GVFS's client also finishes some of its work on GLib's global default context (after an
/// upload to sftp, the next call on a mount waits forever for it in a process that does not
/// run that context, in PyGObject too). The app's main loop runs it; where no one does (the
/// CLI, the tests), this thread runs what is ready there every 20 ms while calls are under
/// way, but only when it can take the context, which it never can while a main loop owns it
/// or while the main thread waits in `GIOCalls.call`.
final class GIOLoop: Sendable {
    static let shared = GIOLoop()

    /// The loop's context (thread-safe to invoke on; owned by the loop's thread).
    private let context = UncheckedSendable(g_main_context_new()!)
    /// Calls under way, and whether the default context is being looked after meanwhile.
    private let calls = Locked((count: 0, draining: false))
    /// How many times the loop has looked after the default context (for the tests).
    let looks = Locked(0)
    /// Work handed to the loop's thread and not yet run (`perform`); the loop lives as long as the process.
    private let pending = Locked<[UncheckedSendable<() -> Void>]>([])

    private init() {
        let context = self.context
        let thread = Thread {
            g_main_context_push_thread_default(context.value)
            let loop = g_main_loop_new(context.value, 0)
            g_main_loop_run(loop)
        }
        thread.name = "dossier-gio"
        thread.start()
    }

    /// A call starts: GLib's default context is looked after until the last one ends.
    func begin() {
        let start = calls.withLock { state -> Bool in
            state.count += 1
            defer { state.draining = true }
            return !state.draining
        }
        guard start else { return }
        let source = g_timeout_source_new(20)!
        g_source_set_callback(source, { data in
            let loop = Unmanaged<GIOLoop>.fromOpaque(data!).takeUnretainedValue()
            let global = g_main_context_default()!
            if g_main_context_acquire(global) != 0 {
                dispatchReady(global)
                g_main_context_release(global)
            }
            loop.looks.withLock { $0 += 1 }
            return loop.calls.withLock { state -> Bool in
                if state.count == 0 { state.draining = false }
                return state.draining
            } ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context.value)
        g_source_unref(source)
    }

    /// A call ended.
    func end() {
        calls.withLock { $0.count -= 1 }
    }

    /// Runs `work` on the loop's thread, soon. The work goes through a pthread lock, not only
    /// through GLib's queue: GLib's own locks are futexes ThreadSanitizer cannot follow, and it
    /// took the closure built here and run there for a race.
    func perform(_ work: UncheckedSendable<() -> Void>) {
        pending.withLock { $0.append(work) }
        g_main_context_invoke_full(context.value, G_PRIORITY_DEFAULT, { data in
            let loop = Unmanaged<GIOLoop>.fromOpaque(data!).takeUnretainedValue()
            let works = loop.pending.withLock { pending in
                defer { pending.removeAll() }
                return pending
            }
            works.forEach { $0.value() }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }
}

/// A value handed to the GIO thread and back: GLib objects and callbacks that are safe there
/// (each is touched by one thread at a time: started on the loop, finished by the waiter).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// One call's outcome: set on the GIO thread, read by the waiter after `done`.
private final class Completion {
    var result: OpaquePointer?
    let done = DispatchSemaphore(value: 0)
}

private final class ProgressBox {
    let report: (Int64, Int64) -> Void
    init(_ report: @escaping (Int64, Int64) -> Void) { self.report = report }
}

/// Runs what is ready on `context`, which this thread holds: at most 50 dispatches, since an
/// animation always has something ready.
private func dispatchReady(_ context: OpaquePointer) {
    var rounds = 0
    while rounds < 50, g_main_context_iteration(context, 0) != 0 { rounds += 1 }
}

private let completed: GAsyncReadyCallback = { _, result, data in
    let completion = Unmanaged<Completion>.fromOpaque(data!).takeRetainedValue()
    g_object_ref(UnsafeMutableRawPointer(result))
    completion.result = result
    completion.done.signal()
}

private let progressed: GFileProgressCallback = { current, total, data in
    Unmanaged<ProgressBox>.fromOpaque(data!).takeUnretainedValue().report(Int64(current), Int64(total))
}
