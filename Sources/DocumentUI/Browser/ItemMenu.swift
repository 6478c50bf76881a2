import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// The items' menu, on a right-click or a long-press: Open, Preview, Move to Trash, Copy Path.
/// (The document interaction controller's fuller menu takes this place.)
extension DocumentBrowser {
    func attachMenuGestures(to view: Widget) {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, guint(GDK_BUTTON_SECONDARY))
        connectPoint(raw(click), "pressed") { [weak self] x, y in self?.menuRequested(on: view, x: x, y: y) }
        gtk_widget_add_controller(view, click)
        let press = gtk_gesture_long_press_new()!
        gtk_gesture_single_set_touch_only(press, 1)
        connectPairSignal(raw(press), "pressed") { [weak self] x, y in
            MainActor.assumeIsolated { self?.menuRequested(on: view, x: x, y: y) }
        }
        gtk_widget_add_controller(view, press)
    }

    private func menuRequested(on view: Widget, x: Double, y: Double) {
        let item = view == grid.grid ? grid.item(at: x, y) : list.item(at: x, y)
        guard let item, let position = model.position(of: item.url) else {
            gtk_selection_model_unselect_all(selection)
            return
        }
        // As in Files: a click on an unselected item selects only it.
        if !selectedPositions.contains(position) { gtk_selection_model_select_item(selection, guint(position), 1) }
        presentOptionsMenu(for: selectedURLs, at: view, point: (x, y))
    }

    /// Opens the menu for `urls` on `widget`, pointing at `point` (the widget's middle if nil).
    public func presentOptionsMenu(for urls: [URL], at widget: Widget, point: (x: Double, y: Double)? = nil) {
        guard !urls.isEmpty else { return }
        let menu = g_menu_new()!
        let first = g_menu_new()!
        g_menu_append(first, tr("Open"), "item.open")
        g_menu_append(first, tr("Preview"), "item.preview")
        g_menu_append_section(menu, nil, cast(first))
        let second = g_menu_new()!
        if location != .trash { g_menu_append(second, tr("Move to Trash"), "item.trash") }
        if location == .trash { g_menu_append(second, tr("Restore"), "browser.restore") }
        g_menu_append(second, tr("Copy Path"), "item.copy-path")
        g_menu_append_section(menu, nil, cast(second))
        g_object_unref(raw(first))
        g_object_unref(raw(second))

        let popover = gtk_popover_menu_new_from_model(cast(menu))!
        g_object_unref(raw(menu))
        let group = BrowserActions()
        group.add("open") { [weak self] in self?.open(urls) }
        group.add("preview") { [weak self] in
            guard let self else { return }
            let positions = urls.compactMap { self.model.position(of: $0) }
            if positions.count == urls.count {
                self.preview.present(positions: positions, transientFor: self.parentWindow)
            } else {
                self.preview.present(urls: urls, transientFor: self.parentWindow)
            }
        }
        group.add("trash") { [weak self] in self?.moveToTrash(urls) }
        group.add("copy-path") { [weak self] in self?.copyPaths(urls) }
        gtk_widget_insert_action_group(popover, "item", cast(group.group))
        gtk_widget_set_parent(popover, widget)
        gtk_popover_set_has_arrow(cast(popover), 0)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        let x = point?.x ?? Double(gtk_widget_get_width(widget)) / 2
        let y = point?.y ?? Double(gtk_widget_get_height(widget)) / 2
        var rect = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(cast(popover), &rect)
        setAccessibleName(popover, tr("Item Menu"))
        connectSignal(raw(popover), "closed") { () -> Void in
            // Unparented after the click that closed it has run its action.
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    _ = group
                    if gtk_widget_get_parent(popover) != nil { gtk_widget_unparent(popover) }
                }
            }
        }
        gtk_popover_popup(cast(popover))
    }
}

/// Connects a gesture signal with (n_press, x, y), e.g. GtkGestureClick's `pressed`.
@MainActor
private func connectPoint(_ gesture: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor (Double, Double) -> Void) {
    final class Box {
        let handler: @MainActor (Double, Double) -> Void
        init(_ handler: @escaping @MainActor (Double, Double) -> Void) { self.handler = handler }
    }
    typealias Pressed = @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void
    let trampoline: Pressed = { _, _, x, y, data in
        MainActor.assumeIsolated { Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().handler(x, y) }
    }
    dossier_g_signal_connect_data(gesture, signal, unsafeBitCast(trampoline, to: GCallback.self),
                                  Unmanaged.passRetained(Box(handler)).toOpaque(),
                                  { data, _ in Unmanaged<Box>.fromOpaque(data!).release() }, GConnectFlags(0))
}
