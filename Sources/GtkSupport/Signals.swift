import CGLib

/// A connected signal handler. The closure is retained by GLib and released by the
/// destroy-notify when the handler is disconnected or the emitting object is finalized,
/// so a widget that dies first never calls into a freed closure.
public struct SignalConnection: Sendable {
    /// The id GLib gave the handler (`g_signal_connect_data`'s result; 0 when the signal is unknown).
    public let handlerID: UInt

    /// Disconnects the handler if `instance` still has it (releasing its closure).
    public func disconnect(from instance: UnsafeMutableRawPointer) {
        if g_signal_handler_is_connected(instance, gulong(handlerID)) != 0 {
            g_signal_handler_disconnect(instance, gulong(handlerID))
        }
    }
}

/// The Swift side of a connected handler, kept alive by GLib through `Unmanaged`.
final class SignalBox<Callback> {
    let callback: Callback
    init(_ callback: Callback) { self.callback = callback }
}

/// Releases the retained box when GLib drops the closure.
private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

func connect<Callback>(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: Callback, trampoline: GCallback,
    after: Bool
) -> SignalConnection {
    let box = Unmanaged.passRetained(SignalBox(callback) as AnyObject).toOpaque()
    let id = dossier_g_signal_connect_data(
        instance, signal, trampoline, box, releaseBox, after ? GConnectFlags(rawValue: DOSSIER_G_CONNECT_AFTER) : GConnectFlags(rawValue: 0))
    if id == 0 {
        // Unknown signal: GLib already logged a critical; do not leak the box.
        Unmanaged<AnyObject>.fromOpaque(box).release()
    }
    return SignalConnection(handlerID: UInt(id))
}

/// The handler a connection holds. Handlers are `@MainActor` closures, stored without their
/// isolation so that the C trampolines can call them: GTK emits its signals on the main thread
/// only, which this checks before every call.
func box<Callback>(_ data: gpointer?, as _: Callback.Type) -> Callback {
    MainActor.preconditionIsolated("a GTK signal emitted off the main thread")
    return (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! SignalBox<Callback>).callback
}

// One trampoline per C signature.
private typealias Void0 = @convention(c) (gpointer?, gpointer?) -> Void
private typealias Void1 = @convention(c) (gpointer?, gpointer?, gpointer?) -> Void
private typealias Bool0 = @convention(c) (gpointer?, gpointer?) -> gboolean

private let void0: Void0 = { _, data in box(data, as: (() -> Void).self)() }
private let void1: Void1 = { _, argument, data in box(data, as: ((UnsafeMutableRawPointer?) -> Void).self)(argument) }
private let bool0: Bool0 = { _, data in box(data, as: (() -> Bool).self)() ? 1 : 0 }

// A signal with one unsigned integer argument, e.g. GtkColumnView::activate (the position).
private typealias VoidNumber = @convention(c) (gpointer?, guint, gpointer?) -> Void
private let voidNumber: VoidNumber = { _, number, data in box(data, as: ((UInt32) -> Void).self)(number) }

// A signal with one string argument that returns a boolean, e.g. GtkLabel::activate-link.
private typealias BoolString = @convention(c) (gpointer?, UnsafePointer<gchar>?, gpointer?) -> gboolean
private let boolString: BoolString = { _, argument, data in
    box(data, as: ((String?) -> Bool).self)(argument.map { String(cString: $0) }) ? 1 : 0
}

// GtkEventControllerKey::key-pressed: (controller, keyval, keycode, modifier state).
private typealias KeyPressed = @convention(c) (gpointer?, guint, guint, guint, gpointer?) -> gboolean
private let keyPressed: KeyPressed = { _, keyval, _, state, data in
    box(data, as: ((UInt32, UInt32) -> Bool).self)(keyval, state) ? 1 : 0
}

