import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The `sidebar.` actions of the rows' context menu.
@MainActor
final class SidebarMenuActions {
    let group: UnsafeMutablePointer<GSimpleActionGroup>

    init(on widget: WidgetPointer) {
        group = g_simple_action_group_new()
        gtk_widget_insert_action_group(widget, "sidebar", cast(group))
    }

    func add(_ name: String, _ handler: @escaping () -> Void) {
        let action = g_simple_action_new(name, nil)!
        connectSignal(raw(action), "activate") { (_: UnsafeMutableRawPointer?) in handler() }
        g_action_map_add_action(cast(group), action)
        g_object_unref(raw(action))
    }

    func setEnabled(_ name: String, _ enabled: Bool) {
        guard let action = g_action_map_lookup_action(cast(group), name) else { return }
        g_simple_action_set_enabled(action, enabled ? 1 : 0)
    }
}

extension BrowserSidebar {
    /// Right-click or long-press on a row opens its menu: Open in New Window; Rename and
    /// Remove for a favorite; Add to Favorites for another folder; Eject for a volume.
    func installMenu() {
        menuActions.add("open-in-new-window") { [weak self] in
            guard let self, let item = self.menuItem else { return }
            self.openInNewWindow?(item.location)
        }
        menuActions.add("rename") { [weak self] in
            guard let self, let favorite = self.menuItem?.favorite else { return }
            self.askNewLabel(for: favorite)
        }
        menuActions.add("remove-favorite") { [weak self] in
            guard let self, let favorite = self.menuItem?.favorite else { return }
            self.changeFavorites { try $0.remove(favorite.uri) }
        }
        menuActions.add("add-favorite") { [weak self] in
            guard let self, case .folder(let url)? = self.menuItem?.location else { return }
            let location = url.isFileURL ? url.path : url.absoluteString
            self.changeFavorites { try $0.add(location) }
        }
        menuActions.add("eject") { [weak self] in
            guard let self, let item = self.menuItem else { return }
            self.remove(item)
        }
        menuActions.setEnabled("open-in-new-window", false)

        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, guint(GDK_BUTTON_SECONDARY))
        connectClickSignal(raw(click), "pressed") { [weak self] _, x, y in self?.showMenu(atListX: x, y: y) }
        gtk_widget_add_controller(listBox, click)
        let press = gtk_gesture_long_press_new()!
        gtk_gesture_single_set_touch_only(press, 1)
        connectPairSignal(raw(press), "pressed") { [weak self] x, y in self?.showMenu(atListX: x, y: y) }
        gtk_widget_add_controller(listBox, press)
    }

    private func showMenu(atListX x: Double, y: Double) {
        guard let row = gtk_list_box_get_row_at_y(cast(listBox), Int32(y)), let item = item(for: raw(row)),
              !item.connectsToServer else { return }
        menuItem = item
        let menu = Menu()
        if openInNewWindow != nil { menu.append(tr("Open in New Window"), action: "sidebar.open-in-new-window") }
        let section = Menu()
        if item.favorite != nil {
            section.append(tr("Rename…"), action: "sidebar.rename")
            section.append(tr("Remove from Favorites"), action: "sidebar.remove-favorite")
        } else if case .folder = item.location, !sources.favoriteItems.contains(where: { SidebarItem.favorite($0).location == item.location }) {
            section.append(tr("Add to Favorites"), action: "sidebar.add-favorite")
        }
        if let mount = item.mount, let removal = SidebarVolumes.removal(of: mount) {
            section.append(removal == .eject ? tr("Eject") : tr("Unmount"), action: "sidebar.eject")
        }
        menu.append(section: section)
        let popover: WidgetPointer
        if let existing = self.popover {
            popover = existing
            gtk_popover_menu_set_menu_model(cast(popover), menu.gMenuModel)
        } else {
            popover = gtk_popover_menu_new_from_model(menu.gMenuModel)
            gtk_popover_set_has_arrow(cast(popover), 0)
            gtk_widget_set_halign(popover, GTK_ALIGN_START)
            gtk_widget_set_parent(popover, rootWidget)
            self.popover = popover
        }
        var targetX = 0.0, targetY = 0.0
        _ = dossier_widget_translate(listBox, rootWidget, x, y, &targetX, &targetY)
        var rect = GdkRectangle(x: Int32(targetX), y: Int32(targetY), width: 1, height: 1)
        gtk_popover_set_pointing_to(cast(popover), &rect)
        dossier_popover_menu_popup(cast(popover))
    }

    /// Changes the favorites off the main thread; a failure becomes a message.
    func changeFavorites(_ change: @escaping @Sendable (Favorites) throws -> Void) {
        let favorites = sources.favorites
        Task { @MainActor [weak self] in
            let failure = await Task.detached { () -> String? in
                do {
                    try change(favorites)
                    return nil
                } catch {
                    return "\(error)"
                }
            }.value
            if let failure { self?.errorHandler?(failure) }
        }
    }

    /// Asks for a favorite's new label in a dialog with an entry.
    private func askNewLabel(for favorite: Favorite) {
        let dialog = dossier_alert_new(tr("Rename Favorite"), nil)!
        let entry = gtk_entry_new()!
        gtk_editable_set_text(cast(entry), favorite.displayName)
        gtk_entry_set_activates_default(cast(entry), 1)
        setAccessibleName(entry, tr("Name"))
        dossier_alert_set_extra_child(dialog, entry)
        dossier_alert_add_response(dialog, "cancel", tr("Cancel"))
        dossier_alert_add_response(dialog, "rename", tr("Rename"))
        dossier_alert_set_response_appearance(dialog, "rename", ADW_RESPONSE_SUGGESTED)
        dossier_alert_set_default_response(dialog, "rename")
        dossier_alert_set_close_response(dialog, "cancel")
        connectResponse(raw(dialog)) { [weak self] response in
            guard response == "rename", let self else { return }
            let label = borrowString(gtk_editable_get_text(cast(entry)))?.trimmingCharacters(in: .whitespaces)
            self.changeFavorites { try $0.rename(favorite.uri, to: label) }
        }
        nameResponseButtons(of: dialog)
        dossier_alert_present(dialog, rootWidget)
    }
}
