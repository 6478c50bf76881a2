import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Open With as GNOME Files offers it: the default app first, then the recommended apps,
/// then apps for a supertype (ApplicationRegistry's order), a separator, and "Other
/// Application…" for the chooser. For several documents, the apps that open all of them.
extension DocumentInteractionController {
    /// The apps offered for the documents, in Open With order, and the default one (when the
    /// same for every document). Reads desktop entries off the main thread.
    public func openWithApplications() async -> (applications: [Application], defaultApplication: Application?) {
        let data = await loadMenuData()
        return (data.applications, data.defaultApplication)
    }

    /// Shows the Open With menu on `widget`.
    public func presentOpenWithMenu(from widget: Widget) {
        presentOpenWithMenu(from: widget.gtkWidget)
    }

    func presentOpenWithMenu(from widget: WidgetPointer) {
        installActions(on: widget)
        keptAlive["menu-loading"] = self
        Task { @MainActor in
            let data = await loadMenuData()
            keptAlive["menu-loading"] = nil
            let model = makeOpenWithMenu(data)
            presentMenu(model, kind: .openWith, from: widget, at: nil)
            g_object_unref(raw(model))
        }
    }

    /// The Open With menu model over the `doc.` actions, once the apps are known: for a
    /// button's own menu (the previewer's Open With split button). The caller owns the model.
    func loadOpenWithMenu(_ completion: @escaping @MainActor (OpaquePointer, Application?) -> Void) {
        Task { @MainActor in
            let data = await loadMenuData()
            let model = makeOpenWithMenu(data)
            completion(model, data.defaultApplication)
        }
    }

    /// Shows the app chooser ("Other Application…"): the chosen app opens the documents and,
    /// with "Always use for this file type" on, becomes the type's default (mimeapps.list).
    public func presentApplicationChooser() {
        keptAlive["chooser"] = self
        Task { @MainActor in
            let data = await loadMenuData()
            let registry = registry
            let all = await Task.detached { registry.allApplications() }.value
            var seen = Set<DocumentType>()
            let types = data.types.filter { seen.insert($0).inserted }
            let chooser = ApplicationChooser(
                parent: properties.map { window($0.window) } ?? hostWindow(), documentName: name, typeDescription: types.count == 1 ? types[0].localizedDescription : nil,
                related: data.applications, all: all, selected: data.defaultApplication?.id)
            chooser.onChoose = { [weak self] application, always in
                self?.choose(application, makingDefaultFor: always && types.count == 1 ? types.first : nil)
            }
            chooser.onClose = { [weak self] in
                self?.chooser = nil
                self?.keptAlive["chooser"] = nil
            }
            self.chooser?.onClose = nil
            self.chooser = chooser
            chooser.present()
        }
    }

    /// Opens the documents with `application`, after making it the default for `type`.
    private func choose(_ application: Application, makingDefaultFor type: DocumentType?) {
        let registry = registry
        let key = "choose-\(UUID().uuidString)"
        keptAlive[key] = self
        Task { @MainActor in
            defer { keptAlive[key] = nil }
            if let type {
                let failure = await Task.detached { () -> ApplicationError? in
                    do throws(ApplicationError) {
                        try registry.setDefault(application, for: type)
                        return nil
                    } catch {
                        return error
                    }
                }.value
                if let failure {
                    finish(.openWith, .failure(.application(failure)))
                } else {
                    defaultApplicationDidChange?()
                }
            }
            await open(with: application).value
        }
    }

    func makeOpenWithMenu(_ data: MenuData) -> OpaquePointer {
        let menu = g_menu_new()!
        let apps = g_menu_new()!
        for app in data.applications {
            let item = g_menu_item_new(app.name, nil)!
            g_menu_item_set_action_and_target_value(item, "doc.open-with", dossier_variant_string(app.id))
            let icon = themedIcon(app.iconNames)
            g_menu_item_set_icon(item, icon)
            g_object_unref(raw(icon))
            g_menu_append_item(apps, item)
            g_object_unref(raw(item))
        }
        if data.applications.isEmpty {
            let none = g_menu_item_new(tr("No Applications Installed"), "doc.no-application")!
            g_menu_append_item(apps, none)
            g_object_unref(raw(none))
        }
        g_menu_append_section(menu, nil, cast(apps))
        g_object_unref(raw(apps))
        let other = g_menu_new()!
        g_menu_append(other, tr("Other Application…"), "doc.other-application")
        g_menu_append_section(menu, nil, cast(other))
        g_object_unref(raw(other))
        return menu
    }
}

/// A themed icon over `names` (the first the theme has wins); the caller owns it.
func themedIcon(_ names: [String]) -> OpaquePointer {
    var copies = names.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return copies.withUnsafeMutableBufferPointer { buffer in
        g_themed_icon_new_from_names(buffer.baseAddress, Int32(buffer.count))!
    }
}
