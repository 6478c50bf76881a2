import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// An action that the program which asked for the preview performs on the item shown, in its
/// own window: Nautilus 51 renames or trashes its selected file, or opens its selected folder,
/// when its previewer asks it to. The previewer offers such actions in its menu and by their
/// keys, closes, and hands the item to `perform`.
public struct PreviewHostAction: Sendable {
    /// The action's name in the window's `host.` group ("rename").
    public let name: String
    /// The menu item's label ("Rename…").
    public let label: String
    /// The key that runs it in the previewer (a GDK key value, GDK_KEY_F2), or 0.
    public let key: UInt32
    /// Offered only while the item shown is a folder.
    public let foldersOnly: Bool
    /// Runs once the previewer has closed, with the item it showed.
    public let perform: @MainActor @Sendable (PreviewItem) -> Void

    /// Makes a host action; `perform` runs once the previewer has closed.
    public init(name: String, label: String, key: UInt32 = 0, foldersOnly: Bool = false,
                perform: @escaping @MainActor @Sendable (PreviewItem) -> Void) {
        self.name = name
        self.label = label
        self.key = key
        self.foldersOnly = foldersOnly
        self.perform = perform
    }
}

/// The previewer window's `host.` actions and their menu section.
@MainActor
final class PreviewHostActions {
    let group: UnsafeMutablePointer<GSimpleActionGroup>
    let menu: OpaquePointer
    private(set) var actions: [PreviewHostAction] = []
    /// Counts updates: a folder check that comes back after the item changed is dropped.
    private var generation = 0

    init() {
        group = g_simple_action_group_new()
        menu = g_menu_new()
    }

    isolated deinit {
        g_object_unref(raw(group))
        g_object_unref(raw(menu))
    }

    /// Replaces the actions; `run` is called with the one the user chose.
    func set(_ actions: [PreviewHostAction], run: @escaping @MainActor (PreviewHostAction) -> Void) {
        for action in self.actions { g_action_map_remove_action(cast(group), action.name) }
        g_menu_remove_all(menu)
        self.actions = actions
        for action in actions {
            let simple = g_simple_action_new(action.name, nil)!
            connectSignal(raw(simple), "activate") { (_: UnsafeMutableRawPointer?) in run(action) }
            g_action_map_add_action(cast(group), simple)
            g_object_unref(raw(simple))
            let item = g_menu_item_new(action.label, "host." + action.name)
            // Not offered at all (rather than greyed out) for an item it does not apply to.
            g_menu_item_set_attribute_value(item, "hidden-when", g_variant_new_string("action-disabled"))
            g_menu_append_item(menu, item)
            g_object_unref(raw(item!))
        }
    }

    /// Enables each action for the item shown: at once those for any item, and folder-only
    /// ones once the item is known to be a folder (looked at off the main thread).
    func update(for item: PreviewItem?) {
        guard !actions.isEmpty else { return }
        generation += 1
        setEnabled(anyItem: item != nil, folder: false)
        guard let item else { return }
        let current = generation
        let url = item.url
        Task.detached {
            let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
            guard isFolder else { return }
            await MainActor.run { [weak self] in
                guard let self, self.generation == current else { return }
                self.setEnabled(anyItem: true, folder: true)
            }
        }
    }

    private func setEnabled(anyItem: Bool, folder: Bool) {
        for action in actions {
            guard let simple = g_action_map_lookup_action(cast(group), action.name) else { continue }
            g_simple_action_set_enabled(simple, (anyItem && (!action.foldersOnly || folder)) ? 1 : 0)
        }
    }

    /// The enabled action whose key is `key`, if any.
    func action(forKey key: UInt32) -> PreviewHostAction? {
        actions.first { action in
            guard action.key != 0, action.key == key,
                  let simple = g_action_map_lookup_action(cast(group), action.name) else { return false }
            return g_action_get_enabled(simple) != 0
        }
    }
}
