import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The browser's answer to a server's questions (DocumentCore's `MountPrompt`): a password
/// dialog (user name, domain, password, guest access, how long to remember it, as Files asks)
/// and a question dialog whose buttons are the server's choices (an unknown host key).
/// Each is an AdwMessageDialog over the window of `parent`.
@MainActor
final class MountDialogs: MountPrompt {
    /// Any widget of the window the dialogs belong to (not retained).
    private let parent: WeakObject
    private var open: (dialog: WidgetPointer, finish: (String) -> Void)?

    init(parent: WidgetPointer) {
        self.parent = WeakObject(widget: parent)
    }

    func credentials(for request: PasswordRequest) async -> PasswordReply? {
        let fields = PasswordFields(request: request)
        // GVFS's message is a summary line ("Authentication Required"), then what it asks.
        let lines = request.message.split(separator: "\n", maxSplits: 1).map(String.init)
        let asked = lines.count > 1 ? lines[1] : request.message
        let heading = request.attempt > 1 ? tr("Password Not Accepted") : (lines.count > 1 ? lines[0] : tr("Password Required"))
        let body = request.attempt > 1 ? tr("The server refused the password. %s", asked) : asked
        // Read while the dialog lives: it is destroyed once it has answered.
        var reply: PasswordReply?
        let response = await present(heading: heading, body: body, extra: fields.widget, focus: fields.firstFocus,
                                     responses: [("cancel", tr("_Cancel")), ("connect", tr("C_onnect"))],
                                     suggested: "connect", closeResponse: "cancel") { id in
            if id == "connect" { reply = fields.reply }
        }
        guard response == "connect" else { return nil }
        return reply
    }

    func answer(_ question: MountQuestion) async -> Int? {
        let lines = question.message.split(separator: "\n", maxSplits: 1).map(String.init)
        let heading = lines.first ?? tr("Question")
        let body = lines.count > 1 ? lines[1].trimmingCharacters(in: .whitespacesAndNewlines) : ""
        let responses = question.choices.enumerated().map { ("choice-\($0.offset)", $0.element) }
        let response = await present(heading: heading, body: body, extra: nil, focus: nil, responses: responses,
                                     suggested: responses.first?.0, closeResponse: "dismissed")
        guard response.hasPrefix("choice-"), let index = Int(response.dropFirst("choice-".count)) else { return nil }
        return index
    }

    func withdraw() {
        guard let open else { return }
        self.open = nil
        open.finish("withdrawn")
        dossier_alert_close(open.dialog)
    }

    /// Shows a dialog and waits for its response's id.
    private func present(heading: String, body: String, extra: WidgetPointer?, focus: WidgetPointer?, responses: [(String, String)],
                         suggested: String?, closeResponse: String,
                         whileShown answered: @escaping (String) -> Void = { _ in }) async -> String {
        withdraw()
        return await withCheckedContinuation { continuation in
            let dialog = dossier_alert_new(heading, body)!
            for (id, label) in responses { dossier_alert_add_response(dialog, id, label) }
            if let suggested {
                dossier_alert_set_response_appearance(dialog, suggested, ADW_RESPONSE_SUGGESTED)
                dossier_alert_set_default_response(dialog, suggested)
            }
            dossier_alert_set_close_response(dialog, closeResponse)
            if let extra { dossier_alert_set_extra_child(dialog, extra) }
            var resumed = false
            let finish: (String) -> Void = { id in
                guard !resumed else { return }
                resumed = true
                continuation.resume(returning: id)
            }
            open = (dialog, finish)
            connectResponse(raw(dialog)) { [weak self] id in
                if let open = self?.open, open.dialog == dialog { self?.open = nil }
                answered(id)
                finish(id)
            }
            nameResponseButtons(of: dialog)
            dossier_alert_present(dialog, parent.widget)
            if let focus { dossier_alert_set_focus(dialog, focus) }
        }
    }
}

/// The password dialog's fields: those the server asked for.
@MainActor
private final class PasswordFields {
    let widget: WidgetPointer
    private let request: PasswordRequest
    private var user: WidgetPointer?
    private var domain: WidgetPointer?
    private var password: WidgetPointer?
    private var guest: WidgetPointer?
    private var remember: [(PasswordRemembering, WidgetPointer)] = []

    init(request: PasswordRequest) {
        self.request = request
        var children: [WidgetPointer] = []
        if request.anonymousAllowed {
            let registered = gtk_check_button_new_with_label(tr("Registered user"))!
            let anonymous = gtk_check_button_new_with_label(tr("Connect as guest"))!
            gtk_check_button_set_group(cast(anonymous), cast(registered))
            gtk_check_button_set_active(cast(registered), 1)
            guest = anonymous
            children += [registered, anonymous]
        }
        var entries: [WidgetPointer] = []
        if request.needsUser {
            let entry = Self.entry(tr("User name"), text: request.defaultUser)
            user = entry
            entries.append(entry)
        }
        if request.needsDomain {
            let entry = Self.entry(tr("Domain"), text: request.defaultDomain)
            domain = entry
            entries.append(entry)
        }
        if request.needsPassword {
            // A GtkEntry without visibility, not GtkPasswordEntry: GTK 4.8's password entry
            // keeps a keyboard handler past its disposal when its window is destroyed
            // focused (a critical at every dialog's close).
            let entry = Self.entry(tr("Password"), text: "")
            gtk_entry_set_visibility(cast(entry), 0)
            gtk_entry_set_input_purpose(cast(entry), GTK_INPUT_PURPOSE_PASSWORD)
            password = entry
            entries.append(entry)
        }
        children += entries
        if let guest {
            // The credentials mean nothing for a guest.
            let fields = entries
            connectSignal(raw(guest), "toggled") { () -> Void in
                let active = gtk_check_button_get_active(cast(guest)) == 0
                for field in fields { gtk_widget_set_sensitive(field, active ? 1 : 0) }
            }
        }
        if request.savingSupported {
            let choices: [(PasswordRemembering, String)] = [
                (.never, tr("Forget password immediately")),
                (.forSession, tr("Remember password until you log out")),
                (.forever, tr("Remember forever")),
            ]
            var first: WidgetPointer?
            for (value, title) in choices {
                let button = gtk_check_button_new_with_label(title)!
                if let first { gtk_check_button_set_group(cast(button), cast(first)) } else { first = button }
                if value == .never { gtk_check_button_set_active(cast(button), 1) }
                remember.append((value, button))
                children.append(button)
            }
        }
        widget = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 6, children)
    }

    /// The widget that gets the focus first: the first empty field.
    var firstFocus: WidgetPointer? {
        for field in [user, domain].compactMap({ $0 }) where (borrowString(gtk_editable_get_text(OpaquePointer(field))) ?? "").isEmpty {
            return field
        }
        return password ?? user
    }

    var reply: PasswordReply {
        func text(_ field: WidgetPointer?) -> String { field.flatMap { borrowString(gtk_editable_get_text(OpaquePointer($0))) } ?? "" }
        return PasswordReply(
            user: user == nil ? request.defaultUser : text(user),
            password: text(password),
            domain: domain == nil ? request.defaultDomain : text(domain),
            anonymous: guest.map { gtk_check_button_get_active(cast($0)) != 0 } ?? false,
            remember: remember.first { gtk_check_button_get_active(cast($0.1)) != 0 }?.0 ?? .never)
    }

    private static func entry(_ name: String, text: String) -> WidgetPointer {
        let entry = gtk_entry_new()!
        gtk_entry_set_activates_default(cast(entry), 1)
        gtk_entry_set_placeholder_text(cast(entry), name)
        gtk_editable_set_text(OpaquePointer(entry), text)
        setAccessibleName(entry, name)
        return entry
    }
}
