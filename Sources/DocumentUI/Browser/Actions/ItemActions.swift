import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The browser's actions on items — rename, duplicate, trash, copy, cut, paste, undo, new
/// folder — and what they share: file operations run off the main thread with their progress
/// in the header, an undo entry and a toast for what they did, a toast for what failed.
extension DocumentBrowser {
    func installItemActions() {
        actionGroup.add("rename") { [weak self] in
            guard let self, self.selectedURLs.count == 1, let url = self.selectedURLs.first, self.location != .trash else { return }
            self.beginRename(url)
        }
        actionGroup.add("duplicate") { [weak self] in self.map { $0.duplicate($0.selectedURLs) } }
        actionGroup.add("copy") { [weak self] in self?.copySelection(cut: false) }
        actionGroup.add("cut") { [weak self] in self?.copySelection(cut: true) }
        actionGroup.add("paste") { [weak self] in self?.paste() }
        actionGroup.add("undo") { [weak self] in self?.undo() }
        actionGroup.add("new-folder") { [weak self] in self?.createFolder() }
        actionGroup.add("import") { [weak self] in self?.presentImport() }
        actionGroup.add("options-menu") { [weak self] in self?.presentOptionsMenuForSelection() }
        actionGroup.add("print") { [weak self] in self?.printSelection() }
        installNewDocumentAction()
        actionGroup.setEnabled("undo", false)

        let previous = feed.itemsDidChange
        feed.itemsDidChange = { [weak self] in
            previous?()
            self?.applyPending()
        }
        installHeaderExtras()
        installDragAndDrop()
        updateFolderActions()
    }

    /// Enables what needs a folder to put items in (paste, new folder, import…).
    func updateFolderActions() {
        let inFolder = currentFolder != nil
        for name in ["paste", "new-folder", "new-document", "import"] { actionGroup.setEnabled(name, inFolder) }
        for name in ["rename", "duplicate", "copy", "cut"] { actionGroup.setEnabled(name, location != .trash) }
    }

    /// Ctrl+P: the print dialog for the one selected item, when Dossier prints its type (read
    /// from its contents first, as the options menu reads it).
    func printSelection() {
        guard selectedURLs.count == 1, location != .trash else { return }
        let controller = interactionController(for: selectedURLs)
        Task { @MainActor in
            _ = await controller.resolvedTypes()
            if controller.canPerform(.print) { controller.perform(.print) }
        }
    }

    /// The folder shown, if the location is one (new items go there), local or remote.
    var currentFolder: URL? {
        if case .folder(let url) = location { return url }
        return nil
    }

    // MARK: Toasts

    /// Shows a short message over the items; with `undo`, an Undo button that calls it.
    public func showToast(_ title: String, undo: (() -> Void)? = nil) {
        addToast(title, undo: undo)
    }

    /// Shows a toast as `showToast` does, and returns it (owned by the overlay).
    @discardableResult
    func addToast(_ title: String, undo: (() -> Void)? = nil) -> OpaquePointer {
        let toast = adw_toast_new(title)!
        if let undo {
            adw_toast_set_button_label(toast, tr("Undo"))
            adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
            connectSignal(raw(toast), "button-clicked") { undo() }
        }
        adw_toast_overlay_add_toast(toasts, toast)
        return toast
    }

    func toast(_ message: String) { showToast(message) }

    // MARK: Undo

    /// Puts `results` on the undo stack as one action and says what happened, with Undo.
    func recordUndoable(_ results: [FileOperationResult], title: String) {
        guard let entry = undoStack.push(title, results) else {
            showToast(title)
            return
        }
        let id = entry.id
        let toast = addToast(title) { [weak self] in self?.undo(id) }
        undoStack.attach(toast, to: id)
        actionGroup.setEnabled("undo", true)
    }

