import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The browser speaks to its items through the one `DocumentInteractionController`: a
/// right-click or long-press opens the controller's options menu for the selection, Enter
/// and double-click open through it, and the browser is its delegate for what only the host
/// can do — Rename inline, Show in Folder, the multi-item Preview, the app's own actions —
/// and for the results of file operations (undo and toasts).
extension DocumentBrowser: DocumentInteractionDelegate {
    /// A controller for `urls` with the browser as its delegate and the app's actions.
    func interactionController(for urls: [URL]) -> DocumentInteractionController {
        let controller = DocumentInteractionController(urls: urls)
        controller.delegate = self
        controller.customActions = menuActions
        return controller
    }

    /// The app's actions plus the browser's own for the Trash (Restore).
    private var menuActions: [DocumentBrowserAction] {
        guard location == .trash else { return actions }
        let restore = DocumentBrowserAction(identifier: "dossier.restore", title: tr("Restore"), iconName: "edit-undo-symbolic",
                                            supportsMultipleItems: true) { [weak self] urls in self?.restore(urls) }
        return [restore]
    }

    // MARK: Gestures

    func attachMenuGestures(to view: WidgetPointer) {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, guint(GDK_BUTTON_SECONDARY))
        connectClickSignal(raw(click), "pressed") { [weak self] _, x, y in
            self?.menuRequested(on: view, x: x, y: y)
        }
        gtk_widget_add_controller(view, click)
        // A long press, by touch or by a mouse held still: a mouse's long press on the empty
        // background is left to the rubber band (a slow start of a band selection).
        let press = gtk_gesture_long_press_new()!
        connectPairSignal(raw(press), "pressed") { [weak self] x, y in
            guard let self else { return }
            let touch = gtk_gesture_get_device(press).map { gdk_device_get_source($0) == GDK_SOURCE_TOUCHSCREEN } ?? false
            guard touch || self.item(on: view, x: x, y: y) != nil else { return }
            gtk_gesture_set_state(press, GTK_EVENT_SEQUENCE_CLAIMED)
            self.menuRequested(on: view, x: x, y: y)
        }
        gtk_widget_add_controller(view, press)
    }

    private func item(on view: WidgetPointer, x: Double, y: Double) -> BrowserItem? {
        view == grid.grid ? grid.item(at: x, y) : list.item(at: x, y)
    }

    private func menuRequested(on view: WidgetPointer, x: Double, y: Double) {
        guard let item = item(on: view, x: x, y: y), let position = model.position(of: item.url) else {
            gtk_selection_model_unselect_all(selection)
            presentBackgroundMenu(on: view, x: x, y: y)
            return
        }
        // As in Files: a click on an unselected item selects only it.
        if !selectedPositions.contains(position) { gtk_selection_model_select_item(selection, guint(position), 1) }
        presentOptionsMenu(for: selectedURLs, at: view, point: (x, y))
    }

    /// Opens the options menu for `urls` on `widget`, pointing at `point` (all of it if nil).
    public func presentOptionsMenu(for urls: [URL], at widget: Widget, point: (x: Double, y: Double)? = nil) {
        presentOptionsMenu(for: urls, at: widget.gtkWidget, point: point)
    }

    func presentOptionsMenu(for urls: [URL], at widget: WidgetPointer, point: (x: Double, y: Double)? = nil) {
        guard !urls.isEmpty else { return }
        interactionController(for: urls).presentOptionsMenu(from: widget, at: point)
    }

    /// The Menu key or Shift+F10: the selection's menu at its first item's cell.
    func presentOptionsMenuForSelection() {
        let urls = selectedURLs
        guard let first = urls.first else { return }
        let view = currentView
        if let cell = itemWidget(for: first), let bounds = bounds(of: cell, in: view) {
            presentOptionsMenu(for: urls, at: view, point: (bounds.x + bounds.width / 2, bounds.y + bounds.height / 2))
        } else {
            presentOptionsMenu(for: urls, at: view)
        }
    }

    // MARK: Opening

    /// Opens `urls`: a folder in place (when it is the only one), files in their default apps
    /// through the interaction controller (each app once, the files' own locations, recorded
    /// in Recents), with a spinner on each item until its app has started.
    public func open(_ urls: [URL]) {
        guard !urls.isEmpty else { return }
        if urls.count == 1, let url = urls.first, isFolderItem(url) {
            go(to: .folder(url))
            return
        }
        let files = urls.filter { !isFolderItem($0) }
        guard !files.isEmpty else { return }
        if let documentOpener {
            documentOpener(files)
            return
        }
        interactionController(for: files).open()
    }

    func isFolderItem(_ url: URL) -> Bool {
        if let position = model.position(of: url) { return model[position].isDirectory && model[position].trashed == nil }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Shows each item in its folder: the browser goes to the (first) item's folder and selects it.
    func showInFolder(_ urls: [URL]) {
        guard let first = urls.first else { return }
        let folder = first.deletingLastPathComponent()
        let names = Set(urls.filter { $0.deletingLastPathComponent().path == folder.path }.map(\.lastPathComponent))
        go(to: .folder(folder))
        selectWhenShown(names.map { folder.appendingPathComponent($0) })
    }

    // MARK: DocumentInteractionDelegate

    public func parentWindow(for controller: DocumentInteractionController) -> WindowWidget? {
        parentWindow.map { WindowWidget(gtkWindow: $0) }
    }

    public func sourceWidget(for controller: DocumentInteractionController) -> Widget? {
        preview.sourceWidget?(controller.url).map { Widget(gtkWidget: $0) }
    }

    public func documentInteractionController(_ controller: DocumentInteractionController, canPerform action: DocumentAction) -> Bool {
        let inTrash = location == .trash
        switch action {
        case .open, .openWith, .duplicate, .moveToTrash, .copy, .tags, .addToFavorites:
            return !inTrash
        case .rename:
            return !inTrash && controller.urls.count == 1
        case .showInFolder:
            guard !inTrash else { return false }
            if case .folder(let folder) = location {
                return controller.urls.contains { $0.deletingLastPathComponent().standardizedFileURL.path != folder.standardizedFileURL.path }
            }
            return true
        case .preview, .copyPath, .properties:
            return true
        case .print:
            return !inTrash && controller.canPerformByDefault(.print)
        case .custom(let identifier):
            guard let found = controller.customActions.first(where: { $0.identifier == identifier }) else { return false }
            return found.handler != nil || actionHandler != nil
        }
    }

    public func documentInteractionController(_ controller: DocumentInteractionController, perform action: DocumentAction) -> Bool {
        let urls = controller.urls
        switch action {
        case .open:
            if urls.count == 1, isFolderItem(urls[0]) {
                go(to: .folder(urls[0]))
                return true
            }
            guard let documentOpener, !urls.contains(where: isFolderItem) else { return false }
            documentOpener(urls)
            return true
        case .preview:
            let positions = urls.compactMap { model.position(of: $0) }
            if positions.count == urls.count {
                preview.present(positions: positions, transientFor: parentWindow)
            } else {
                preview.present(urls: urls, transientFor: parentWindow)
            }
            return true
        case .rename:
            beginRename(urls[0])
            return true
        case .showInFolder:
            showInFolder(urls)
            return true
        case .moveToTrash:
            moveToTrash(urls)
            return true
        case .duplicate:
            duplicate(urls)
            return true
        case .custom(let identifier):
            guard let found = controller.customActions.first(where: { $0.identifier == identifier }), found.handler == nil else {
                return false
            }
            actionHandler?(found, urls)
            return true
        default:
            return false
        }
    }

    public func documentInteractionController(_ controller: DocumentInteractionController, willBeginSendingTo application: Application) {
        launchIndicator.start(controller.urls, in: self)
    }

    public func documentInteractionController(_ controller: DocumentInteractionController, didEndSendingTo application: Application,
                                              error: ApplicationError?) {
        launchIndicator.launched(controller.urls, failed: error != nil, in: self)
    }

    public func documentInteractionController(_ controller: DocumentInteractionController, didPerform action: DocumentAction,
                                              result: Result<[FileOperationResult], InteractionError>) {
        switch result {
        case .failure(let error): showToast(error.description)
        case .success(let results):
            if action == .copy { showToast(trn("%s item copied to the clipboard", "%s items copied to the clipboard",
                                               controller.urls.count, String(controller.urls.count))) }
            if !results.isEmpty { recordUndoable(results, title: ResultTitle.of(results)) }
        }
    }

    // MARK: Where items are on screen

    /// The grid or list, whichever is shown.
    var currentView: WidgetPointer { viewMode == .grid ? grid.grid : list.columnView }

    /// The widget showing the item at `url` in the current view, if it is on screen.
    func itemWidget(for url: URL) -> WidgetPointer? {
        if viewMode == .grid { return grid.cell(showing: url)?.root }
        return list.nameCell(showing: url)?.root
    }

    /// The label showing the item's name in the current view, if it is on screen.
    func nameLabel(for url: URL) -> WidgetPointer? {
        viewMode == .grid ? grid.cell(showing: url)?.label : list.nameCell(showing: url)?.label
    }

    /// The overlay over the item's icon in the current view (for a spinner), if on screen.
    func iconOverlay(for url: URL) -> WidgetPointer? {
        viewMode == .grid ? grid.cell(showing: url)?.iconOverlay : list.nameCell(showing: url)?.iconOverlay
    }

    /// `widget`'s bounds in `target`'s coordinates.
    func bounds(of widget: WidgetPointer, in target: WidgetPointer) -> (x: Double, y: Double, width: Double, height: Double)? {
        var x = 0.0, y = 0.0, width = 0.0, height = 0.0
        guard dossier_widget_bounds(widget, target, &x, &y, &width, &height) != 0 else { return nil }
        return (x, y, width, height)
    }
}
