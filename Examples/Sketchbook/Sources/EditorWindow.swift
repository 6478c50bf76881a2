import DocumentCore
import DocumentUI
import Foundation

/// A window editing one sketch: the canvas, Undo and Redo, the document's state in the title,
/// the note an opening app sent along, and the choice when another program changed the file
/// while there were unsaved strokes. Opening, saving and closing run off the main thread.
@MainActor
final class EditorWindow {
    let window: WindowWidget
    let document: SketchDocument
    private let canvas = Canvas()
    private let title: WindowTitle
    private let content = Box(.vertical)
    private let conflictBar: Box
    private let conflictLabel: Label
    private var isClosing = false
    private var isFailed = false
    /// Undo and Redo: off while the drawing cannot be changed (read-only, a conflict, not opened).
    private var editActions: [Action] = []
    /// The document's state as last reported (asking the document would wait for its queue).
    private var state: Document.State = .closed
    private var isReadOnly: Bool { state.contains(.editingDisabled) }
    /// Called once the window is gone.
    var didClose: (() -> Void)?

    init(application: AppInstance, url: URL, annotation: String?, autosaveDelay: DispatchTimeInterval) {
        document = SketchDocument(fileURL: url)
        document.autosaveDelay = autosaveDelay
        window = WindowWidget(application: application)
        window.setDefaultSize(width: 900, height: 700)
        window.title = url.lastPathComponent

        title = WindowTitle(url.lastPathComponent, subtitle: tr("Opening…"))
        let header = HeaderBar()
        header.setTitle(title)
        header.addAtStart(Self.makeButton("edit-undo-symbolic", name: tr("Undo Stroke"),
                                          tooltip: tr("Undo the Last Stroke (Ctrl+Z)"), action: "win.undo"))
        header.addAtStart(Self.makeButton("edit-redo-symbolic", name: tr("Redo Stroke"),
                                          tooltip: tr("Redo (Shift+Ctrl+Z)"), action: "win.redo"))

        (conflictBar, conflictLabel) = Self.makeBar()
        conflictBar.isVisible = false
        content.append(header)
        if let annotation, !annotation.isEmpty {
            // From whoever opened the file: shown as plain text, and not all of it when long.
            let (bar, label) = Self.makeBar()
            label.text = tr("Sent with the note “%s”", String(annotation.prefix(300)))
            label.setAccessibleName(tr("Note"))
            content.append(bar)
        }
        content.append(conflictBar)
        content.append(canvas.area)
        window.setContent(content)

        addConflictButtons()
        installActions()
        observeDocument()
        window.onCloseRequest { [weak self] in self?.close() ?? false }
        window.present()
        open()
    }

    /// A header bar button with an icon, named for screen readers, that activates `action`.
    private static func makeButton(_ icon: String, name: String, tooltip: String, action: String) -> Button {
        let button = Button(iconName: icon)
        button.setAccessibleName(name)
        button.tooltip = tooltip
        button.actionName = action
        return button
    }

    /// A strip above the canvas with a label (and, for the conflict, buttons).
    private static func makeBar() -> (Box, Label) {
        let label = Label()
        label.wraps = true
        label.horizontalPlacement = 0
        label.expandsHorizontally = true
        let bar = Box(.horizontal, spacing: 12, [label])
        bar.addStyleClass("toolbar")
        bar.addStyleClass("osd")
        return (bar, label)
    }

    private func addConflictButtons() {
        for (text, resolution) in [(tr("Keep Mine"), Document.ConflictResolution.keepMine),
                                   (tr("Use Other Version"), .keepTheirs)] {
            let button = Button(label: text)
            button.setAccessibleName(text)
            button.onClicked { [weak self] in self?.resolve(resolution) }
            conflictBar.append(button)
        }
    }

    private func installActions() {
        editActions = [
            Action("undo") { [weak self] in self?.edit { $0.undo() } },
            Action("redo") { [weak self] in self?.edit { $0.redo() } },
        ]
        let others = [
            Action("save") { [weak self] in self?.saveNow() },
            Action("close") { [weak self] in self?.window.close() },
        ]
        for action in editActions + others { window.add(action) }
    }

    private func edit(_ change: (SketchDocument) -> Bool) {
        guard !isReadOnly, change(document) else { return }
        canvas.sketch = document.sketch
    }

    // MARK: The document

    private func observeDocument() {
        let name = document.fileURL.lastPathComponent
        document.didReload = { [weak self] in
            guard let self else { return }
            self.canvas.sketch = self.document.sketch
            self.setStatus(tr("Updated from the file"))
        }
        document.stateDidChange = { [weak self] state in
            DispatchQueue.main.async { self?.show(state, name: name) }
        }
        // Called inside each save, once the file is written.
        document.thumbnailWriter = { [weak self] _, _ in
            DispatchQueue.main.async { self?.setStatus(tr("Saved")) }
        }
        document.editRecorded = { [weak self] in self?.setStatus(tr("Edited")) }
        canvas.strokeDidEnd = { [weak self] stroke in self?.document.add(stroke) }
    }

    private func show(_ state: Document.State, name: String) {
        self.state = state
        conflictBar.isVisible = state.contains(.inConflict)
        if state.contains(.inConflict) {
            conflictLabel.text = tr("“%s” was changed by another program while you drew. Keep your drawing or use the other version?", name)
            setStatus(tr("Changed by another program"))
        } else if state.contains(.savingError), let error = document.lastSaveError {
            setStatus(tr("Not saved: %s", "\(error)"))
        } else if state.contains(.editingDisabled) {
            setStatus(tr("Read-only"))
        }
        setEditable(!state.contains(.editingDisabled) && !state.contains(.inConflict))
    }

    private func setEditable(_ editable: Bool) {
        canvas.area.isSensitive = editable
        for action in editActions { action.isEnabled = editable }
    }

    private func setStatus(_ text: String) {
        title.subtitle = text
    }

    private func open() {
        let document = document
        Task { @MainActor [weak self] in
            let result = await Task.detached { () -> Result<Void, any Error> in Result { try document.open() } }.value
            guard let self else { return }
            switch result {
            case .success:
                self.canvas.sketch = document.sketch
                self.setStatus(self.isReadOnly ? tr("Read-only") : tr("Saved"))
            case .failure(let error):
                self.showFailure(error)
            }
        }
    }

    private func showFailure(_ error: any Error) {
        let page = StatusPage(iconName: "dialog-error-symbolic", title: tr("This Drawing Cannot Be Opened"),
                              description: "\(error)")
        page.expandsVertically = true
        content.remove(canvas.area)
        content.append(page)
        setStatus(tr("Not opened"))
        isFailed = true
        setEditable(false)
    }

    private func saveNow() {
        let document = document
        Task.detached { try? document.save() }
    }

    private func resolve(_ resolution: Document.ConflictResolution) {
        let document = document
        Task { @MainActor [weak self] in
            let result = await Task.detached { () -> Result<Void, any Error> in Result { try document.resolveConflict(resolution) } }.value
            guard let self else { return }
            self.canvas.sketch = document.sketch
            if case .failure(let error) = result { self.setStatus(tr("Not saved: %s", "\(error)")) }
        }
    }

    /// The window closes once the document has saved what it had and let go of the file.
    private func close() -> Bool {
        guard !isClosing else { return true }
        isClosing = true
        setStatus(tr("Closing…"))
        let document = document, failed = isFailed
        Task { @MainActor [weak self] in
            if !failed { _ = await Task.detached { try? document.close() }.value }
            guard let self else { return }
            self.window.destroy()
            self.didClose?()
        }
        return true
    }
}
