import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// How the browser's parts talk to each other: the feed to the status pages, the search to
/// the feed, the views' activation and clicks to the browser, the actions and keys.
extension DocumentBrowser {
    func wire() {
        feed.stateDidChange = { [weak self] _ in self?.updateVisibleChild() }
        feed.itemsDidChange = { [weak self] in self?.updateVisibleChild() }
        feed.warning = { [weak self] message in self?.toast(message) }
        path.navigate = { [weak self] url in self?.go(to: .folder(url)) }
        list.sortChanged = { [weak self] sort in self?.sort = sort }
        grid.onActivate { [weak self] position in self?.activate(position) }
        list.onActivate { [weak self] position in self?.activate(position) }
        trashActions.report = { [weak self] message in self?.toast(message) }
        trashActions.didChange = { [weak self] in
            guard let self, self.location == .trash else { return }
            self.feed.reload()
        }
        preview.follow = { [weak self] position in self?.selectOnly(position) }
        preview.sourceWidget = { [weak self] url in
            guard let self else { return nil }
            return self.viewMode == .grid ? self.grid.cell(showing: url)?.image : self.list.icon(showing: url)
        }
        search.captureKeys(from: widget)
        search.textDidChange = { [weak self] text in self?.searchChanged(text) }
        search.activeDidChange = { [weak self] active in
            guard let self else { return }
            if !active {
                self.search.cancel()
                self.model.filterText = ""
                self.feed.showExtras(nil)
                self.updateVisibleChild()
            }
            self.actions.setState("search", active)
        }
        for view in [grid.grid, list.columnView] { attachMenuGestures(to: view) }
    }

    private func searchChanged(_ text: String) {
        model.filterText = text
        guard case .folder(let url) = location, !text.isEmpty else {
            search.cancel()
            feed.showExtras(nil)
            updateVisibleChild()
            return
        }
        feed.showExtras([])
        search.searchSubfolders(of: url, for: text, showsHidden: showsHidden) { [weak self] items, _ in
            guard let self else { return }
            self.feed.showExtras(items)
            self.updateVisibleChild()
        }
        updateVisibleChild()
    }

    /// Double-click or Enter on `position`: the selection when it is part of it, else the item.
    func activate(_ position: Int) {
        guard position < model.count else { return }
        let selected = selectedPositions
        let positions = selected.contains(position) ? selected : [position]
        open(positions.map { model[$0].url })
    }

    // MARK: Actions and keys

    func installActions() {
        actions.add("open") { [weak self] in self.map { $0.open($0.selectedURLs) } }
        actions.add("preview") { [weak self] in self?.previewSelection() }
        actions.add("back") { [weak self] in self?.goBack() }
        actions.add("forward") { [weak self] in self?.goForward() }
        actions.add("up") { [weak self] in self?.goUp() }
        actions.add("select-all") { [weak self] in
            guard let self else { return }
            gtk_selection_model_select_all(self.selection)
        }
        actions.add("trash") { [weak self] in self.map { $0.moveToTrash($0.selectedURLs) } }
        actions.add("copy-path") { [weak self] in self.map { $0.copyPaths($0.selectedURLs) } }
        actions.add("reload") { [weak self] in self?.feed.reload() }
        actions.add("zoom-in") { [weak self] in self.map { $0.zoomLevel += 1 } }
        actions.add("zoom-out") { [weak self] in self.map { $0.zoomLevel -= 1 } }
        actions.add("zoom-reset") { [weak self] in self?.zoomLevel = BrowserZoom.defaultLevel }
        actions.add("toggle-view-mode") { [weak self] in
            guard let self else { return }
            self.viewMode = self.viewMode == .grid ? .list : .grid
        }
        actions.add("restore") { [weak self] in
            guard let self else { return }
            self.trashActions.restore(self.selectedPositions.compactMap { self.model[$0].trashed })
        }
        actions.add("empty-trash") { [weak self] in
            guard let self else { return }
            self.trashActions.confirmEmpty(parent: self.widget)
        }
        actions.addChoice("view-mode", viewMode.rawValue) { [weak self] value in
            self?.viewMode = BrowserViewMode(rawValue: value) ?? .grid
        }
        actions.addChoice("sort", sort.key.rawValue) { [weak self] value in
            guard let self, let key = BrowserSort.Key(rawValue: value) else { return }
            self.sort = BrowserSort(key: key, reversed: self.sort.reversed)
        }
        actions.addToggle("sort-reversed", sort.reversed) { [weak self] value in
            guard let self else { return }
            self.sort = BrowserSort(key: self.sort.key, reversed: value)
        }
        actions.addToggle("show-hidden", showsHidden) { [weak self] value in self?.showsHidden = value }
        actions.addToggle("search", false) { [weak self] value in
            guard let self else { return }
            if value { self.focusSearch() } else { self.search.isActive = false }
        }
        actions.setEnabled("back", false)
        actions.setEnabled("forward", false)
    }

