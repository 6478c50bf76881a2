import CGLib
import GObjectSupport

// The signals of list models, selections, file monitors and dialogs' responses.

// GListModel::items-changed: (model, position, removed, added).
private typealias ItemsChanged = @convention(c) (gpointer?, guint, guint, guint, gpointer?) -> Void
private let itemsChanged: ItemsChanged = { _, position, removed, added, data in
    box(data, as: ((Int, Int, Int) -> Void).self)(Int(position), Int(removed), Int(added))
}

/// Connects GListModel's `items-changed`: the handler gets the position, the number of
/// items removed there and the number added.
@discardableResult
public func connectItemsChanged(
    _ model: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (Int, Int, Int) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((Int, Int, Int) -> Void).self)  // called on the main thread only (`box`)
    return connect(model, "items-changed", handler, trampoline: unsafeBitCast(itemsChanged, to: GCallback.self), after: false)
}

// Two unsigned integers, e.g. GtkSelectionModel::selection-changed (position, count).
private typealias Range = @convention(c) (gpointer?, guint, guint, gpointer?) -> Void
private let range: Range = { _, first, second, data in box(data, as: ((UInt32, UInt32) -> Void).self)(first, second) }

/// Connects a handler for a signal with two unsigned integer arguments, e.g.
/// GtkSelectionModel's `selection-changed` (the first position changed and the count).
@discardableResult
public func connectRangeSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor (UInt32, UInt32) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UInt32, UInt32) -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(range, to: GCallback.self), after: false)
}

// GFileMonitor::changed: (monitor, file, other_file, event).
private typealias MonitorChanged = @convention(c) (gpointer?, gpointer?, gpointer?, GFileMonitorEvent, gpointer?) -> Void
private let monitorChanged: MonitorChanged = { _, _, _, _, data in
    // A monitor's event that another thread dispatches (`GIOLoop`, holding GLib's default context
    // in a process whose main thread runs no loop) is dropped, not run off the main thread.
    guard !dispatchedOffMain else { return }
    box(data, as: (() -> Void).self)()
}

/// Connects GFileMonitor's `changed`, for a handler that only needs to know that something
/// changed (it looks again itself).
@discardableResult
public func connectFileMonitorChanged(
    _ monitor: UnsafeMutableRawPointer, _ handler: @escaping @MainActor () -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: (() -> Void).self)  // called on the main thread only (`box`)
    return connect(monitor, "changed", handler, trampoline: unsafeBitCast(monitorChanged, to: GCallback.self), after: false)
}

// One string and no result, e.g. AdwMessageDialog::response (the response's id).
private typealias Text = @convention(c) (gpointer?, UnsafePointer<gchar>?, gpointer?) -> Void
private let text: Text = { _, argument, data in
    box(data, as: ((String) -> Void).self)(argument.map { String(cString: $0) } ?? "")
}

/// Connects a handler for a signal with one string argument and no result, e.g.
/// AdwMessageDialog's `response` (the response's id; empty when GLib passes none).
@discardableResult
public func connectTextSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor (String) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((String) -> Void).self)  // called on the main thread only (`box`)
    return connect(instance, signal, handler, trampoline: unsafeBitCast(text, to: GCallback.self), after: false)
}
