import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// What the menus are built from, gathered off the main thread before a menu is shown.
struct MenuData: Sendable {
    /// Each document's type.
    var types: [DocumentType]
    /// The apps that open every document, in Open With order.
    var applications: [Application]
    /// The app Open uses, when it is the same for every document.
    var defaultApplication: Application?
    /// Each document's tags.
    var tags: [[String]]
    /// Tags to offer: the host's and the documents' own, sorted.
    var offeredTags: [String]
    /// Whether every document is a favorite already.
    var allFavorites: Bool
}

extension DocumentInteractionController {
    /// Finds the apps, tags and favorites for the menus, off the main thread.
    func loadMenuData() async -> MenuData {
        let types = await resolvedTypes()
        let registry = registry
        let urls = urls
        let known = knownTags
        let data = await Task.detached { () -> MenuData in
            let applications = registry.applications(forAll: types)
            let defaults = types.map { registry.defaultApplication(for: $0) }
            let first = defaults.first ?? nil
            let shared = defaults.allSatisfy { $0?.id == first?.id } ? first : nil
            let store = TagStore()
            let tags = urls.map { url in url.isFileURL ? (try? store.tags(of: url)) ?? [] : [] }
            let favorites = Set(((try? Favorites().items()) ?? []).map(\.uri))
            let offered = Set(known + tags.flatMap { $0 }).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            return MenuData(types: types, applications: applications, defaultApplication: shared, tags: tags,
                            offeredTags: offered, allFavorites: urls.allSatisfy { favorites.contains($0.absoluteString) })
        }.value
        menuData = data
        for app in data.applications { knownApplications[app.id] = app }
        if let app = data.defaultApplication { knownApplications[app.id] = app }
        return data
    }

    // MARK: The options menu

    /// Shows the options menu (Open, Open With ▸, Preview, Rename, Duplicate, Move to Trash,
    /// Copy, Copy Path, Tags ▸, Favorites, Show in Folder, Properties, the app's actions) from
    /// `widget`, pointing at `point` in its coordinates (a right-click's position) or at all of it.
    public func presentOptionsMenu(from widget: Widget, at point: (x: Double, y: Double)? = nil) {
        presentOptionsMenu(from: widget.gtkWidget, at: point)
    }

    func presentOptionsMenu(from widget: WidgetPointer, at point: (x: Double, y: Double)? = nil) {
        installActions(on: widget)
        keptAlive["menu-loading"] = self
        Task { @MainActor in
            let data = await loadMenuData()
            keptAlive["menu-loading"] = nil
            let model = makeOptionsMenu(data)
            presentMenu(model, kind: .options, from: widget, at: point)
            g_object_unref(raw(model))
        }
    }

    private func makeOptionsMenu(_ data: MenuData) -> OpaquePointer {
        let menu = g_menu_new()!
        func section(_ entries: [(DocumentAction, String)], extra: ((OpaquePointer) -> Void)? = nil) {
            let part = g_menu_new()!
            for (action, label) in entries where canPerform(action) {
                g_menu_append(part, label, "doc." + action.actionName)
            }
            extra?(part)
            if g_menu_model_get_n_items(cast(part)) > 0 { g_menu_append_section(menu, nil, cast(part)) }
            g_object_unref(raw(part))
        }
        section([(.open, tr("Open"))]) { part in
            guard self.canPerform(.openWith) else { return }
            let openWith = self.makeOpenWithMenu(data)
            g_menu_append_submenu(part, tr("Open With"), cast(openWith))
            g_object_unref(raw(openWith))
        }
        section([(.preview, tr("Preview"))])
        section([(.rename, tr("Rename…")), (.duplicate, tr("Duplicate")), (.moveToTrash, tr("Move to Trash"))])
        section([(.copy, tr("Copy")), (.copyPath, tr("Copy Path"))])
        section([]) { part in
            if self.canPerform(.tags) {
                let tags = self.makeTagsMenu(data)
                g_menu_append_submenu(part, tr("Tags"), cast(tags))
                g_object_unref(raw(tags))
            }
            if self.canPerform(.addToFavorites) {
                g_menu_append(part, data.allFavorites ? tr("Remove from Favorites") : tr("Add to Favorites"), "doc.favorite")
            }
        }
        section([(.showInFolder, tr("Show in Folder")), (.properties, tr("Properties"))])
        section([(.print, tr("Print…"))]) { part in
            for action in self.customActions where action.availability.contains(.menu) && action.applies(to: data.types)
                && self.canPerform(.custom(action.identifier)) {
                let item = g_menu_item_new(action.title, nil)
                g_menu_item_set_action_and_target_value(item, "doc.custom", dossier_variant_string(action.identifier))
                g_menu_append_item(part, item)
                g_object_unref(raw(item!))
            }
        }
        return menu
    }

    // MARK: Popovers

    /// Shows `model` in a popover menu on `widget`.
    func presentMenu(_ model: OpaquePointer, kind: DocumentMenu, from widget: WidgetPointer,
                     at point: (x: Double, y: Double)?) {
        dismissMenus()
        installActions(on: widget)
        delegate?.documentInteractionController(self, willPresent: kind)
        let popover = gtk_popover_menu_new_from_model(cast(model))!
        // A GtkStack takes every child for one of its pages (and crashes on a popover): hang
        // the menu on the nearest ancestor that is not one, at the same place.
        var anchor = widget
        var place = point
        while g_type_check_instance_is_a(UnsafeMutableRawPointer(anchor).assumingMemoryBound(to: GTypeInstance.self),
                                         gtk_stack_get_type()) != 0, let parent = gtk_widget_get_parent(anchor) {
            var x = 0.0, y = 0.0
            _ = dossier_widget_translate(anchor, parent, place?.x ?? 0, place?.y ?? 0, &x, &y)
            if place != nil { place = (x, y) }
            anchor = parent
        }
        gtk_widget_set_parent(popover, anchor)
        if let point = place {
            var rectangle = GdkRectangle(x: Int32(point.x), y: Int32(point.y), width: 1, height: 1)
            gtk_popover_set_pointing_to(cast(popover), &rectangle)
            gtk_popover_set_has_arrow(cast(popover), 0)
            gtk_widget_set_halign(popover, GTK_ALIGN_START)
        }
        setAccessibleName(popover, kind == .options ? tr("Options for %s", name) : tr("Open %s With", name))
        menus.append((popover, kind))
        keptAlive["menu"] = self
        g_object_ref(raw(popover))  // until it is unparented below
        connectSignal(raw(popover), "closed") { [weak self] () -> Void in
            self?.menuClosed(popover, kind: kind)
            // The item's action runs after the popover closed: unparent it only afterwards.
            Task { @MainActor in
                if gtk_widget_get_parent(popover) != nil { gtk_widget_unparent(popover) }
                g_object_unref(raw(popover))
            }
        }
        // Not gtk_popover_popup: it would size the menu before GTK adds the section separators.
        dossier_popover_menu_popup(cast(popover))
    }

    private func menuClosed(_ popover: WidgetPointer, kind: DocumentMenu) {
        menus.removeAll { $0.popover == popover }
        delegate?.documentInteractionController(self, didDismiss: kind)
        if menus.isEmpty {
            // Keep self for the item's action, which runs right after the menu closed.
            Task { @MainActor in if self.menus.isEmpty { self.keptAlive["menu"] = nil } }
        }
    }

    /// Closes the menus the controller shows.
    public func dismissMenus() {
        for menu in menus { gtk_popover_popdown(cast(menu.popover)) }
    }

    /// Whether a menu of the controller is shown (for hosts and tests).
    public var isPresentingMenu: Bool { !menus.isEmpty }
}
