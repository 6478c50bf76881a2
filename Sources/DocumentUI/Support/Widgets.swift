import CGLib
import CGtk
import Foundation
import GObjectSupport
import GtkSupport

/// Names the response buttons of an AdwMessageDialog by their text: libadwaita 1.2 labels
/// each with its mnemonic text and GTK 4.8 reads that before the label ("_Cancel Cancel").
/// Call after the responses are added.
@MainActor
func nameResponseButtons(of dialog: WidgetPointer) {
    var stack: [WidgetPointer] = [dialog]
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
func setAccessibleNameOfListItem(holding child: WidgetPointer, _ name: String, levels: Int = 1) {
    var widget: WidgetPointer? = child
    for _ in 0..<levels { widget = widget.flatMap { gtk_widget_get_parent($0) } }
    if let widget { setAccessibleName(widget, name) }
}

/// A label with the given text, style classes and accessible name.
@MainActor
func makeLabel(_ text: String, classes: [String] = [], wrap: Bool = false, selectable: Bool = false) -> WidgetPointer {
    let label = gtk_label_new(text)!
    for name in classes { gtk_widget_add_css_class(label, name) }
    if wrap {
        gtk_label_set_wrap(opaque(label), 1)
        gtk_label_set_justify(opaque(label), GTK_JUSTIFY_CENTER)
    }
    gtk_label_set_selectable(opaque(label), selectable ? 1 : 0)
    return label
}


/// Calls `handler` with the position of each primary click released on `widget`.
@MainActor
func onClick(_ widget: WidgetPointer, _ handler: @escaping (Double, Double) -> Void) {
    let gesture = gtk_gesture_click_new()!
    connectClickSignal(raw(gesture), "released") { _, x, y in handler(x, y) }
    gtk_widget_add_controller(widget, gesture)
}

/// Calls `handler` with the horizontal direction (-1 or 1) of each clear sideways swipe on
/// `widget` (touchpad or touchscreen).
@MainActor
func onSwipe(_ widget: WidgetPointer, _ handler: @escaping (Int) -> Void) {
    let gesture = gtk_gesture_swipe_new()!
    connectPairSignal(raw(gesture), "swipe") { velocityX, velocityY in
        guard abs(velocityX) > 400, abs(velocityX) > 2 * abs(velocityY) else { return }
        handler(velocityX < 0 ? 1 : -1)
    }
    gtk_widget_add_controller(widget, gesture)
}

/// Calls `handler` with the change of scale since the last call while the user pinches.
@MainActor
func onPinch(_ widget: WidgetPointer, _ handler: @escaping (Double) -> Void) {
    let gesture = gtk_gesture_zoom_new()!
    final class Last { var scale = 1.0 }
    let last = Last()
    connectDoubleSignal(raw(gesture), "scale-changed") { scale in
        handler(scale / last.scale)
        last.scale = scale
    }
    connectSignal(raw(gesture), "end") { () -> Void in last.scale = 1 }
    gtk_widget_add_controller(widget, gesture)
}
