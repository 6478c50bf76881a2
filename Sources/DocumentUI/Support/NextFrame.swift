import CGLib
import CGtk
import GObjectSupport

/// Runs `work` once, at `widget`'s next frame (in its tick, before that frame's layout), and
/// not at all while the widget is not mapped. A wait counted in frames rather than in time
/// goes at the pace of the drawing on a busy machine as on an idle one.
@MainActor
func onNextFrame(of widget: Widget, _ work: @escaping @MainActor () -> Void) {
    typealias Tick = @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean
    let tick: Tick = { _, _, data in
        guard let data else { return 0 }
        let work = Unmanaged<FrameWork>.fromOpaque(data).takeUnretainedValue().work
        MainActor.assumeIsolated { work() }
        return 0  // G_SOURCE_REMOVE: once
    }
    _ = gtk_widget_add_tick_callback(widget, tick, Unmanaged.passRetained(FrameWork(work)).toOpaque()) { data in
        Unmanaged<FrameWork>.fromOpaque(data!).release()
    }
}

private final class FrameWork {
    let work: @MainActor () -> Void
    init(_ work: @escaping @MainActor () -> Void) { self.work = work }
}
