import CGLib
import CGtk
import Foundation
import GObjectSupport

/// GTK's C types arrive in Swift as typed pointers for the classes with public instance
/// structs (GtkWidget, GtkWindow) and as opaque pointers for the rest (GtkBox, GtkLabel…).
/// These are the only casts between them; everything else works with `Widget`.
public typealias Widget = UnsafeMutablePointer<GtkWidget>

@inlinable func widget(_ pointer: OpaquePointer?) -> Widget {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: GtkWidget.self)
}

@inlinable func widget<T>(_ pointer: UnsafeMutablePointer<T>?) -> Widget {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: GtkWidget.self)
}

@inlinable func opaque<T>(_ pointer: UnsafeMutablePointer<T>?) -> OpaquePointer {
    OpaquePointer(pointer!)
}

/// The same object as another typed pointer (GtkBox, GtkWindow…), inferred from the use.
@inlinable func cast<T, U>(_ pointer: UnsafeMutablePointer<U>?) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: T.self)
}

/// The same object as an opaque pointer, for the classes whose struct is private (GtkStack…).
@inlinable func cast<U>(_ pointer: UnsafeMutablePointer<U>?) -> OpaquePointer {
    OpaquePointer(pointer!)
}

@inlinable func cast<T>(_ pointer: OpaquePointer?) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: T.self)
}

@inlinable func window(_ widget: Widget) -> UnsafeMutablePointer<GtkWindow> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkWindow.self)
}

@inlinable func raw<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
@inlinable func raw(_ pointer: OpaquePointer) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

/// Sets a widget's accessible name (what a screen reader and AT-SPI tests see).
@MainActor
func setAccessibleName(_ widget: Widget, _ name: String) {
    dossier_gtk_accessible_set_label(widget, name)
    // A button with a text is labelled by its label too, and GTK 4.8 reads both ("Empty
    // Trash Empty Trash…"): the name given here is the one to read.
    if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                  gtk_button_get_type()) != 0 {
        gtk_accessible_reset_relation(OpaquePointer(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
    }
}

/// Names the response buttons of an AdwMessageDialog by their text: libadwaita 1.2 labels
/// each with its mnemonic text and GTK 4.8 reads that before the label ("_Cancel Cancel").
/// Call after the responses are added.
@MainActor
func nameResponseButtons(of dialog: Widget) {
    var stack: [Widget] = [dialog]
    while let widget = stack.popLast() {
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                      gtk_button_get_type()) != 0,
           let label = gtk_button_get_label(cast(widget)) {
            let text = String(cString: label)
            setAccessibleName(widget, gtk_button_get_use_underline(cast(widget)) != 0
                              ? text.replacingOccurrences(of: "_", with: "") : text)
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            stack.append(current)
            child = gtk_widget_get_next_sibling(current)
        }
    }
}

/// Names the widget a list or grid view wraps around `child`, `levels` up: 1 for a grid's
/// item or a column view's cell, 2 for a column view's row. GTK 4.8 leaves these
/// GTK-internal widgets unnamed (AT-SPI reads their type name, "GtkListItemWidget") and has
/// no API for it before 4.12's `gtk_list_item_set_accessible_label`; they are reused, so the
/// name is set again at each bind.
@MainActor
func setAccessibleNameOfListItem(holding child: Widget, _ name: String, levels: Int = 1) {
    var widget: Widget? = child
    for _ in 0..<levels { widget = widget.flatMap { gtk_widget_get_parent($0) } }
    if let widget { setAccessibleName(widget, name) }
}

/// A label with the given text, style classes and accessible name.
@MainActor
func makeLabel(_ text: String, classes: [String] = [], wrap: Bool = false, selectable: Bool = false) -> Widget {
    let label = gtk_label_new(text)!
    for name in classes { gtk_widget_add_css_class(label, name) }
    if wrap {
        gtk_label_set_wrap(opaque(label), 1)
        gtk_label_set_justify(opaque(label), GTK_JUSTIFY_CENTER)
    }
    gtk_label_set_selectable(opaque(label), selectable ? 1 : 0)
    return label
}

