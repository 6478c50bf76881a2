import CGLib
import Dispatch
import Foundation

/// Lets `DispatchQueue.main` and `@MainActor` work run while a GLib main loop
/// (`g_application_run`, `g_main_loop_run`) owns the main thread.
///
/// libdispatch signals queued main-thread work through an eventfd; the bridge watches that
/// fd from the default GLib main context, drains it, and runs the queue. Install it once,
/// on the main thread, before running the loop.
public enum MainLoopBridge {
    nonisolated(unsafe) private static var sourceID: guint = 0

    /// Installs the bridge on the default main context; later calls do nothing.
    public static func install() {
        precondition(Thread.isMainThread, "MainLoopBridge.install() must run on the main thread")
        guard sourceID == 0 else { return }
        let fd = _dispatch_get_main_queue_handle_4CF()
        sourceID = g_unix_fd_add(fd, G_IO_IN, { fd, _, _ in
            // Left for the main thread when another one runs the default context (`offMain`).
            guard Thread.isMainThread else { return 1 }
            // Read the eventfd first: without it the fd stays readable and GLib spins.
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
            return 1  // G_SOURCE_CONTINUE
        }, nil)
        // Work queued before the bridge existed may already have signalled the fd; GLib will
        // see it readable on the next iteration, so nothing is lost.
    }
}


/// Whether a main-thread source is being dispatched by another thread. DocumentCore's `GIOLoop`
/// runs GLib's default context where no main loop owns it, for GVFS's completions; in a process
/// whose main thread iterates that context only now and then (the tests), it can take the
/// context between two iterations and dispatch the UI's sources too, which would then run main
/// actor work off the main thread (the isolation check traps). Such a source returns `G_SOURCE_CONTINUE` untouched when
/// this is true, and runs when the main thread next iterates.
public var dispatchedOffMain: Bool { !Thread.isMainThread }

/// Work for the main thread that should wait until GTK has drawn: an idle source at
/// `G_PRIORITY_DEFAULT_IDLE`, below GTK's layout and paint (`GDK_PRIORITY_REDRAW`), where
/// `@MainActor` work queued through `MainLoopBridge` runs at the default priority, above them.
public enum MainLoopIdle {
    /// Runs `work` once, when nothing of a higher `priority` is pending (GLib's default idle
    /// priority unless told); the source's id, for `g_source_remove` when it is no longer wanted.
    @discardableResult
    public static func run(priority: Int32 = G_PRIORITY_DEFAULT_IDLE, _ work: @escaping @MainActor () -> Void) -> guint {
        let box = Unmanaged.passRetained(IdleWork(work)).toOpaque()
        return g_idle_add_full(priority, { data in
            guard !dispatchedOffMain else { return 1 }
            let work = Unmanaged<IdleWork>.fromOpaque(data!).takeUnretainedValue().work
            MainActor.assumeIsolated { work() }
            return 0  // G_SOURCE_REMOVE
        }, box, { data in Unmanaged<IdleWork>.fromOpaque(data!).release() })
    }
}

/// A repeating main-loop timer for `@MainActor` work: a timeout source that runs `tick` every
/// `milliseconds` until it returns false.
public enum MainLoopTimer {
    /// Starts the timer at `priority` (GLib's default unless told); the source's id, for
    /// `g_source_remove` when it is no longer wanted. A dispatch off the main thread is skipped
    /// (see `dispatchedOffMain`): the tick runs when the main thread next iterates.
    @discardableResult
    public static func start(priority: Int32 = G_PRIORITY_DEFAULT, milliseconds: UInt32,
                             _ tick: @escaping @MainActor () -> Bool) -> guint {
        let box = Unmanaged.passRetained(TimerTick(tick)).toOpaque()
        return g_timeout_add_full(priority, milliseconds, { data in
            guard !dispatchedOffMain else { return 1 }
            let tick = Unmanaged<TimerTick>.fromOpaque(data!).takeUnretainedValue().tick
            return MainActor.assumeIsolated { tick() } ? 1 : 0
        }, box, { data in Unmanaged<TimerTick>.fromOpaque(data!).release() })
    }
}

private final class TimerTick {
    let tick: @MainActor () -> Bool
    init(_ tick: @escaping @MainActor () -> Bool) { self.tick = tick }
}

private final class IdleWork {
    let work: @MainActor () -> Void
    init(_ work: @escaping @MainActor () -> Void) { self.work = work }
}
