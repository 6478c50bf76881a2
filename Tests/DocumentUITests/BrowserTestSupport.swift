import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
@testable import DocumentUI

/// Runs the GLib main context (and, through the bridge, the main dispatch queue and main-actor
/// tasks) until `condition` holds or `timeout` passes; returns the condition's last answer.
@MainActor
@discardableResult
func spin(timeout: TimeInterval = 60, until condition: () -> Bool) -> Bool {
    MainLoopBridge.install()
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        // Bounded: an animation (a spinner) always has something ready.
        var rounds = 0
        while rounds < 50, g_main_context_iteration(nil, 0) != 0 { rounds += 1 }
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}

/// Runs the main context for a while: only to pace synthetic input (a click or a key through
/// xdotool, taken by GTK before the next one). Never a wait for an outcome, which `spin` does,
/// nor the time to let something not happen, which needs a barrier (`waitUntilDrawn`).
@MainActor
func settle(_ seconds: TimeInterval) {
    _ = spin(timeout: seconds) { false }
}

/// Waits until every window shown has drawn a whole frame begun after this call (its layout
/// and its paint, after every tick callback of that frame) and the X server has taken the
/// drawing. The barrier after a change that shows by the next frame: a layout, the first step
/// of an animation; and before a screenshot. False when no frame came within `timeout`.
@MainActor
@discardableResult
func waitUntilDrawn(timeout: TimeInterval = 60) -> Bool {
    var watches: [(window: Widget, id: guint, ticks: FrameTicks)] = []
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

/// Waits until `query` has done all it was asked so far (a stop included, after which it sends
/// nothing: its `synchronize` then answers at once) and the main queue has run what it sent
/// before: after a stopped query, the barrier past which nothing of it can still arrive.
@MainActor
@discardableResult
func waitUntilDoneSending(_ query: DirectoryQuery, timeout: TimeInterval = 60) -> Bool {
    let mark = MainQueueMark()
    query.synchronize {
        DispatchQueue.main.async { MainActor.assumeIsolated { mark.reached = true } }
    }
    return spin(timeout: timeout) { mark.reached }
}

@MainActor
private final class MainQueueMark {
    var reached = false
}

/// Counts a widget's frames, through a tick callback (which also keeps the frames coming).
@MainActor
private final class FrameTicks {
    private(set) var count = 0

    func watch(_ widget: Widget) -> guint {
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

/// Records every `items-changed` of a model as (position, removed, added).
@MainActor
final class ChangeRecorder {
    private(set) var changes: [[Int]] = []

    init(_ model: BrowserListModel) {
        connectItemsChanged(model.object.model) { [weak self] position, removed, added in
            self?.changes.append([position, removed, added])
        }
    }

    func reset() { changes = [] }
}
