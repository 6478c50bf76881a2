import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The Tags ▸ submenu: a check item per tag (checked when every document has it) and
/// "New Tag…", written through `TagStore` (`user.xdg.tags`, as KDE's Dolphin writes them).
/// Tags are local-only: for a remote item the submenu holds one disabled item that says so.
extension DocumentInteractionController {
    func makeTagsMenu(_ data: MenuData) -> OpaquePointer {
        guard let actions else { return g_menu_new() }
        if urls.contains(where: { !$0.isFileURL }) { return makeLocalOnlyTagsMenu(actions) }
        for index in 0..<tagActionCount { g_action_map_remove_action(cast(actions), "tag-\(index)") }
        tagActionCount = data.offeredTags.count
        let menu = g_menu_new()!
        let checks = g_menu_new()!
        for (index, tag) in data.offeredTags.enumerated() {
            let checked = !data.tags.isEmpty && data.tags.allSatisfy { $0.contains(tag) }
            let action = g_simple_action_new_stateful("tag-\(index)", nil, g_variant_new_boolean(checked ? 1 : 0))!
            connectSignal(raw(action), "change-state") { [weak self] value in
                guard let value else { return }
                let on = g_variant_get_boolean(OpaquePointer(value)) != 0
                g_simple_action_set_state(action, OpaquePointer(value))
                self?.setTag(tag, on: on)
            }
            g_action_map_add_action(cast(actions), action)
            g_object_unref(raw(action))
            g_menu_append(checks, tag, "doc.tag-\(index)")
        }
        g_menu_append_section(menu, nil, cast(checks))
        g_object_unref(raw(checks))
        let new = g_menu_new()!
        g_menu_append(new, tr("New Tag…"), "doc.new-tag")
        g_menu_append_section(menu, nil, cast(new))
        g_object_unref(raw(new))
        return menu
    }

    /// The Tags submenu of remote items: an explanation, disabled (`doc.tags-local-only` is
    /// never enabled), where the check items would be.
    private func makeLocalOnlyTagsMenu(_ actions: UnsafeMutablePointer<GSimpleActionGroup>) -> OpaquePointer {
        if g_action_map_lookup_action(cast(actions), "tags-local-only") == nil {
            let action = g_simple_action_new("tags-local-only", nil)!
            g_simple_action_set_enabled(action, 0)
            g_action_map_add_action(cast(actions), action)
            g_object_unref(raw(action))
        }
        let menu = g_menu_new()!
        g_menu_append(menu, Self.tagsLocalOnly, "doc.tags-local-only")
        return menu
    }

    /// Why a remote item has no tags, where the user looks for them.
    static var tagsLocalOnly: String { tr("Only files on this computer can have tags") }

    /// Adds `tag` to every document, or removes it from every one, off the main thread.
    public func setTag(_ tag: String, on: Bool) {
        let urls = urls.filter(\.isFileURL)
        Task { @MainActor in
            let failure = await Task.detached { () -> TagError? in
                let store = TagStore()
                do throws(TagError) {
                    for url in urls {
                        if on { try store.add([tag], to: url) } else { try store.remove([tag], from: url) }
                    }
                    return nil
                } catch {
                    return error
                }
            }.value
            finish(.tags, failure.map { .failure(.tags($0)) } ?? .success([]))
        }
    }

    /// Asks for a tag's name and adds it to the documents.
    func presentNewTagDialog() {
        let dialog = dossier_alert_new(tr("New Tag"), tr("Add a tag to %s.", name))!
        let entry = gtk_entry_new()!
        gtk_entry_set_activates_default(cast(entry), 1)
        gtk_entry_set_placeholder_text(cast(entry), tr("Tag name"))
        setAccessibleName(entry, tr("Tag name"))
        dossier_alert_set_extra_child(dialog, entry)
        dossier_alert_add_response(dialog, "cancel", tr("Cancel"))
        dossier_alert_add_response(dialog, "add", tr("Add"))
        dossier_alert_set_response_appearance(dialog, "add", ADW_RESPONSE_SUGGESTED)
        dossier_alert_set_default_response(dialog, "add")
        dossier_alert_set_close_response(dialog, "cancel")
        setAccessibleName(dialog, tr("New Tag"))
        keptAlive["new-tag"] = self
        connectSignal(raw(dialog), "response") { [weak self] response in
            guard let self else { return }
            self.keptAlive["new-tag"] = nil
            let answer = response.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
            let text = borrowString(gtk_editable_get_text(cast(entry))) ?? ""
            guard answer == "add", let tag = TagList.normalize([text]).first else { return }
            self.knownTags.append(tag)
            self.setTag(tag, on: true)
        }
        nameResponseButtons(of: dialog)
        dossier_alert_set_focus(dialog, entry)
        dossier_alert_present(dialog, hostWindow().map { cast($0) })
    }
}
