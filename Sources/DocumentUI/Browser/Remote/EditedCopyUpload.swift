import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Upload-back of a remote file's copy that an app edited (Open With, for an app that takes
/// only paths): a toast offers it once the app has saved, the upload compares the server's
/// version with the one the copy was made from, and a file changed on the server meanwhile is
/// a question (Keep Both, Replace, Cancel). Nothing here waits on the network.
extension DocumentBrowser {
    /// Shows "“report.odt” was changed in LibreOffice Writer" with an Upload to Server
    /// button, until the person acts on it or closes it; closing it forgets the changes
    /// (`RemoteEdits.dismiss`: the copy may leave the cache). One toast per copy: a later save
    /// while it shows is uploaded by the same button (the upload reads the copy then).
    package func offerUpload(_ edit: EditedCopy, edits: RemoteEdits = .shared) {
        guard !UploadOffers.shown.contains(edit.url) else { return }
        UploadOffers.shown.insert(edit.url)
        let toast = adw_toast_new(tr("“%s” was changed in %s", edit.name, edit.application))!
        adw_toast_set_button_label(toast, tr("Upload to Server"))
        adw_toast_set_timeout(toast, 0)
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        var uploading = false
        connectSignal(raw(toast), "button-clicked") { [weak self] () -> Void in
            uploading = true
            self?.upload(edit, .ifUnchanged, edits)
        }
        connectSignal(raw(toast), "dismissed") { () -> Void in
            UploadOffers.shown.remove(edit.url)
            if !uploading { Task.detached { edits.dismiss(edit) } }
        }
        adw_toast_overlay_add_toast(toasts, toast)
    }

    /// Uploads with its progress in the header, where it can be cancelled.
    private func upload(_ edit: EditedCopy, _ choice: UploadChoice, _ edits: RemoteEdits) {
        let progress = Progress(totalUnitCount: 0)
        let id = operations.track(progress, title: tr("Uploading “%s”", edit.name))
        Task { @MainActor [weak self] in
            let outcome: Result<UploadOutcome, RemoteUploadError>
            do throws(RemoteUploadError) {
                outcome = .success(try await edits.upload(edit, choice, progress: progress))
            } catch {
                outcome = .failure(error)
            }
            self?.operations.finish(id)
            guard let self else { return }
            switch outcome {
            case .success(.uploaded(let uploaded)):
                self.showUploadToast(tr("“%s” was uploaded to the server", uploaded.remote.lastPathComponent))
            case .success(.serverChanged):
                self.askAboutServerChange(edit, edits)
            case .failure(let error):
                // Offered again, behind the reason: the changes are still there to upload.
                self.offerUpload(edit, edits: edits)
                self.showUploadToast(error.description)
            }
        }
    }

    /// What came of an upload the person asked for, shown at once (ahead of older toasts,
    /// whose time does not run while the window is in the background).
    private func showUploadToast(_ title: String) {
        let toast = adw_toast_new(title)!
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        adw_toast_overlay_add_toast(toasts, toast)
    }

    /// The server's file is no longer the version the copy was made from.
    private func askAboutServerChange(_ edit: EditedCopy, _ edits: RemoteEdits) {
        let heading = tr("The File on the Server Changed")
        let body = tr("“%s” on the server changed since you opened it in %s. Keep both files, or replace the server’s version with yours?",
                      edit.name, edit.application)
        let dialog = dossier_alert_new(heading, body)!
        dossier_alert_add_response(dialog, "cancel", tr("_Cancel"))
        dossier_alert_add_response(dialog, "keep-both", tr("_Keep Both"))
        dossier_alert_add_response(dialog, "replace", tr("_Replace"))
        dossier_alert_set_response_appearance(dialog, "replace", ADW_RESPONSE_DESTRUCTIVE)
        dossier_alert_set_default_response(dialog, "keep-both")
        dossier_alert_set_close_response(dialog, "cancel")
        setAccessibleName(dialog, heading)
        connectResponse(raw(dialog)) { [weak self] response in
            switch response {
            case "keep-both": self?.upload(edit, .keepBoth, edits)
            case "replace": self?.upload(edit, .replace, edits)
            default: self?.offerUpload(edit, edits: edits)  // not now: still offered
            }
        }
        nameResponseButtons(of: dialog)
        dossier_alert_present(dialog, parentWindow.map { cast($0) })
    }
}

/// The copies whose upload a toast offers now (one toast per copy, in whichever window).
@MainActor
private enum UploadOffers {
    static var shown: Set<URL> = []
}
