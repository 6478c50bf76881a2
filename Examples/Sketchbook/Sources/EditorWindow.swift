import CGtk
import DocumentCore
import DocumentUI
import Foundation

/// A window editing one sketch: the canvas, Undo and Redo, the document's state in the title,
/// the note an opening app sent along, and the choice when another program changed the file
/// while there were unsaved strokes. Opening, saving and closing run off the main thread.
@MainActor
final class EditorWindow {
    let window: WidgetPointer
    let document: SketchDocument
    private let canvas = Canvas()
    private let title: WidgetPointer
    private let content: WidgetPointer
    private let conflictBar: WidgetPointer
    private let conflictLabel: WidgetPointer
    private var isClosing = false
    private var isFailed = false
    /// Undo and Redo: off while the drawing cannot be changed (read-only, a conflict, not opened).
    private var editActions: [OpaquePointer] = []
    /// The document's state as last reported (asking the document would wait for its queue).
    private var state: Document.State = .closed
    private var isReadOnly: Bool { state.contains(.editingDisabled) }
    /// Called once the window is gone.
    var didClose: (() -> Void)?

    init(application: UnsafeMutablePointer<GtkApplication>, url: URL, annotation: String?, autosaveDelay: DispatchTimeInterval) {
        document = SketchDocument(fileURL: url)
        document.autosaveDelay = autosaveDelay
        window = adw_application_window_new(application)
        gtk_window_set_default_size(asWindow(window), 900, 700)
        gtk_window_set_title(asWindow(window), url.lastPathComponent)

        title = adw_window_title_new(url.lastPathComponent, tr("Opening…"))
        let header = adw_header_bar_new()!
        adw_header_bar_set_title_widget(cast(header), title)
        let undo = gtk_button_new_from_icon_name("edit-undo-symbolic")!
        setAccessibleName(undo, tr("Undo Stroke"))
        gtk_widget_set_tooltip_text(undo, tr("Undo the Last Stroke (Ctrl+Z)"))
        gtk_actionable_set_action_name(cast(undo), "win.undo")
        let redo = gtk_button_new_from_icon_name("edit-redo-symbolic")!
        setAccessibleName(redo, tr("Redo Stroke"))
        gtk_widget_set_tooltip_text(redo, tr("Redo (Shift+Ctrl+Z)"))
        gtk_actionable_set_action_name(cast(redo), "win.redo")
        adw_header_bar_pack_start(cast(header), undo)
        adw_header_bar_pack_start(cast(header), redo)

        (conflictBar, conflictLabel) = Self.makeBar()
        gtk_widget_set_visible(conflictBar, 0)
        content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(cast(content), header)
        if let annotation, !annotation.isEmpty {
            // From whoever opened the file: shown as plain text, and not all of it when long.
            let (bar, label) = Self.makeBar()
            gtk_label_set_text(cast(label), tr("Sent with the note “%s”", String(annotation.prefix(300))))
            setAccessibleName(label, tr("Note"))
            gtk_box_append(cast(content), bar)
        }
        gtk_box_append(cast(content), conflictBar)
        gtk_box_append(cast(content), canvas.widget)
        adw_application_window_set_content(cast(window), content)

        addConflictButtons()
        installActions()
        observeDocument()
        onCloseRequest(window) { [weak self] in self?.close() ?? false }
        gtk_window_present(asWindow(window))
        open()
    }

    /// A strip above the canvas with a label (and, for the conflict, buttons).
    private static func makeBar() -> (WidgetPointer, WidgetPointer) {
        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(bar, "toolbar")
        gtk_widget_add_css_class(bar, "osd")
        let label = gtk_label_new(nil)!
        gtk_label_set_wrap(cast(label), 1)
        gtk_label_set_xalign(cast(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_box_append(cast(bar), label)
        return (bar, label)
    }

    private func addConflictButtons() {
        for (text, resolution) in [(tr("Keep Mine"), Document.ConflictResolution.keepMine),
                                   (tr("Use Other Version"), .keepTheirs)] {
            let button = gtk_button_new_with_label(text)!
            setAccessibleName(button, text)
            onSignal(UnsafeMutableRawPointer(button), "clicked") { [weak self] in self?.resolve(resolution) }
            gtk_box_append(cast(conflictBar), button)
        }
    }

    private func installActions() {
        let map = UnsafeMutableRawPointer(window)
        editActions = [
            addAction("undo", to: map) { [weak self] in self?.edit { $0.undo() } },
            addAction("redo", to: map) { [weak self] in self?.edit { $0.redo() } },
        ]
        _ = addAction("save", to: map) { [weak self] in self?.saveNow() }
        _ = addAction("close", to: map) { [weak self] in
            if let window = self?.window { gtk_window_close(asWindow(window)) }
        }
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
        gtk_widget_set_visible(conflictBar, state.contains(.inConflict) ? 1 : 0)
        if state.contains(.inConflict) {
            gtk_label_set_text(cast(conflictLabel),
                               tr("“%s” was changed by another program while you drew. Keep your drawing or use the other version?", name))
            setStatus(tr("Changed by another program"))
        } else if state.contains(.savingError), let error = document.lastSaveError {
            setStatus(tr("Not saved: %s", "\(error)"))
        } else if state.contains(.editingDisabled) {
            setStatus(tr("Read-only"))
        }
        setEditable(!state.contains(.editingDisabled) && !state.contains(.inConflict))
    }

    private func setEditable(_ editable: Bool) {
        gtk_widget_set_sensitive(canvas.widget, editable ? 1 : 0)
        for action in editActions { g_simple_action_set_enabled(action, editable ? 1 : 0) }
    }

    private func setStatus(_ text: String) {
        adw_window_title_set_subtitle(cast(title), text)
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
        let page = dossier_status_page_new()!
        adw_status_page_set_icon_name(cast(page), "dialog-error-symbolic")
        adw_status_page_set_title(cast(page), tr("This Drawing Cannot Be Opened"))
        adw_status_page_set_description(cast(page), "\(error)")
        gtk_widget_set_vexpand(page, 1)
        gtk_box_remove(cast(content), canvas.widget)
        gtk_box_append(cast(content), page)
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
            gtk_window_destroy(asWindow(self.window))
            self.didClose?()
        }
        return true
    }
}
