import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Renaming in place, as Files 43 does it: a popover with the name in an entry, pointing at
/// the item's cell. The name without its extension is selected; Enter renames, Escape or a
/// click elsewhere cancels; a taken name or a "/" is explained under the entry as it is typed.
@MainActor
final class InlineRename {
    let url: URL
    let popover: WidgetPointer
    let entry: WidgetPointer
    private let button: WidgetPointer
    private let message: WidgetPointer
    private let original: String
    private let isFolder: Bool
    private let isTaken: (String) -> Bool
    /// Called with the new name on Enter or the Rename button (when it differs and is valid).
    var commit: ((String) -> Void)?
    /// Called when the popover has closed, by commit or cancel.
    var didClose: (() -> Void)?

    init(url: URL, name: String, isFolder: Bool, isTaken: @escaping (String) -> Bool) {
        self.url = url
        original = name
        self.isFolder = isFolder
        self.isTaken = isTaken
        let title = makeLabel(isFolder ? tr("Rename Folder") : tr("Rename File"), classes: ["heading"])
        gtk_widget_set_halign(title, GTK_ALIGN_START)
        entry = gtk_entry_new()!
        gtk_editable_set_text(cast(entry), name)
        gtk_widget_set_hexpand(entry, 1)
        gtk_editable_set_width_chars(cast(entry), 24)
        setAccessibleName(entry, tr("New Name"))
        button = gtk_button_new_with_mnemonic(tr("_Rename"))
        gtk_widget_add_css_class(button, "suggested-action")
        setAccessibleName(button, tr("Rename"))
        message = makeLabel("", classes: ["caption", "error"])
        gtk_label_set_wrap(opaque(message), 1)
        gtk_label_set_xalign(opaque(message), 0)
        gtk_label_set_max_width_chars(opaque(message), 36)
        // Always in the layout (an empty line when all is well): the popover cannot shrink
        // again on a list, which never re-places it, so it keeps one size.
        let row = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [entry, button])
        let content = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 8, [title, row, message])
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(content, 6)
        }
        popover = gtk_popover_new()!
        gtk_popover_set_child(cast(popover), content)
        gtk_popover_set_position(cast(popover), GTK_POS_BOTTOM)
        gtk_popover_set_default_widget(cast(popover), button)
        setAccessibleName(popover, isFolder ? tr("Rename Folder") : tr("Rename File"))

        connectSignal(raw(entry), "changed") { [weak self] in self?.validate() }
        connectSignal(raw(entry), "activate") { [weak self] in self?.submit() }
        connectSignal(raw(button), "clicked") { [weak self] in self?.submit() }
    }

    /// Shows the popover on `view`, pointing at `rectangle` (the name), the base name selected.
    func present(on view: WidgetPointer, pointingAt rectangle: GdkRectangle) {
        gtk_widget_set_parent(popover, view)
        var target = rectangle
        gtk_popover_set_pointing_to(cast(popover), &target)
        connectSignal(raw(popover), "closed") { [weak self] () -> Void in
            guard let self else { return }
            // Unparented after the closing event has been handled.
            DispatchQueue.main.async {
                if gtk_widget_get_parent(self.popover) != nil { gtk_widget_unparent(self.popover) }
                self.didClose?()
            }
        }
        gtk_popover_popup(cast(popover))
        selectBaseName()
        // GtkText selects everything when it takes the focus: select the base again after.
        DispatchQueue.main.async { [weak self] in self?.selectBaseName() }
        validate()
    }

    func close() { gtk_popover_popdown(cast(popover)) }

    private func selectBaseName() {
        gtk_widget_grab_focus(entry)
        let base = FileOperations.splitName(original, isFolder: isFolder).base
        gtk_editable_select_region(cast(entry), 0, Int32(base.count))
    }

    /// Shows why the name cannot be used (the Rename button is off meanwhile), or nothing.
    func show(problem text: String?) {
        gtk_label_set_text(opaque(message), text ?? "")
        // The views do not place popovers on their own allocation: size it to the message now.
        if gtk_widget_get_visible(popover) != 0 { gtk_popover_present(cast(popover)) }
    }

    private var text: String { borrowString(gtk_editable_get_text(cast(entry))) ?? "" }

    @discardableResult
    private func validate() -> Bool {
        let name = text
        var problem: String?
        var blocking = false
        if name != original {
            switch FileOperations.problem(with: name) {
            case .empty: blocking = true
            case .containsSlash: problem = tr("A name cannot contain “/”."); blocking = true
            case .containsNul: problem = tr("A name cannot contain a NUL character."); blocking = true
            case .reserved: problem = tr("“%s” is not a valid name.", name); blocking = true
            case .tooLong: problem = tr("The name is too long."); blocking = true
            case nil:
                if isTaken(name) {
                    problem = isFolder ? tr("A folder or file named “%s” already exists.", name)
                        : tr("A file or folder named “%s” already exists.", name)
                    blocking = true
                } else if name.hasPrefix(".") {
                    problem = tr("Names that start with a “.” are hidden.")
                }
            }
        }
        show(problem: problem)
        gtk_widget_remove_css_class(message, "error")
        if blocking { gtk_widget_add_css_class(message, "error") }
        gtk_widget_set_sensitive(button, blocking ? 0 : 1)
        return !blocking
    }

    private func submit() {
        guard validate() else { return }
        let name = text
        if name == original {
            close()
            return
        }
        commit?(name)
    }
}