    /// Keys the views do not handle themselves. In the capture phase, so Space previews even
    /// where a list item would take it to select; never while typing in the search field.
    func installKeys() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        connectKeyPressed(raw(keys)) { [weak self] key, state in
            MainActor.assumeIsolated { self?.handleKey(key, state: state) ?? false }
        }
        gtk_widget_add_controller(widget, keys)
    }

    private func handleKey(_ key: UInt32, state: UInt32) -> Bool {
        let modifiers = state & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
        let alt = modifiers == GDK_ALT_MASK.rawValue
        let control = modifiers == GDK_CONTROL_MASK.rawValue
        let typing = isTypingInSearch
        switch Int32(key) {
        case GDK_KEY_space where modifiers == 0 && !typing: previewSelection()
        case GDK_KEY_BackSpace where modifiers == 0 && !typing: goUp()
        case GDK_KEY_Up where alt: goUp()
        case GDK_KEY_Left where alt: goBack()
        case GDK_KEY_Right where alt: goForward()
        case GDK_KEY_f where control: focusSearch()
        case GDK_KEY_Delete where modifiers == 0 && !typing: moveToTrash(selectedURLs)
        case GDK_KEY_Escape where search.isActive: search.isActive = false
        default: return false
        }
        return true
    }

    private var isTypingInSearch: Bool {
        guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return false }
        return focus == search.entry || gtk_widget_is_ancestor(focus, search.entry) != 0
    }

    // MARK: What the actions do

    /// Space: several selected items preview as a list; one previews in the folder's order.
    func previewSelection() {
        if preview.isPresented {
            preview.controller.dismiss()
            return
        }
        let positions = selectedPositions
        preview.present(positions: positions.isEmpty ? [] : positions, transientFor: parentWindow)
    }

    /// Opens `urls`: a folder in place (when it is the only one), files in their default apps
    /// (each app once, with the files' own locations), recorded in Recents.
    public func open(_ urls: [URL]) {
        guard !urls.isEmpty else { return }
        if urls.count == 1, let url = urls.first, isFolderItem(url) {
            go(to: .folder(url))
            return
        }
        let files = urls.filter { !isFolderItem($0) }
        let directories = feed.directories
        Task.detached {
            let registry = ApplicationRegistry()
            var byApp: [String: (app: Application, urls: [URL])] = [:]
            var problems: [String] = []
            for url in files {
                let type = (try? DocumentType(contentsOf: url.path)) ?? DocumentType(fileName: url.lastPathComponent)
                guard let app = registry.defaultApplication(for: type) else {
                    problems.append(ApplicationError.noApplication(files: url.lastPathComponent, type: type.localizedDescription).description)
                    continue
                }
                byApp[app.id, default: (app, [])].urls.append(url)
            }
            var opened: [URL] = []
            for (app, urls) in byApp.values {
                do throws(ApplicationError) {
                    try registry.open(urls.map(\.absoluteString), with: app)
                    opened += urls
                } catch {
                    problems.append(error.description)
                }
            }
            if !opened.isEmpty { try? RecentDocuments(directories: directories).record(opened) }
            let messages = problems
            await MainActor.run { [weak self] in messages.forEach { self?.toast($0) } }
        }
    }

    private func isFolderItem(_ url: URL) -> Bool {
        if let position = model.position(of: url) { return model[position].isDirectory && model[position].trashed == nil }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    func moveToTrash(_ urls: [URL]) {
        guard !urls.isEmpty, location != .trash else { return }
        let trash = feed.trash
        Task.detached {
            var problems: [String] = []
            for url in urls {
                do throws(TrashError) {
                    _ = try trash.trash(url)
                    DirectoryQuery.noteChange(at: url)
                } catch {
                    problems.append(error.description)
                }
            }
            let messages = problems
            let count = urls.count - problems.count
            await MainActor.run { [weak self] in
                messages.forEach { self?.toast($0) }
                if count > 0 { self?.toast(trn("Moved %s item to the Trash", "Moved %s items to the Trash", count, String(count))) }
            }
        }
    }

    func copyPaths(_ urls: [URL]) {
        guard !urls.isEmpty else { return }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(widget), urls.map(\.path).joined(separator: "\n"))
    }
}
