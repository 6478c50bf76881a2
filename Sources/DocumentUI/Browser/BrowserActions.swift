import CGtk
import GObjectSupport
import GtkSupport

/// The browser's action group, inserted on its widget as "browser.": the window only adds
/// accelerators (`browser.preview`, `browser.back`…), menus and buttons name the actions.
@MainActor
final class BrowserActions {
    let group: UnsafeMutablePointer<GSimpleActionGroup>

    init() { group = g_simple_action_group_new() }

    isolated deinit { g_object_unref(raw(group)) }

    /// Adds `browser.NAME`, activated without a parameter.
    func add(_ name: String, _ handler: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)!
        connectSignal(raw(action), "activate") { (_: UnsafeMutableRawPointer?) in handler() }
        g_action_map_add_action(cast(group), action)
        g_object_unref(raw(action))
    }

    /// Adds a boolean `browser.NAME` (a check item in a menu); `changed` gets each new value.
    func addToggle(_ name: String, _ value: Bool, _ changed: @escaping @MainActor (Bool) -> Void) {
        let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(value ? 1 : 0))!
        connectSignal(raw(action), "change-state") { variant in
            guard let variant else { return }
            let value = g_variant_get_boolean(OpaquePointer(variant)) != 0
            changed(value)
        }
        g_action_map_add_action(cast(group), action)
        g_object_unref(raw(action))
    }

    /// Adds a string-valued `browser.NAME` (radio items in a menu, targets "grid", "name"…).
    func addChoice(_ name: String, _ value: String, _ changed: @escaping @MainActor (String) -> Void) {
        let type = g_variant_type_new("s")
        let action = g_simple_action_new_stateful(name, type, dossier_variant_string(value))!
        g_variant_type_free(type)
        connectSignal(raw(action), "change-state") { variant in
            guard let variant, let text = borrowString(g_variant_get_string(OpaquePointer(variant), nil)) else { return }
            changed(text)
        }
        g_action_map_add_action(cast(group), action)
        g_object_unref(raw(action))
    }

    /// Shows a new value in a toggle's or choice's state (menus follow).
    func setState(_ name: String, _ value: Bool) {
        guard let action = g_action_map_lookup_action(cast(group), name) else { return }
        g_simple_action_set_state(action, g_variant_new_boolean(value ? 1 : 0))
    }

    func setState(_ name: String, _ value: String) {
        guard let action = g_action_map_lookup_action(cast(group), name) else { return }
        g_simple_action_set_state(action, dossier_variant_string(value))
    }

    func setEnabled(_ name: String, _ enabled: Bool) {
        guard let action = g_action_map_lookup_action(cast(group), name) else { return }
        g_simple_action_set_enabled(action, enabled ? 1 : 0)
    }

    /// Activates `browser.NAME` as a menu or shortcut would.
    func activate(_ name: String) {
        g_action_group_activate_action(cast(group), name, nil)
    }
}