    /// Undoes the action `id` (a toast's Undo), or the newest one (Ctrl+Z).
    func undo(_ id: UUID? = nil) {
        let entry = id.map { undoStack.take($0) } ?? undoStack.popLast()
        actionGroup.setEnabled("undo", !undoStack.isEmpty)
        guard let entry else { return }
        let results = entry.results
        let operations = FileOperations(trash: feed.trash)
        Task { @MainActor [weak self] in
            let failures = await Task.detached { () -> [FileOperationError] in
                var failures: [FileOperationError] = []
                for result in results.reversed() {
                    do throws(FileOperationError) { _ = try operations.undo(result) } catch { failures.append(error) }
                }
                return failures
            }.value
            guard let self else { return }
            if let failure = failures.first {
                self.showToast(tr("Could not undo: %s", failure.description))
            } else {
                let back = results.compactMap { result -> URL? in
                    switch result {
                    case .renamed(let from, _), .moved(let from, _): from
                    case .trashed(let item): item.originalURL
                    default: nil
                    }
                }
                if !back.isEmpty { self.selectWhenShown(back) }
            }
        }
    }

    // MARK: Running operations

    /// Runs `work` off the main thread with a `Progress` the header shows when it takes a
    /// while (and can cancel); records what it did for undo with a toast, shows what failed,
    /// and hands the results to `then` (to select or rename what was made).
    /// `recover` may take care of some failures itself (an offer to delete what has no trash
    /// to go to) and returns the others, which are reported.
    func runFileOperation(_ title: String, _ work: @escaping @Sendable (FileOperations, Progress) -> FileOperationBatch,
                          recover: (@MainActor ([FileOperationError]) -> [FileOperationError])? = nil,
                          then: (@MainActor ([FileOperationResult]) -> Void)? = nil) {
        let operations = FileOperations(trash: feed.trash)
        let progress = Progress(totalUnitCount: 0)
        let id = self.operations.track(progress, title: title)
        Task { @MainActor [weak self] in
            let batch = await Task.detached { work(operations, progress) }.value
            guard let self else { return }
            self.operations.finish(id)
            if !batch.results.isEmpty { self.recordUndoable(batch.results, title: ResultTitle.of(batch.results)) }
            var failures = batch.failures.filter { if case .cancelled = $0 { false } else { true } }
            if let recover { failures = recover(failures) }
            if let first = failures.first {
                self.showToast(failures.count == 1 ? first.description
                    : trn("%s and %s more problem", "%s and %s more problems", failures.count - 1, first.description, String(failures.count - 1)))
            } else if batch.wasCancelled {
                self.showToast(tr("Cancelled"))
            }
            then?(batch.results)
        }
    }

    /// Moves `urls` to the Trash (Delete, the menu), undoable. Items on a location without a
    /// trash (most servers) can only be deleted for good: a dialog asks first.
    func moveToTrash(_ urls: [URL]) {
        guard !urls.isEmpty, location != .trash else { return }
        runFileOperation(trn("Moving %s item to the Trash", "Moving %s items to the Trash", urls.count, String(urls.count))) {
            operations, progress in operations.moveToTrash(urls, progress: progress)
        } recover: { [weak self] failures in
            let names = Set(failures.compactMap { if case .trashNotSupported(let name) = $0 { name } else { nil } })
            let untrashable = urls.filter { names.contains($0.lastPathComponent) }
            if !untrashable.isEmpty { self?.confirmPermanentDeletion(untrashable) }
            return failures.filter { if case .trashNotSupported = $0 { false } else { true } }
        }
    }

    /// Makes a copy of each item beside it ("name (copy).ext") and selects the copies.
    func duplicate(_ urls: [URL]) {
        guard !urls.isEmpty, location != .trash else { return }
        runFileOperation(trn("Duplicating %s item", "Duplicating %s items", urls.count, String(urls.count))) { operations, progress in
            var batch = FileOperationBatch()
            for url in urls {
                if progress.isCancelled { batch.failures.append(.cancelled(.duplicate, name: url.lastPathComponent)); break }
                do throws(FileOperationError) {
                    batch.results.append(try operations.duplicate(url, progress: progress))
                } catch {
                    batch.failures.append(error)
                }
            }
            return batch
        } then: { [weak self] results in
            self?.selectWhenShown(results.compactMap(\.resultingURL))
        }
    }

