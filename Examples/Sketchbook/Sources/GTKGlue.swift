import CGtk
import DocumentUI
import Foundation

// The sample's raw GTK glue, on DocumentUI's GtkSupport (re-exported by DocumentUI): its signal
// connections, casts and accessible names. An app on DocumentUI's public API holds GTK widgets
// itself for what DocumentUI does not draw (its editor); keeping the C calls here keeps the rest
// of the sample in Swift.

/// A widget of any GTK class as a GtkWidget pointer.
func asWidget(_ pointer: OpaquePointer) -> WidgetPointer { widget(pointer) }

/// A widget of any GTK class as a GtkWidget pointer.
func asWidget<T>(_ pointer: UnsafeMutablePointer<T>) -> WidgetPointer { widget(pointer) }

/// A window's widget as the GtkWindow pointer.
func asWindow(_ widget: WidgetPointer) -> UnsafeMutablePointer<GtkWindow> { window(widget) }

/// A signal whose handler takes only its instance ("clicked", a GtkApplication's "activate").
@MainActor
func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Void) {
    connectSignal(instance, signal) { body() }
}

/// A GSimpleAction's "activate" (its parameter is not used here).
@MainActor
func onAction(_ action: OpaquePointer, _ body: @escaping @MainActor () -> Void) {
    connectSignal(raw(action), "activate") { (_: UnsafeMutableRawPointer?) in body() }
}

/// A signal that carries a point or an offset (a drag gesture's "drag-begin", "drag-update", "drag-end").
@MainActor
func onPoint(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor (Double, Double) -> Void) {
    connectPairSignal(instance, signal) { x, y in body(x, y) }
}

/// A window's "close-request": true from `body` keeps the window open.
@MainActor
func onCloseRequest(_ window: WidgetPointer, _ body: @escaping @MainActor () -> Bool) {
    connectSignal(raw(window), "close-request", returning: { body() })
}

/// Adds an action named `name` to `map` (a window or the application) that runs `body`.
@MainActor
func addAction(_ name: String, to map: UnsafeMutableRawPointer, _ body: @escaping @MainActor () -> Void) -> OpaquePointer {
    let action = g_simple_action_new(name, nil)!
    onAction(action, body)
    g_action_map_add_action(OpaquePointer(map), action)
    g_object_unref(UnsafeMutableRawPointer(action))
    return action
}

/// The drawing function of a GtkDrawingArea: `body` gets the cairo context and the area's size.
@MainActor
func setDrawFunction(_ area: WidgetPointer, _ body: @escaping @MainActor (OpaquePointer, Double, Double) -> Void) {
    setDrawFunction(of: cast(area)) { cairo, width, height in
        guard let cairo else { return }
        body(cairo, Double(width), Double(height))
    }
}
