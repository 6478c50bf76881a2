import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Deleting for good what cannot go to a trash: items on a server without one (sftp, smb,
/// dav). Nothing is deleted before the person has said so, and the dialog says it cannot be
/// undone.
extension DocumentBrowser {
    /// Asks, then deletes `urls` permanently with progress (no undo).
    func confirmPermanentDeletion(_ urls: [URL]) {
        guard let first = urls.first else { return }
        let body = urls.count == 1
            ? tr("“%s” is on a location that has no trash. It will be deleted permanently; this cannot be undone.",
                 first.lastPathComponent)
            : trn("%s item is on a location that has no trash. It will be deleted permanently; this cannot be undone.",
                  "%s items are on a location that has no trash. They will be deleted permanently; this cannot be undone.",
                  urls.count, String(urls.count))
        let dialog = dossier_alert_new(tr("Delete Permanently?"), body)!
        dossier_alert_add_response(dialog, "cancel", tr("_Cancel"))
        dossier_alert_add_response(dialog, "delete", tr("_Delete"))
        dossier_alert_set_response_appearance(dialog, "delete", ADW_RESPONSE_DESTRUCTIVE)
        dossier_alert_set_default_response(dialog, "cancel")
        dossier_alert_set_close_response(dialog, "cancel")
        setAccessibleName(dialog, tr("Delete Permanently?"))
        connectResponse(raw(dialog)) { [weak self] response in
            guard response == "delete" else { return }
            self?.deletePermanently(urls)
        }
        nameResponseButtons(of: dialog)
        dossier_alert_present(dialog, parentWindow.map { cast($0) })
    }

    private func deletePermanently(_ urls: [URL]) {
        runFileOperation(trn("Deleting %s item", "Deleting %s items", urls.count, String(urls.count))) { operations, progress in
            var batch = FileOperationBatch()
            for url in urls {
                if progress.isCancelled { batch.failures.append(.cancelled(.delete, name: url.lastPathComponent)); break }
                do throws(FileOperationError) {
                    batch.results.append(try operations.deletePermanently(url, progress: progress))
                } catch {
                    batch.failures.append(error)
                }
            }
            return batch
        }
    }
}
