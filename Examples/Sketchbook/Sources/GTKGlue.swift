import CGLib
import CGtk
import DocumentUI
import Foundation

// The sample's only raw GTK glue: signal closures, casts and accessible names. An app on
// DocumentUI's public API holds GTK widgets itself for what DocumentUI does not draw (its
// editor); keeping the C calls here keeps the rest of the sample in Swift.

/// A widget of any GTK class as the pointer DocumentUI's API takes.
func asWidget(_ pointer: OpaquePointer) -> Widget {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GtkWidget.self)
}

func asWidget<T>(_ pointer: UnsafeMutablePointer<T>) -> Widget {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GtkWidget.self)
}

func asWindow(_ widget: Widget) -> UnsafeMutablePointer<GtkWindow> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkWindow.self)
}

/// The same GTK object as the typed pointer a C function takes (GtkBox, AdwHeaderBar…).
func cast<T, U>(_ pointer: UnsafeMutablePointer<U>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

/// The same GTK object as an opaque pointer, for the classes whose struct is private.
func cast<U>(_ pointer: UnsafeMutablePointer<U>) -> OpaquePointer { OpaquePointer(pointer) }

/// Sets what a screen reader (and the UI tests, through AT-SPI) calls a widget.
@MainActor
func setAccessibleName(_ widget: Widget, _ name: String) {
    dossier_gtk_accessible_set_label(widget, name)
}

/// The closures a signal handler calls, released with the handler.
private final class Handler {
    let plain: (() -> Void)?
    let point: ((Double, Double) -> Void)?
    let veto: (() -> Bool)?

    init(plain: (() -> Void)? = nil, point: ((Double, Double) -> Void)? = nil, veto: (() -> Bool)? = nil) {
        self.plain = plain
        self.point = point
        self.veto = veto
    }
}

private let releaseHandler: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    if let data { Unmanaged<Handler>.fromOpaque(data).release() }
}

private func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: Handler, _ callback: GCallback) {
    let data = Unmanaged.passRetained(handler).toOpaque()
    dossier_g_signal_connect_data(instance, signal, callback, data, releaseHandler, GConnectFlags(rawValue: 0))
}

/// A signal whose handler takes only its instance ("clicked", a GtkApplication's "activate").
@MainActor
func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Void) {
    connect(instance, signal, Handler(plain: { MainActor.assumeIsolated { body() } }),
            unsafeBitCast(plainTrampoline, to: GCallback.self))
}

private let plainTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    guard let data else { return }
    Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().plain?()
}

private let actionTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
    guard let data else { return }
    Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().plain?()
}

private let pointTrampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, x, y, data in
    guard let data else { return }
    Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().point?(x, y)
}

private let vetoTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
    guard let data else { return 0 }
    return Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().veto?() == true ? 1 : 0
}

/// A GSimpleAction's "activate" (its parameter is not used here).
@MainActor
func onAction(_ action: OpaquePointer, _ body: @escaping @MainActor () -> Void) {
    connect(UnsafeMutableRawPointer(action), "activate", Handler(plain: { MainActor.assumeIsolated { body() } }),
            unsafeBitCast(actionTrampoline, to: GCallback.self))
}

/// A signal that carries a point or an offset (a drag gesture's "drag-begin", "drag-update", "drag-end").
@MainActor
func onPoint(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor (Double, Double) -> Void) {
    connect(instance, signal, Handler(point: { x, y in MainActor.assumeIsolated { body(x, y) } }),
            unsafeBitCast(pointTrampoline, to: GCallback.self))
}

/// A window's "close-request": true from `body` keeps the window open.
@MainActor
func onCloseRequest(_ window: Widget, _ body: @escaping @MainActor () -> Bool) {
    connect(UnsafeMutableRawPointer(window), "close-request", Handler(veto: { MainActor.assumeIsolated { body() } }),
            unsafeBitCast(vetoTrampoline, to: GCallback.self))
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
private final class DrawHandler {
    let body: (OpaquePointer, Double, Double) -> Void
    init(_ body: @escaping (OpaquePointer, Double, Double) -> Void) { self.body = body }
}

private let drawTrampoline: @convention(c) (OpaquePointer?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { _, cairo, width, height, data in
    guard let cairo, let data else { return }
    Unmanaged<DrawHandler>.fromOpaque(data).takeUnretainedValue().body(cairo, Double(width), Double(height))
}

private let releaseDrawHandler: @convention(c) (gpointer?) -> Void = { data in
    if let data { Unmanaged<DrawHandler>.fromOpaque(data).release() }
}

@MainActor
func setDrawFunction(_ area: Widget, _ body: @escaping @MainActor (OpaquePointer, Double, Double) -> Void) {
    let handler = DrawHandler { cairo, width, height in MainActor.assumeIsolated { body(cairo, width, height) } }
    gtk_drawing_area_set_draw_func(cast(area), unsafeBitCast(drawTrampoline, to: GtkDrawingAreaDrawFunc.self),
                                   Unmanaged.passRetained(handler).toOpaque(), releaseDrawHandler)
}
