import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The Trash's action bar: "Restore" for the selection and "Empty Trash…" with a
/// confirmation. The work runs off the main thread; the listing follows the Trash folder.
@MainActor
final class TrashActions {
    let bar: WidgetPointer
    private let restoreButton: WidgetPointer
    private let emptyButton: WidgetPointer
    private let trash: Trash
    /// Reports what went wrong, for a toast.
    var report: ((String) -> Void)?
    /// Called when the Trash changed (the listing reloads).
    var didChange: (() -> Void)?
    /// Called once the Trash was emptied (what was trashed can no longer be put back).
    var didEmpty: (() -> Void)?

    init(trash: Trash) {
        self.trash = trash
        bar = gtk_action_bar_new()!
        restoreButton = gtk_button_new_with_mnemonic(tr("_Restore"))
        gtk_actionable_set_action_name(cast(restoreButton), "browser.restore")
        setAccessibleName(restoreButton, tr("Restore"))
        gtk_widget_set_tooltip_text(restoreButton, tr("Put the selected items back where they were"))
        emptyButton = gtk_button_new_with_mnemonic(tr("_Empty Trash…"))
        gtk_widget_add_css_class(emptyButton, "destructive-action")
        gtk_actionable_set_action_name(cast(emptyButton), "browser.empty-trash")
        setAccessibleName(emptyButton, tr("Empty Trash"))
        gtk_action_bar_pack_start(cast(bar), restoreButton)
        gtk_action_bar_pack_end(cast(bar), emptyButton)
    }

    /// Puts `items` back where they were.
    func restore(_ items: [TrashedItem]) {
        guard !items.isEmpty else { return }
        let trash = trash
        Task.detached {
            var problems: [String] = []
            for item in items {
                do throws(TrashError) {
                    let place = try trash.restore(item)
                    DirectoryQuery.noteChange(at: place)
                } catch {
                    problems.append(error.description)
                }
            }
            await MainActor.run { [weak self] in
                problems.forEach { self?.report?($0) }
                self?.didChange?()
            }
        }
    }

    /// Asks, then deletes everything in the Trash for good.
    func confirmEmpty(parent: WidgetPointer) {
        let dialog = dossier_alert_new(tr("Empty Trash?"), tr("All items in the Trash will be permanently deleted."))!
        dossier_alert_add_response(dialog, "cancel", tr("_Cancel"))
        dossier_alert_add_response(dialog, "empty", tr("_Empty Trash"))
        dossier_alert_set_response_appearance(dialog, "empty", ADW_RESPONSE_DESTRUCTIVE)
        dossier_alert_set_default_response(dialog, "cancel")
        dossier_alert_set_close_response(dialog, "cancel")
        connectResponse(raw(dialog)) { [weak self] response in
            guard response == "empty" else { return }
            self?.empty()
        }
        nameResponseButtons(of: dialog)
        dossier_alert_present(dialog, parent)
    }

    private func empty() {
        let trash = trash
        Task.detached {
            var problem: String?
            do throws(TrashError) { _ = try trash.empty() } catch { problem = error.description }
            await MainActor.run { [weak self] in
                if let problem { self?.report?(problem) }
                self?.didEmpty?()
                self?.didChange?()
            }
        }
    }
}

/// Connects AdwMessageDialog's `response` (the response's id).
@MainActor
func connectResponse(_ dialog: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (String) -> Void) {
    connectTextSignal(dialog, "response") { response in handler(response) }
}