    /// Makes "Untitled Folder" in the shown folder and starts renaming it.
    func createFolder() {
        guard let folder = currentFolder else { return }
        runFileOperation(tr("Creating a folder")) { operations, _ in
            do throws(FileOperationError) {
                return FileOperationBatch(results: [try operations.createFolder(in: folder)])
            } catch {
                return FileOperationBatch(failures: [error])
            }
        } then: { [weak self] results in
            if let made = results.first?.resultingURL { self?.renameWhenShown(made) }
        }
    }

    /// Puts trashed items (by their place in the Trash) back where they were.
    func restore(_ urls: [URL]) {
        let items = urls.compactMap { url in model.position(of: url).flatMap { model[$0].trashed } }
        trashActions.restore(items)
    }

    // MARK: Selecting what an operation made

    /// Selects `urls` as soon as the listing shows them (a new file appears a moment later).
    func selectWhenShown(_ urls: [URL]) {
        guard !urls.isEmpty else { return }
        pending.select = urls
        pending.deadline = Date().addingTimeInterval(5)
        applyPending()
    }

    /// Selects `url` and starts renaming it inline as soon as the listing shows it.
    func renameWhenShown(_ url: URL) {
        pending.rename = url
        pending.deadline = Date().addingTimeInterval(5)
        applyPending()
    }

    func applyPending() {
        guard pending.select != nil || pending.rename != nil else { return }
        if Date() > pending.deadline {
            pending = PendingSelection()
            return
        }
        if let urls = pending.select, urls.allSatisfy({ model.position(of: $0) != nil }) {
            pending.select = nil
            select(urls)
        }
        if let url = pending.rename, model.position(of: url) != nil {
            pending.rename = nil
            select([url])
            // The cell exists once the view has laid out the new row.
            DispatchQueue.main.async { [weak self] in self?.beginRename(url) }
        }
    }
}

/// What to select (or rename) once the listing shows it.
struct PendingSelection {
    var select: [URL]?
    var rename: URL?
    var deadline = Date.distantPast
}

/// The toast for what a batch of operations did: "“a.txt” moved to the Trash", "3 items copied".
enum ResultTitle {
    static func of(_ results: [FileOperationResult]) -> String {
        guard let first = results.first else { return "" }
        let count = results.count
        let number = String(count)
        switch first {
        case .renamed(let from, let to):
            return tr("“%s” renamed to “%s”", from.lastPathComponent, to.lastPathComponent)
        case .duplicated(let original, _):
            return count == 1 ? tr("“%s” duplicated", original.lastPathComponent)
                : trn("%s item duplicated", "%s items duplicated", count, number)
        case .moved(let from, _):
            return count == 1 ? tr("“%s” moved", from.lastPathComponent) : trn("%s item moved", "%s items moved", count, number)
        case .copied(let source, _):
            return count == 1 ? tr("“%s” copied", source.lastPathComponent) : trn("%s item copied", "%s items copied", count, number)
        case .createdFolder(let url):
            return tr("“%s” created", url.lastPathComponent)
        case .trashed(let item):
            return count == 1 ? tr("“%s” moved to the Trash", item.originalName)
                : trn("%s item moved to the Trash", "%s items moved to the Trash", count, number)
        case .restored(let item, _):
            return count == 1 ? tr("“%s” restored", item.originalName) : trn("%s item restored", "%s items restored", count, number)
        case .deleted(let url):
            return count == 1 ? tr("“%s” deleted", url.lastPathComponent) : trn("%s item deleted", "%s items deleted", count, number)
        case .trashedOnServer(let url):
            return count == 1 ? tr("“%s” moved to the server's trash; it cannot be put back from here", url.lastPathComponent)
                : trn("%s item moved to the server's trash; they cannot be put back from here",
                      "%s items moved to the server's trash; they cannot be put back from here", count, number)
        }
    }
}