extension DocumentBrowser {
    /// Starts renaming the item at `url` in place (the selection follows it).
    func beginRename(_ url: URL, attempt: Int = 0) {
        renaming?.close()
        guard let position = model.position(of: url) else { return }
        let item = model[position]
        if attempt == 0 { selectOnly(position) }
        let view = currentView
        guard let label = nameLabel(for: url), let bounds = bounds(of: label, in: view), bounds.width > 1 else {
            // Not laid out yet (a new item, or just scrolled to): try again once it is.
            guard attempt < 20 else { return }
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { [weak self] in
                self?.beginRename(url, attempt: attempt + 1)
            }
            return
        }
        let folder = url.deletingLastPathComponent()
        let rename = InlineRename(url: url, name: item.name, isFolder: item.isDirectory) { [weak self] name in
            guard let self else { return false }
            return self.model.position(of: folder.appendingPathComponent(name)) != nil
        }
        rename.commit = { [weak self, weak rename] name in
            guard let self, let rename else { return }
            self.rename(url, to: name, from: rename)
        }
        rename.didClose = { [weak self, weak rename] in
            guard let self, let rename, self.renaming === rename else { return }
            self.renaming = nil
            gtk_widget_grab_focus(self.currentView)
        }
        renaming = rename
        // Under the name (not the whole cell: the arrow points at what is being renamed).
        let rectangle = GdkRectangle(x: Int32(bounds.x), y: Int32(bounds.y), width: Int32(max(bounds.width, 1)),
                                     height: Int32(max(bounds.height, 1)))
        rename.present(on: view, pointingAt: rectangle)
    }

    /// Renames off the main thread; a failure stays in the popover, success closes it.
    private func rename(_ url: URL, to name: String, from rename: InlineRename) {
        let operations = FileOperations(trash: feed.trash)
        Task { @MainActor [weak self, weak rename] in
            let result = await Task.detached { () -> Result<FileOperationResult, FileOperationError> in
                do throws(FileOperationError) { return .success(try operations.rename(url, to: name)) } catch { return .failure(error) }
            }.value
            guard let self else { return }
            switch result {
            case .success(let done):
                rename?.close()
                self.recordUndoable([done], title: ResultTitle.of([done]))
                if let made = done.resultingURL { self.selectWhenShown([made]) }
            case .failure(let error):
                rename?.show(problem: error.description)
            }
        }
    }
}
