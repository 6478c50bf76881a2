import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// New items: "New Folder", "New Document ▸" (the files in `~/Templates`, copied into the
/// shown folder under a free name and then renamed inline) and "Import…" (a file chooser
/// that copies or moves files in). In the header's New menu and the empty area's menu.
extension DocumentBrowser {
    func installNewDocumentAction() {
        let type = g_variant_type_new("s")
        let action = g_simple_action_new("new-document", type)!
        g_variant_type_free(type)
        connectSignal(raw(action), "activate") { [weak self] variant in
            guard let variant, let path = borrowString(g_variant_get_string(OpaquePointer(variant), nil)) else { return }
            self?.createDocument(from: URL(fileURLWithPath: path))
        }
        g_action_map_add_action(cast(actionGroup.group), action)
        g_object_unref(raw(action))
    }

    /// The New menu: New Folder, New Document ▸, Import…
    func makeNewMenu() -> OpaquePointer {
        let menu = g_menu_new()!
        g_menu_append(menu, tr("New Folder"), "browser.new-folder")
        g_menu_append_submenu(menu, tr("New Document"), cast(templatesMenu))
        g_menu_append(menu, tr("Import…"), "browser.import")
        return menu
    }

    /// Reads `~/Templates` off the main thread and lists its files in the New Document menu.
    func refreshTemplates() {
        let directories = feed.directories
        let own = templates
        Task { @MainActor [weak self] in
            let templates = await Task.detached { () -> [URL] in
                if let own { return own.filter { FileManager.default.isReadableFile(atPath: $0.path) } }
                guard let folder = directories.templates,
                      let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
                return names.filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }.filter { url in
                    var isFolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
                }.sorted { $0.lastPathComponent.localizedStandardCompare($1.lastPathComponent) == .orderedAscending }
            }.value
            guard let self else { return }
            let menu = self.templatesMenu
            g_menu_remove_all(menu)
            if templates.isEmpty {
                // An item without an action is shown insensitive: it explains the empty menu.
                g_menu_append(menu, tr("No Templates"), "browser.no-templates")
            }
            for template in templates {
                let title = FileOperations.splitName(template.lastPathComponent, isFolder: false).base
                let item = g_menu_item_new(title, nil)!
                g_menu_item_set_action_and_target_value(item, "browser.new-document", dossier_variant_string(template.path))
                g_menu_append_item(menu, item)
                g_object_unref(raw(item))
            }
        }
    }

    /// Copies `template` into the shown folder under a free name, then renames it inline.
    func createDocument(from template: URL) {
        guard let folder = currentFolder else { return }
        runFileOperation(tr("Creating “%s”", template.lastPathComponent)) { operations, progress in
            operations.place([template], into: folder, move: false, progress: progress)
        } then: { [weak self] results in
            if let made = results.first?.resultingURL { self?.renameWhenShown(made) }
        }
    }

    // MARK: The empty area's menu

    /// A right-click beside the items: New Folder, New Document ▸, Import…, Paste, Select All.
    func presentBackgroundMenu(on view: WidgetPointer, x: Double, y: Double) {
        guard currentFolder != nil else { return }
        refreshTemplates()
        let menu = g_menu_new()!
        let new = makeNewMenu()
        g_menu_append_section(menu, nil, cast(new))
        g_object_unref(raw(new))
        let edit = g_menu_new()!
        g_menu_append(edit, tr("Paste"), "browser.paste")
        g_menu_append(edit, tr("Select All"), "browser.select-all")
        g_menu_append_section(menu, nil, cast(edit))
        g_object_unref(raw(edit))
        let popover = gtk_popover_menu_new_from_model(cast(menu))!
        g_object_unref(raw(menu))
        gtk_widget_set_parent(popover, view)
        gtk_popover_set_has_arrow(cast(popover), 0)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        var rectangle = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(cast(popover), &rectangle)
        setAccessibleName(popover, tr("Folder Menu"))
        connectSignal(raw(popover), "closed") { () -> Void in
            // Unparented after the item's action has run.
            DispatchQueue.main.async {
                if gtk_widget_get_parent(popover) != nil { gtk_widget_unparent(popover) }
            }
        }
        dossier_popover_menu_popup(cast(popover))
    }

    // MARK: Import

    /// "Import…": a file chooser (GtkFileChooserNative, the portal's where there is one) whose
    /// files are copied — or moved, the chooser's choice — into the shown folder.
    func presentImport() {
        guard let folder = currentFolder else { return }
        let chooser = gtk_file_chooser_native_new(tr("Import Files"), parentWindow, GTK_FILE_CHOOSER_ACTION_OPEN,
                                                  tr("_Import"), tr("_Cancel"))!
        gtk_file_chooser_set_select_multiple(chooser, 1)
        gtk_native_dialog_set_modal(cast(chooser), 1)
        withCStringArray(["copy", "move"]) { options in
            withCStringArray([tr("Copy into this folder"), tr("Move into this folder")]) { labels in
                gtk_file_chooser_add_choice(chooser, "mode", tr("Import by"), options, labels)
            }
        }
        gtk_file_chooser_set_choice(chooser, "mode", "copy")
        // The browser's own types first, when it is scoped to some (the chooser starts with them).
        if !contentTypes.isEmpty {
            let own = gtk_file_filter_new()!
            gtk_file_filter_set_name(own, contentTypes.map(\.localizedDescription).joined(separator: ", "))
            for type in contentTypes { gtk_file_filter_add_mime_type(own, type.identifier) }
            gtk_file_chooser_add_filter(chooser, own)
            g_object_unref(raw(own))
        }
        // Without a filter GTK's own dialog shows an empty "(None)" filter menu.
        let all = gtk_file_filter_new()!
        gtk_file_filter_set_name(all, tr("All Files"))
        gtk_file_filter_add_pattern(all, "*")
        gtk_file_chooser_add_filter(chooser, all)
        g_object_unref(raw(all))
        connectNumberSignal(raw(chooser), "response") { [weak self] response in
            defer { g_object_unref(raw(chooser)) }
            guard Int32(bitPattern: response) == GTK_RESPONSE_ACCEPT.rawValue, let self else { return }
            let move = borrowString(gtk_file_chooser_get_choice(chooser, "mode")) == "move"
            var urls: [URL] = []
            if let files = gtk_file_chooser_get_files(chooser) {
                for index in 0..<g_list_model_get_n_items(files) {
                    guard let file = g_list_model_get_item(files, index) else { continue }
                    if let uri = takeString(g_file_get_uri(OpaquePointer(file))), let url = URL(string: uri) { urls.append(url) }
                    g_object_unref(file)
                }
                g_object_unref(raw(files))
            }
            if !urls.isEmpty { self.place(urls, into: folder, move: move) }
        }
        gtk_native_dialog_show(cast(chooser))
    }
}
