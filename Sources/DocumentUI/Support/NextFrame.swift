import CGLib
import CGtk
import GObjectSupport
import GtkSupport

/// Runs `work` once, at `widget`'s next frame (in its tick, before that frame's layout), and
/// not at all while the widget is not mapped. A wait counted in frames rather than in time
/// goes at the pace of the drawing on a busy machine as on an idle one.
@MainActor
func onNextFrame(of widget: WidgetPointer, _ work: @escaping @MainActor () -> Void) {
    addTickCallback(to: widget) { _ in
        work()
        return false  // once
    }
}