/// A vertical or horizontal box holding `children`.
@MainActor
func makeBox(_ orientation: GtkOrientation, spacing: Int32 = 0, _ children: [Widget]) -> Widget {
    let box = gtk_box_new(orientation, spacing)!
    for child in children { gtk_box_append(cast(box), child) }
    return box
}

/// The box a click handler is kept in while its gesture lives.
private final class ClickBox {
    let handler: (Double, Double) -> Void
    init(_ handler: @escaping (Double, Double) -> Void) { self.handler = handler }
}

/// Calls `handler` with the position of each primary click released on `widget`.
@MainActor
func onClick(_ widget: Widget, _ handler: @escaping (Double, Double) -> Void) {
    let gesture = gtk_gesture_click_new()!
    typealias Released = @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void
    let released: Released = { _, _, x, y, data in
        Unmanaged<ClickBox>.fromOpaque(data!).takeUnretainedValue().handler(x, y)
    }
    let box = Unmanaged.passRetained(ClickBox(handler)).toOpaque()
    dossier_g_signal_connect_data(raw(gesture), "released", unsafeBitCast(released, to: GCallback.self), box,
                                  { data, _ in Unmanaged<ClickBox>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
    gtk_widget_add_controller(widget, gesture)
}

/// The box a two-number gesture handler is kept in while its gesture lives.
private final class PairBox {
    let handler: (Double, Double) -> Void
    init(_ handler: @escaping (Double, Double) -> Void) { self.handler = handler }
}

/// Connects a signal whose arguments are two doubles (GtkGestureDrag's drag-begin and
/// drag-update, GtkGestureSwipe's swipe).
func connectPairSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping (Double, Double) -> Void) {
    connectPair(instance, signal, handler)
}

private func connectPair(_ gesture: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping (Double, Double) -> Void) {
    typealias Pair = @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void
    let trampoline: Pair = { _, a, b, data in Unmanaged<PairBox>.fromOpaque(data!).takeUnretainedValue().handler(a, b) }
    dossier_g_signal_connect_data(gesture, signal, unsafeBitCast(trampoline, to: GCallback.self),
                                  Unmanaged.passRetained(PairBox(handler)).toOpaque(),
                                  { data, _ in Unmanaged<PairBox>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
}

/// Calls `handler` with the horizontal direction (-1 or 1) of each clear sideways swipe on
/// `widget` (touchpad or touchscreen).
@MainActor
func onSwipe(_ widget: Widget, _ handler: @escaping (Int) -> Void) {
    let gesture = gtk_gesture_swipe_new()!
    connectPair(raw(gesture), "swipe") { velocityX, velocityY in
        guard abs(velocityX) > 400, abs(velocityX) > 2 * abs(velocityY) else { return }
        handler(velocityX < 0 ? 1 : -1)
    }
    gtk_widget_add_controller(widget, gesture)
}

/// Calls `handler` with the change of scale since the last call while the user pinches.
@MainActor
func onPinch(_ widget: Widget, _ handler: @escaping (Double) -> Void) {
    let gesture = gtk_gesture_zoom_new()!
    final class Last { var scale = 1.0 }
    let last = Last()
    typealias Scale = @convention(c) (gpointer?, gdouble, gpointer?) -> Void
    let trampoline: Scale = { _, scale, data in Unmanaged<PairBox>.fromOpaque(data!).takeUnretainedValue().handler(scale, 0) }
    dossier_g_signal_connect_data(raw(gesture), "scale-changed", unsafeBitCast(trampoline, to: GCallback.self),
                                  Unmanaged.passRetained(PairBox { scale, _ in
                                      handler(scale / last.scale)
                                      last.scale = scale
                                  }).toOpaque(),
                                  { data, _ in Unmanaged<PairBox>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
    connectSignal(raw(gesture), "end") { () -> Void in last.scale = 1 }
    gtk_widget_add_controller(widget, gesture)
}
