import CGLib
import CGtk
import DocumentUI
import DossierFixtures
import Foundation
import GObjectSupport

// Shared with RemoteLocationTests through a link (GTK: DossierFixtures stays GTK-free).

/// Waits until every window shown has drawn a whole frame begun after this call (its layout
/// and its paint, after every tick callback of that frame) and the X server has taken the
/// drawing. The barrier after a change that shows by the next frame: a layout, the first step
/// of an animation; and before a screenshot. False when no frame came within `timeout`.
@MainActor
@discardableResult
func waitUntilDrawn(timeout: TimeInterval = 60) -> Bool {
    var watches: [(window: WidgetPointer, id: guint, ticks: FrameTicks)] = []
    let toplevels = gtk_window_list_toplevels()
    var node = toplevels
    while let current = node {
        if let data = current.pointee.data {
            let window = data.assumingMemoryBound(to: GtkWidget.self)
            if gtk_widget_get_mapped(window) != 0 {
                let ticks = FrameTicks()
                watches.append((window, ticks.watch(window), ticks))
            }
        }
        node = current.pointee.next
    }
    g_list_free(toplevels)
    defer { for watch in watches { gtk_widget_remove_tick_callback(watch.window, watch.id) } }
    // The first tick is in a frame that lays out and paints after it; the second, in the next
    // frame, comes once that one was painted.
    let drawn = spin(timeout: timeout) { watches.allSatisfy { $0.ticks.count >= 2 } }
    if let display = gdk_display_get_default() { gdk_display_sync(display) }
    return drawn
}

/// Counts a widget's frames, through a tick callback (which also keeps the frames coming).
@MainActor
private final class FrameTicks {
    private(set) var count = 0

    func watch(_ widget: WidgetPointer) -> guint {
        typealias Tick = @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean
        let tick: Tick = { _, _, data in
            guard let data else { return 0 }
            let ticks = Unmanaged<FrameTicks>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { ticks.count += 1 }
            return 1
        }
        return gtk_widget_add_tick_callback(widget, tick, Unmanaged.passRetained(self).toOpaque()) { data in
            Unmanaged<FrameTicks>.fromOpaque(data!).release()
        }
    }
}
