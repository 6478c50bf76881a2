import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The gestures that make a widget stand for its document: a click previews, a right-click
/// or a long press opens the options menu where it happened, and from the keyboard the Menu
/// key or Shift+F10 opens the menu, Space previews and Enter opens.
extension DocumentInteractionController {
    /// Adds the gestures to `widget`; the widget keeps the controller alive while it lives.
    public func attachGestures(to widget: Widget) {
        attachGestures(to: widget.gtkWidget)
    }

    func attachGestures(to widget: WidgetPointer) {
        installActions(on: widget)
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, 0)  // every button
        connectClickSignal(raw(click), "pressed") { [self] presses, x, y in
            let button = gtk_gesture_single_get_current_button(click)
            if button == UInt32(GDK_BUTTON_SECONDARY), presses == 1 {
                gtk_gesture_set_state(click, GTK_EVENT_SEQUENCE_CLAIMED)
                self.presentOptionsMenu(from: widget, at: (x, y))
            }
        }
        connectClickSignal(raw(click), "released") { [self] presses, _, _ in
            let button = gtk_gesture_single_get_current_button(click)
            if button == UInt32(GDK_BUTTON_PRIMARY), presses == 1 {
                self.presentPreview(from: widget)
            }
        }
        gtk_widget_add_controller(widget, click)

        let press = gtk_gesture_long_press_new()!
        connectPairSignal(raw(press), "pressed") { [self] x, y in
            gtk_gesture_set_state(press, GTK_EVENT_SEQUENCE_CLAIMED)
            self.presentOptionsMenu(from: widget, at: (x, y))
        }
        gtk_widget_add_controller(widget, press)

        let keys = gtk_event_controller_key_new()!
        connectKeyPressed(raw(keys)) { [self] key, state in
            let shift = state & GDK_SHIFT_MASK.rawValue != 0
            switch Int32(key) {
            case GDK_KEY_Menu: self.presentOptionsMenu(from: widget)
            case GDK_KEY_F10 where shift: self.presentOptionsMenu(from: widget)
            case GDK_KEY_space: self.presentPreview(from: widget)
            case GDK_KEY_Return, GDK_KEY_KP_Enter: self.open()
            default: return false
            }
            return true
        }
        gtk_widget_add_controller(widget, keys)
    }
}

/// Calls `handler` with the position of each right-click on `widget` that none of its
/// children took for itself (a text view's own menu, say).
@MainActor
func onSecondaryClick(_ widget: WidgetPointer, _ handler: @escaping (Double, Double) -> Void) {
    let click = gtk_gesture_click_new()!
    gtk_gesture_single_set_button(click, guint(GDK_BUTTON_SECONDARY))
    connectClickSignal(raw(click), "pressed") { presses, x, y in
        guard presses == 1 else { return }
        gtk_gesture_set_state(click, GTK_EVENT_SEQUENCE_CLAIMED)
        handler(x, y)
    }
    gtk_widget_add_controller(widget, click)
}
