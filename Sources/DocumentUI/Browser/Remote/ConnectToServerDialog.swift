import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// "Connect to Server": an address entry (with the protocols it takes), the recent servers
/// (Enter or a click connects, a button forgets one), Connect and Cancel; a failure shows in
/// the dialog, which stays for another try. A modal window over the browser's, usable with
/// the keyboard alone: the entry has the focus, Enter connects, Escape cancels.
@MainActor
final class ConnectToServerDialog {
    /// Called with the mounted location once connected (the dialog has closed).
    var connected: ((URL) -> Void)?

    let window: WidgetPointer
    private let entry: WidgetPointer
    private let connectButton: WidgetPointer
    private let errorLabel: WidgetPointer
    private let spinner: WidgetPointer
    private let recentsHeading: WidgetPointer
    private let recentsList: WidgetPointer
    private var recents: [(row: WidgetPointer, address: ServerAddress)] = []
    private var task: Task<Void, Never>?
    /// Dialogs shown, kept until their window is destroyed.
    private static var shown: [ConnectToServerDialog] = []

    init(parent: WidgetPointer) {
        window = widget(OpaquePointer(adw_window_new()))
        gtk_window_set_title(cast(window), tr("Connect to Server"))
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_default_size(cast(window), 460, -1)
        if let root = gtk_widget_get_root(parent) { gtk_window_set_transient_for(cast(window), cast(root)) }

        entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(cast(entry), tr("sftp://user@example.com/folder"))
        gtk_entry_set_activates_default(cast(entry), 1)
        setAccessibleName(entry, tr("Server Address"))
        gtk_widget_set_hexpand(entry, 1)
        let hint = makeLabel(tr("Protocols: %s", ServerAddress.schemesHint), classes: ["dim-label", "caption"], wrap: true)
        gtk_label_set_xalign(opaque(hint), 0)
        gtk_label_set_justify(opaque(hint), GTK_JUSTIFY_LEFT)
        dossier_gtk_accessible_set_description(entry, tr("Protocols: %s", ServerAddress.schemesHint))
        errorLabel = makeLabel("", classes: ["error"], wrap: true)
        gtk_label_set_xalign(opaque(errorLabel), 0)
        gtk_label_set_justify(opaque(errorLabel), GTK_JUSTIFY_LEFT)
        gtk_widget_set_visible(errorLabel, 0)

        recentsHeading = makeLabel(tr("Recent Servers"), classes: ["heading"])
        gtk_label_set_xalign(opaque(recentsHeading), 0)
        recentsList = gtk_list_box_new()!
        gtk_widget_add_css_class(recentsList, "boxed-list")
        gtk_list_box_set_selection_mode(cast(recentsList), GTK_SELECTION_NONE)
        setAccessibleName(recentsList, tr("Recent Servers"))
        for part in [recentsHeading, recentsList] { gtk_widget_set_visible(part, 0) }

        let body = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 6, [entry, hint, errorLabel, recentsHeading, recentsList])
        gtk_widget_set_margin_top(recentsHeading, 12)
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(body, 18)
        }

        let cancel = gtk_button_new_with_mnemonic(tr("_Cancel"))!
        setAccessibleName(cancel, tr("Cancel"))
        connectButton = gtk_button_new_with_mnemonic(tr("C_onnect"))!
        gtk_widget_add_css_class(connectButton, "suggested-action")
        setAccessibleName(connectButton, tr("Connect"))
        spinner = gtk_spinner_new()!
        setAccessibleName(spinner, tr("Connecting"))
        gtk_widget_set_visible(spinner, 0)
        let header = adw_header_bar_new()!
        adw_header_bar_set_show_end_title_buttons(OpaquePointer(header), 0)
        adw_header_bar_pack_start(OpaquePointer(header), cancel)
        adw_header_bar_pack_end(OpaquePointer(header), connectButton)
        adw_header_bar_pack_end(OpaquePointer(header), spinner)
        adw_window_set_content(cast(window), makeBox(GTK_ORIENTATION_VERTICAL, [header, body]))
        gtk_window_set_default_widget(cast(window), connectButton)

        connectSignal(raw(cancel), "clicked") { [weak self] in self?.close() }
        connectSignal(raw(connectButton), "clicked") { [weak self] in self?.connectTyped() }
        connectRowActivated()
        let keys = gtk_event_controller_key_new()!
        connectKeyPressed(raw(keys)) { [weak self] key, _ in
            guard Int32(key) == GDK_KEY_Escape else { return false }
            self?.close()
            return true
        }
        gtk_widget_add_controller(window, keys)
        connectSignal(raw(window), "destroy") { [weak self] () -> Void in
            self?.task?.cancel()
            Self.shown.removeAll { $0 === self }
        }
        loadRecents()
    }

    func present() {
        Self.shown.append(self)
        gtk_window_present(cast(window))
        gtk_widget_grab_focus(entry)
    }

    func close() {
        task?.cancel()
        gtk_window_destroy(cast(window))
    }

    // MARK: Connecting

    private func connectTyped() {
        let text = borrowString(gtk_editable_get_text(OpaquePointer(entry))) ?? ""
        do {
            connect(try ServerAddress(parsing: text))
        } catch {
            showError(error.description)
        }
    }

    private func connect(_ address: ServerAddress) {
        guard task == nil else { return }
        gtk_editable_set_text(OpaquePointer(entry), address.uri)
        showError(nil)
        setConnecting(true)
        task = Task { [weak self] in
            guard let window = self?.window else { return }
            do throws(ServerConnectionError) {
                let url = try await ServerConnector.mount(address, parent: window)
                guard let self, !Task.isCancelled else { return }
                self.task = nil
                let connected = self.connected
                self.close()
                connected?(url)
            } catch {
                guard let self, !Task.isCancelled else { return }
                self.task = nil
                self.setConnecting(false)
                if error != .cancelled { self.showError(error.description) }
            }
        }
    }

    private func setConnecting(_ connecting: Bool) {
        for part in [entry, connectButton, recentsList] { gtk_widget_set_sensitive(part, connecting ? 0 : 1) }
        gtk_widget_set_visible(spinner, connecting ? 1 : 0)
        gtk_spinner_set_spinning(cast(spinner), connecting ? 1 : 0)
        if !connecting { gtk_widget_grab_focus(entry) }
    }

    /// Shows `message` under the entry (read out by screen readers as the entry's description).
    private func showError(_ message: String?) {
        gtk_label_set_text(opaque(errorLabel), message ?? "")
        gtk_widget_set_visible(errorLabel, message == nil ? 0 : 1)
        dossier_gtk_accessible_set_description(entry, message ?? tr("Protocols: %s", ServerAddress.schemesHint))
    }

    // MARK: Recent servers

    private func loadRecents() {
        Task { [weak self] in
            let list = await Task.detached(priority: .userInitiated) { RecentServers().items() }.value
            self?.showRecents(list)
        }
    }

    private func showRecents(_ list: [ServerAddress]) {
        for (row, _) in recents { gtk_list_box_remove(cast(recentsList), row) }
        recents = []
        for address in list {
            let row = adw_action_row_new()!
            adw_preferences_row_set_use_markup(cast(row), 0)
            adw_preferences_row_set_title(cast(row), address.description)
            adw_action_row_set_subtitle(cast(row), address.scheme.rawValue + "://")
            gtk_list_box_row_set_activatable(cast(row), 1)
            setAccessibleName(row, address.uri)
            let remove = gtk_button_new_from_icon_name("list-remove-symbolic")!
            gtk_widget_add_css_class(remove, "flat")
            gtk_widget_set_valign(remove, GTK_ALIGN_CENTER)
            let name = tr("Remove “%s” from the recent servers", address.description)
            setAccessibleName(remove, name)
            gtk_widget_set_tooltip_text(remove, name)
            connectSignal(raw(remove), "clicked") { [weak self] in self?.forget(address) }
            adw_action_row_add_suffix(cast(row), remove)
            gtk_list_box_append(cast(recentsList), row)
            recents.append((row, address))
        }
        for part in [recentsHeading, recentsList] { gtk_widget_set_visible(part, list.isEmpty ? 0 : 1) }
    }

    private func forget(_ address: ServerAddress) {
        Task { [weak self] in
            let result = await Task.detached(priority: .userInitiated) { () -> Result<[ServerAddress], RecentServersError> in
                let recents = RecentServers()
                do throws(RecentServersError) { try recents.remove(address) } catch { return .failure(error) }
                return .success(recents.items())
            }.value
            guard let self else { return }
            switch result {
            case .success(let list):
                self.showRecents(list)
                gtk_widget_grab_focus(self.recents.first?.row ?? self.entry)
            case .failure(let error): self.showError(error.description)
            }
        }
    }

    private func connectRowActivated() {
        connectSignal(raw(recentsList), "row-activated") { [weak self] (row: UnsafeMutableRawPointer?) in
            guard let self, let row, let match = self.recents.first(where: { raw($0.row) == row }) else { return }
            self.connect(match.address)
        }
    }
}