/// Connects GtkEventControllerKey's `key-pressed`: the handler gets the key value and the
/// modifier state, and returns true when it handled the key.
@discardableResult
public func connectKeyPressed(_ controller: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (UInt32, UInt32) -> Bool) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UInt32, UInt32) -> Bool).self)  // called on the main thread only (`box`)
    return connect(controller, "key-pressed", handler, trampoline: unsafeBitCast(keyPressed, to: GCallback.self), after: false)
}

/// Connects a handler for a signal with no arguments, e.g. `clicked` or `destroy`.
@discardableResult
public func connectSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
    _ handler: @escaping @MainActor () -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: (() -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(void0, to: GCallback.self), after: after)
}

/// Connects a handler for a signal with one pointer argument, e.g. `notify` (its GParamSpec).
@discardableResult
public func connectSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
    _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UnsafeMutableRawPointer?) -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(void1, to: GCallback.self), after: after)
}

/// Connects a handler whose return value stops (true) or continues (false) the emission,
/// e.g. `close-request`.
@discardableResult
public func connectSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
    returning handler: @escaping @MainActor () -> Bool
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: (() -> Bool).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(bool0, to: GCallback.self), after: after)
}

/// Connects a handler for a signal with one unsigned integer argument, e.g. GtkColumnView's
/// `activate` (the activated position).
@discardableResult
public func connectNumberSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
    _ handler: @escaping @MainActor (UInt32) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UInt32) -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(voidNumber, to: GCallback.self), after: after)
}

/// Connects a handler for a signal with one string argument whose return value stops (true)
/// or continues (false) the emission, e.g. GtkLabel's `activate-link` (the URI).
@discardableResult
public func connectStringSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
    _ handler: @escaping @MainActor (String?) -> Bool
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((String?) -> Bool).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(boolString, to: GCallback.self), after: after)
}

// A signal with one pointer argument that returns a boolean, e.g. GtkPrintOperation::paginate.
private typealias BoolPointer = @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean
private let boolPointer: BoolPointer = { _, argument, data in
    box(data, as: ((UnsafeMutableRawPointer?) -> Bool).self)(argument) ? 1 : 0
}

// A pointer and a signed integer, e.g. GtkPrintOperation::draw-page (the context, the page).
private typealias VoidPointerNumber = @convention(c) (gpointer?, gpointer?, gint, gpointer?) -> Void
private let voidPointerNumber: VoidPointerNumber = { _, argument, number, data in
    box(data, as: ((UnsafeMutableRawPointer?, Int32) -> Void).self)(argument, number)
}

/// Connects a handler for a signal with one pointer argument whose return value the signal
/// defines, e.g. GtkPrintOperation's `paginate` (the print context; true when done).
@discardableResult
public func connectPointerSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
    returning handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UnsafeMutableRawPointer?) -> Bool).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(boolPointer, to: GCallback.self), after: after)
}

/// Connects a handler for a signal with a pointer and an integer argument, e.g.
/// GtkPrintOperation's `draw-page` (the print context and the page's number).
@discardableResult
public func connectPointerNumberSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
    _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, Int32) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UnsafeMutableRawPointer?, Int32) -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(voidPointerNumber, to: GCallback.self), after: after)
}

// A pointer, a signed integer and a pointer, e.g. GtkPrintOperation::request-page-setup (the
// context, the page's number, its page setup).
private typealias VoidPointerNumberPointer = @convention(c) (gpointer?, gpointer?, gint, gpointer?, gpointer?) -> Void
private let voidPointerNumberPointer: VoidPointerNumberPointer = { _, first, number, second, data in
    box(data, as: ((UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void).self)(first, number, second)
}

/// Connects a handler for a signal with a pointer, an integer and a pointer argument, e.g.
/// GtkPrintOperation's `request-page-setup` (the print context, the page, its page setup).
@discardableResult
public func connectPointerNumberPointerSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
    _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(voidPointerNumberPointer, to: GCallback.self), after: after)
}
