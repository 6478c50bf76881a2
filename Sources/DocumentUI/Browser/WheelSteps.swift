import CGtk
import Foundation
import GObjectSupport
import GtkSupport

/// Mouse-wheel clicks over a GtkGridView or GtkColumnView, applied to its scrolled window once
/// a frame, all of the frame's clicks as one move, by GTK's own step a click (the page's
/// height to the power ⅔).
///
/// GTK 4.8 moves the view at every click, and each move re-anchors the view: it binds the cells
/// of the new place at once, but sizes them only at the next layout. A second click in the same
/// frame then maps its position over rows counted at no height, lands that much further down,
/// and the next layout scrolls there: a burst of clicks faster than the frames (a wheel spun,
/// or a slow frame while thumbnails arrive) flung the grid to the end of a big folder. One move
/// a frame keeps every click's step. Discrete clicks only (a mouse wheel on X11); smooth
/// scrolling (touchpads) and its kinetic deceleration stay GTK's.
@MainActor
final class WheelSteps {
    private let scrolled: WidgetPointer
    /// Clicks not applied yet: down positive.
    private var pending = 0
    private var frameAsked = false

    /// Takes the wheel clicks over `scrolled` (a GtkScrolledWindow) before it does.
    init(scrolled: WidgetPointer) {
        self.scrolled = scrolled
        let controller = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        connectPointerSignal(raw(controller), "event") { [weak self] event in
            guard let event else { return false }
            return self?.handle(OpaquePointer(event)) ?? false
        }
        gtk_widget_add_controller(scrolled, controller)
    }

    /// True when `event` is a plain wheel click up or down, now counted for the next frame.
    private func handle(_ event: OpaquePointer) -> Bool {
        guard gdk_event_get_event_type(event) == GDK_SCROLL else { return false }
        let modifiers = GDK_SHIFT_MASK.rawValue | GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue
        guard gdk_event_get_modifier_state(event).rawValue & modifiers == 0 else { return false }
        switch gdk_scroll_event_get_direction(event) {
        case GDK_SCROLL_DOWN: pending += 1
        case GDK_SCROLL_UP: pending -= 1
        default: return false
        }
        if !frameAsked {
            frameAsked = true
            onNextFrame(of: scrolled) { [weak self] in self?.apply() }
        }
        return true
    }

    /// Moves the view by the frame's clicks, before the frame is laid out.
    private func apply() {
        frameAsked = false
        let clicks = pending
        pending = 0
        guard clicks != 0, let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled)) else { return }
        let step = pow(gtk_adjustment_get_page_size(adjustment), 2.0 / 3.0)
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + Double(clicks) * step)
    }
}
