import CGLib
import CGtk

// The signals of GTK's gestures and drag-and-drop controllers, one trampoline per C signature.

// GtkGestureClick::pressed and ::released: (gesture, n_press, x, y).
private typealias Click = @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void
private let click: Click = { _, presses, x, y, data in
    box(data, as: ((Int32, Double, Double) -> Void).self)(presses, x, y)
}

/// Connects GtkGestureClick's `pressed` or `released`: the handler gets the number of presses
/// and the position in the widget's coordinates.
@discardableResult
public func connectClickSignal(
    _ gesture: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor (Int32, Double, Double) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((Int32, Double, Double) -> Void).self)  // called on the main thread only (`box`)
    return connect(gesture, signal, handler, trampoline: unsafeBitCast(click, to: GCallback.self), after: false)
}

// Two doubles, e.g. GtkGestureSwipe::swipe (the velocity) or GtkGestureDrag::drag-update (the offset).
private typealias Pair = @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void
private let pair: Pair = { _, first, second, data in box(data, as: ((Double, Double) -> Void).self)(first, second) }

/// Connects a handler for a signal with two double arguments, e.g. GtkGestureSwipe's `swipe`
/// (the velocity) or GtkGestureDrag's `drag-update` (the offset).
@discardableResult
public func connectPairSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor (Double, Double) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((Double, Double) -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(pair, to: GCallback.self), after: false)
}

// One double, e.g. GtkGestureZoom::scale-changed.
private typealias Scalar = @convention(c) (gpointer?, gdouble, gpointer?) -> Void
private let scalar: Scalar = { _, value, data in box(data, as: ((Double) -> Void).self)(value) }

/// Connects a handler for a signal with one double argument, e.g. GtkGestureZoom's
/// `scale-changed` (the scale since the gesture began).
@discardableResult
public func connectDoubleSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor (Double) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((Double) -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(scalar, to: GCallback.self), after: false)
}

// GtkDropTarget::drop: (target, const GValue *value, x, y) → handled.
private typealias Drop = @convention(c) (gpointer?, UnsafePointer<GValue>?, gdouble, gdouble, gpointer?) -> gboolean
private let drop: Drop = { _, value, x, y, data in
    box(data, as: ((UnsafePointer<GValue>?, Double, Double) -> Bool).self)(value, x, y) ? 1 : 0
}

/// Connects GtkDropTarget's `drop`: the handler gets the dropped value and the position, and
/// returns true when it took the drop.
@discardableResult
public func connectDropSignal(
    _ target: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (UnsafePointer<GValue>?, Double, Double) -> Bool
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UnsafePointer<GValue>?, Double, Double) -> Bool).self)  // called on the main thread only (`box`)
    return connect(target, "drop", handler, trampoline: unsafeBitCast(drop, to: GCallback.self), after: false)
}

// GtkDragSource::prepare: (source, x, y) → a content provider (full transfer), or NULL.
private typealias Prepare = @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> UnsafeMutablePointer<GdkContentProvider>?
private let prepare: Prepare = { _, x, y, data in
    box(data, as: ((Double, Double) -> UnsafeMutablePointer<GdkContentProvider>?).self)(x, y)
}

/// Connects GtkDragSource's `prepare`: the handler gets the position the drag starts from
/// and returns the content to drag (a full reference, which GTK takes), or nil for no drag.
@discardableResult
public func connectDragPrepareSignal(
    _ source: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (Double, Double) -> UnsafeMutablePointer<GdkContentProvider>?
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((Double, Double) -> UnsafeMutablePointer<GdkContentProvider>?).self)  // called on the main thread only (`box`)
    return connect(source, "prepare", handler, trampoline: unsafeBitCast(prepare, to: GCallback.self), after: false)
}
