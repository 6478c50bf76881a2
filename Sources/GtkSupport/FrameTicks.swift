import CGLib
import CGtk

/// The Swift side of a tick callback: the work for each frame, and what to do once removed.
private final class TickBox {
    let tick: (Int) -> Bool
    let removed: (() -> Void)?
    init(_ tick: @escaping (Int) -> Bool, removed: (() -> Void)?) {
        self.tick = tick
        self.removed = removed
    }
}

// GtkTickCallback: (widget, frame clock, data) → G_SOURCE_CONTINUE or G_SOURCE_REMOVE.
private typealias Tick = @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean
private let frameTick: Tick = { _, clock, data in
    guard let data, let clock else { return 0 }
    let box = Unmanaged<TickBox>.fromOpaque(data).takeUnretainedValue()
    return box.tick(gdk_frame_clock_get_frame_time(clock)) ? 1 : 0
}

/// Calls `tick` before each frame `widget` draws, with the frame's time in microseconds,
/// until it returns false or the callback is removed (`gtk_widget_remove_tick_callback` with
/// the id returned); `removed` then runs once, also when the widget goes first. GTK calls both
/// on the main thread.
@MainActor
@discardableResult
public func addTickCallback(
    to widget: UnsafeMutablePointer<GtkWidget>, _ tick: @escaping @MainActor (Int) -> Bool,
    removed: (@MainActor () -> Void)? = nil
) -> UInt32 {
    let tick = unsafeBitCast(tick, to: ((Int) -> Bool).self)
    let removed = removed.map { unsafeBitCast($0, to: (() -> Void).self) }
    let box = Unmanaged.passRetained(TickBox(tick, removed: removed)).toOpaque()
    return gtk_widget_add_tick_callback(widget, frameTick, box) { data in
        let box = Unmanaged<TickBox>.fromOpaque(data!).takeRetainedValue()
        box.removed?()
    }
}
