import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The text's encoding under the text, as a menu button: its label names the encoding the
/// text was read in ("Unicode (UTF-8)"), and its menu re-opens the text in another one. The
/// choice is the stateful action `text.encoding` (radio items), on the renderer's view.
@MainActor
final class EncodingMenu {
    let button: WidgetPointer
    private let group: UnsafeMutablePointer<GSimpleActionGroup>
    private let action: OpaquePointer
    /// Called with the encoding the user picked (not when `show` sets one).
    var onChoose: ((TextEncoding) -> Void)?

    init() {
        let menu = g_menu_new()!
        let section = g_menu_new()!
        for encoding in TextEncoding.choices {
            // Menu labels take "_" for a mnemonic: "Shift_JIS" keeps its own.
            let item = g_menu_item_new(encoding.title.replacingOccurrences(of: "_", with: "__"), nil)!
            g_menu_item_set_action_and_target_value(item, "text.encoding", dossier_variant_string(encoding.name))
            g_menu_append_item(section, item)
            g_object_unref(raw(item))
        }
        g_menu_append_section(menu, tr("Reopen With Encoding"), cast(section))
        g_object_unref(raw(section))

        button = gtk_menu_button_new()
        gtk_menu_button_set_menu_model(cast(button), cast(menu))
        g_object_unref(raw(menu))
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_set_tooltip_text(button, tr("Reopen the text in another encoding"))

        let type = g_variant_type_new("s")
        action = g_simple_action_new_stateful("encoding", type, dossier_variant_string(TextEncoding.utf8.name))!
        g_variant_type_free(type)
        group = g_simple_action_group_new()
        g_action_map_add_action(cast(group), action)
        connectSignal(raw(action), "change-state") { [weak self] variant in
            guard let variant, let name = borrowString(g_variant_get_string(OpaquePointer(variant), nil)) else { return }
            guard let self else { return }
            let encoding = TextEncoding(name)
            self.show(encoding)
            self.onChoose?(encoding)
        }
        show(.utf8)
    }

    isolated deinit {
        g_object_unref(raw(action))
        g_object_unref(raw(group))
    }

    /// Puts the `text.` actions on `widget` (the renderer's view, which holds the button).
    func install(on widget: WidgetPointer) {
        gtk_widget_insert_action_group(widget, "text", cast(group))
    }

    /// Shows `encoding` as the one the text is read in: the label, its radio item, its name.
    func show(_ encoding: TextEncoding) {
        g_simple_action_set_state(action, dossier_variant_string(encoding.name))
        gtk_menu_button_set_label(cast(button), encoding.title)
        // Quiet for UTF-8, the encoding nearly every text has now; plain for the others.
        if encoding == .utf8 {
            gtk_widget_add_css_class(button, "dim-label")
        } else {
            gtk_widget_remove_css_class(button, "dim-label")
        }
        // TRANSLATORS: the accessible name of the button under a text; %s is the name of an
        // encoding, such as Unicode (UTF-8).
        let name = tr("Character encoding: %s", encoding.title)
        setAccessibleName(button, name)
        // The toggle inside is what takes the focus: a screen reader names it too.
        if let toggle = gtk_widget_get_first_child(button) { setAccessibleName(toggle, name) }
    }
}
