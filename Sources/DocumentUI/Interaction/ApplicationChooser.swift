import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// "Other Application…": a dialog to pick any installed app, the apps for the type first,
/// with a search field over names, and a switch "Always use for this file type" (shown when
/// the documents share one type) — GNOME Files' app chooser.
@MainActor
final class ApplicationChooser {
    let window: WidgetPointer
    private let list: WidgetPointer
    private let search: WidgetPointer
    private let openButton: WidgetPointer
    private let alwaysSwitch: WidgetPointer?
    private var rows: [(row: WidgetPointer, application: Application, searchText: String)] = []

    /// Called with the chosen app and whether it should become the type's default.
    var onChoose: ((Application, Bool) -> Void)?
    /// Called when the dialog is gone, chosen or not.
    var onClose: (() -> Void)?

    /// - Parameters:
    ///   - related: the apps for the documents' type, in Open With order (shown first).
    ///   - all: every installed app shown in menus.
    ///   - typeDescription: the one type of the documents ("PNG image"), or nil for several.
    init(parent: UnsafeMutablePointer<GtkWindow>?, documentName: String, typeDescription: String?,
         related: [Application], all: [Application], selected: String?) {
        window = widget(adw_window_new())
        gtk_window_set_title(cast(window), tr("Open With"))
        gtk_window_set_default_size(cast(window), 440, 560)
        gtk_window_set_modal(cast(window), 1)
        if let parent { gtk_window_set_transient_for(cast(window), parent) }
        setAccessibleName(window, tr("Open With"))

        let header = adw_header_bar_new()!
        adw_header_bar_set_show_end_title_buttons(OpaquePointer(header), 0)
        adw_header_bar_set_show_start_title_buttons(OpaquePointer(header), 0)
        adw_header_bar_set_title_widget(OpaquePointer(header), adw_window_title_new(tr("Open With"), documentName))
        let cancel = gtk_button_new_with_label(tr("Cancel"))!
        adw_header_bar_pack_start(OpaquePointer(header), cancel)
        openButton = gtk_button_new_with_label(tr("Open"))!
        gtk_widget_add_css_class(openButton, "suggested-action")
        adw_header_bar_pack_end(OpaquePointer(header), openButton)

        search = gtk_search_entry_new()!
        gtk_search_entry_set_key_capture_widget(cast(search), window)
        dossier_set_string(raw(search), "placeholder-text", tr("Search Applications"))
        setAccessibleName(search, tr("Search Applications"))

        list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_SINGLE)
        gtk_widget_add_css_class(list, "boxed-list")
        gtk_widget_set_valign(list, GTK_ALIGN_START)
        setAccessibleName(list, tr("Applications"))
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(scrolled), list)
        gtk_widget_set_vexpand(scrolled, 1)

        var parts = [search, scrolled]
        if let typeDescription {
            let row = adw_action_row_new()!
            adw_preferences_row_set_title(cast(row), tr("Always use for this file type"))
            adw_action_row_set_subtitle(cast(row), typeDescription)
            let toggle = gtk_switch_new()!
            gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
            // Named by the row it activates (a labelled-by relation), like the buttons by their labels.
            adw_action_row_add_suffix(cast(row), toggle)
            adw_action_row_set_activatable_widget(cast(row), toggle)
            let group = gtk_list_box_new()!
            gtk_list_box_set_selection_mode(cast(group), GTK_SELECTION_NONE)
            gtk_widget_add_css_class(group, "boxed-list")
            gtk_list_box_append(cast(group), row)
            parts.append(group)
            alwaysSwitch = toggle
        } else {
            alwaysSwitch = nil
        }
        let body = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, parts)
        for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
                       gtk_widget_set_margin_end] { margin(body, 12) }
        adw_window_set_content(cast(window), makeBox(GTK_ORIENTATION_VERTICAL, [header, body]))

        let relatedIDs = Set(related.map(\.id))
        for app in related + all.filter({ !relatedIDs.contains($0.id) }) {
            addRow(for: app)
        }
        if let row = rows.first(where: { $0.application.id == selected })?.row ?? rows.first?.row {
            gtk_list_box_select_row(cast(list), cast(row))
        }
        gtk_widget_set_sensitive(openButton, rows.isEmpty ? 0 : 1)

        connectSignal(raw(cancel), "clicked") { [weak self] () -> Void in self?.close() }
        connectSignal(raw(openButton), "clicked") { [weak self] () -> Void in self?.choose() }
        connectSignal(raw(list), "row-selected") { [weak self] row in
            guard let self else { return }
            gtk_widget_set_sensitive(self.openButton, row == nil ? 0 : 1)
        }
        connectSignal(raw(list), "row-activated") { [weak self] _ in self?.choose() }
        connectSignal(raw(search), "search-changed") { [weak self] () -> Void in self?.filter() }
        connectSignal(raw(search), "activate") { [weak self] () -> Void in self?.choose() }
        connectSignal(raw(window), "close-request", returning: { [weak self] in
            self?.onClose?()
            self?.onClose = nil
            return false
        })
    }

    func present() {
        gtk_window_present(cast(window))
        gtk_widget_grab_focus(search)
    }

    private func addRow(for app: Application) {
        let icon = themedIcon(app.iconNames)
        let image = gtk_image_new_from_gicon(icon)!
        g_object_unref(raw(icon))
        gtk_image_set_pixel_size(cast(image), 32)
        let label = makeLabel(app.name)
        gtk_label_set_xalign(cast(label), 0)
        gtk_widget_set_hexpand(label, 1)
        let content = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [image, label])
        for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
                       gtk_widget_set_margin_end] { margin(content, 8) }
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(cast(row), content)
        setAccessibleName(row, app.name)
        gtk_list_box_append(cast(list), row)
        rows.append((row, app, (app.name + " " + app.id).lowercased()))
    }

    /// Shows the rows whose name or ID holds every word typed; keeps a visible row selected.
    private func filter() {
        let words = (borrowString(gtk_editable_get_text(cast(search))) ?? "").lowercased().split(separator: " ")
        for entry in rows {
            gtk_widget_set_visible(entry.row, words.allSatisfy { entry.searchText.contains($0) } ? 1 : 0)
        }
        let selected = gtk_list_box_get_selected_row(cast(list)).map { widget($0) }
        if selected.map({ gtk_widget_get_visible($0) == 0 }) ?? true {
            if let first = rows.first(where: { gtk_widget_get_visible($0.row) != 0 }) {
                gtk_list_box_select_row(cast(list), cast(first.row))
            } else {
                gtk_list_box_unselect_all(cast(list))
            }
        }
    }

    private func choose() {
        guard let selected = gtk_list_box_get_selected_row(cast(list)).map({ widget($0) }),
              let entry = rows.first(where: { $0.row == selected }), gtk_widget_get_visible(selected) != 0
        else { return }
        let always = alwaysSwitch.map { gtk_switch_get_active(cast($0)) != 0 } ?? false
        onChoose?(entry.application, always)
        onChoose = nil
        close()
    }

    private func close() {
        onClose?()
        onClose = nil
        gtk_window_destroy(cast(window))
    }
}
