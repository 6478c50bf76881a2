import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// How the browser's parts talk to each other: the feed to the status pages, the search to
/// the feed, the views' activation and clicks to the browser, the actions and keys.
extension DocumentBrowser {
    func wire() {
        feed.stateDidChange = { [weak self] _ in self?.updateVisibleChild() }
        feed.itemsDidChange = { [weak self] in self?.updateVisibleChild() }
        feed.warning = { [weak self] message in self?.toast(message) }
        feed.folderDidList = { [weak self] items in
            guard let self, case .folder(let url) = self.location else { return }
            self.folderThumbnails.folderListed(url, items: items)
        }
        feed.folderItemsDidArrive = { [weak self] items in self?.folderThumbnails.itemsArrived(items) }
        path.navigate = { [weak self] url in self?.go(to: .folder(url)) }
        path.typed = { [weak self] text in self?.openTypedLocation(text) }
        path.returnFocus = { [weak self] in self?.focusItemsNow() }
        connector.stateDidChange = { [weak self] in self?.updateVisibleChild() }
        list.sortChanged = { [weak self] sort in self?.chooseSort(sort) }
        grid.onActivate { [weak self] position in self?.activate(position) }
        list.onActivate { [weak self] position in self?.activate(position) }
        trashActions.report = { [weak self] message in self?.toast(message) }
        trashActions.didEmpty = { [weak self] in self?.undoStack.dropTrashings() }
        trashActions.didChange = { [weak self] in
            guard let self, self.location == .trash else { return }
            self.feed.reload()
        }
        preview.follow = { [weak self] position in self?.selectOnly(position) }
        preview.sourceWidget = { [weak self] url in
            guard let self else { return nil }
            return self.viewMode == .grid ? self.grid.cell(showing: url)?.image : self.list.icon(showing: url)
        }
        search.captureKeys(from: contentWidget)
        search.textDidChange = { [weak self] text in self?.searchChanged(text) }
        search.activeDidChange = { [weak self] active in
            guard let self else { return }
            if active {
                self.scrollBeforeSearch = self.scrollOffsets
            } else {
                self.search.cancel()
                self.model.filterText = ""
                self.feed.showExtras(nil)
                self.updateVisibleChild()
                // Back where the folder was before the search (the results were elsewhere).
                self.scroll(to: self.scrollBeforeSearch ?? [0, 0])
                self.scrollBeforeSearch = nil
                // The search field is going away: its focus goes back to the items.
                self.focusItemsNow()
            }
            self.actionGroup.setState("search", active)
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
        actionGroup.add("open") { [weak self] in self.map { $0.open($0.selectedURLs) } }
        actionGroup.add("preview") { [weak self] in self?.previewSelection() }
        actionGroup.add("back") { [weak self] in self?.goBack() }
        actionGroup.add("forward") { [weak self] in self?.goForward() }
        actionGroup.add("up") { [weak self] in self?.goUp() }
        actionGroup.add("select-all") { [weak self] in
            guard let self else { return }
            gtk_selection_model_select_all(self.selection)
        }
        actionGroup.add("trash") { [weak self] in self.map { $0.moveToTrash($0.selectedURLs) } }
        actionGroup.add("copy-path") { [weak self] in self.map { $0.copyPaths($0.selectedURLs) } }
        actionGroup.add("reload") { [weak self] in self?.feed.reload() }
        actionGroup.add("retry") { [weak self] in self?.retry() }
        actionGroup.add("enter-location") { [weak self] in self?.enterLocation() }
        actionGroup.add("connect-to-server") { [weak self] in self?.presentConnectToServer() }
        actionGroup.add("zoom-in") { [weak self] in self.map { $0.zoomLevel += 1 } }
        actionGroup.add("zoom-out") { [weak self] in self.map { $0.zoomLevel -= 1 } }
        actionGroup.add("zoom-reset") { [weak self] in self?.zoomLevel = BrowserZoom.defaultLevel }
        actionGroup.add("toggle-view-mode") { [weak self] in
            guard let self else { return }
            self.viewMode = self.viewMode == .grid ? .list : .grid
        }
        actionGroup.add("restore") { [weak self] in
            guard let self else { return }
            self.trashActions.restore(self.selectedPositions.compactMap { self.model[$0].trashed })
        }
        actionGroup.add("empty-trash") { [weak self] in
            guard let self else { return }
            self.trashActions.confirmEmpty(parent: self.contentWidget)
        }
        actionGroup.addChoice("view-mode", viewMode.rawValue) { [weak self] value in
            self?.viewMode = BrowserViewMode(rawValue: value) ?? .grid
        }
        actionGroup.addChoice("sort", sort.key.rawValue) { [weak self] value in
            guard let self, let key = BrowserSort.Key(rawValue: value) else { return }
            self.chooseSort(BrowserSort(key: key, reversed: self.sort.reversed))
        }
        actionGroup.addToggle("sort-reversed", sort.reversed) { [weak self] value in
            guard let self else { return }
            self.chooseSort(BrowserSort(key: self.sort.key, reversed: value))
        }
        actionGroup.addToggle("show-hidden", showsHidden) { [weak self] value in self?.showsHidden = value }
        actionGroup.addToggle("search", false) { [weak self] value in
            guard let self else { return }
            if value { self.focusSearch() } else { self.search.isActive = false }
        }
        actionGroup.setEnabled("back", false)
        actionGroup.setEnabled("forward", false)
    }

    /// Keys the views do not handle themselves. In the capture phase, so Space previews even
    /// where a list item would take it to select; never while typing in the search field.
    func installKeys() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        connectKeyPressed(raw(keys)) { [weak self] key, state in
            self?.handleKey(key, state: state) ?? false
        }
        gtk_widget_add_controller(contentWidget, keys)
    }

    private func handleKey(_ key: UInt32, state: UInt32) -> Bool {
        let modifiers = state & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
        let alt = modifiers == GDK_ALT_MASK.rawValue
        let control = modifiers == GDK_CONTROL_MASK.rawValue
        let typing = isTyping
        switch Int32(key) {
        case GDK_KEY_space where modifiers == 0 && !typing: previewSelection()
        case GDK_KEY_BackSpace where modifiers == 0 && !typing: goUp()
        case GDK_KEY_Up where alt: goUp()
        case GDK_KEY_Left where alt: goBack()
        case GDK_KEY_Right where alt: goForward()
        case GDK_KEY_f where control: focusSearch()
        case GDK_KEY_Delete where modifiers == 0 && !typing: moveToTrash(selectedURLs)
        case GDK_KEY_Escape where search.isActive && renaming == nil: search.isActive = false
        case GDK_KEY_Menu where modifiers == 0 && !typing: presentOptionsMenuForSelection()
        case GDK_KEY_F10 where modifiers == GDK_SHIFT_MASK.rawValue && !typing: presentOptionsMenuForSelection()
        case let enter where Self.enterKeys.contains(enter) && modifiers == 0 && itemsViewItselfHasFocus:
            open(selectedURLs)
        default: return modifiers == 0 && !typing && selectFirstItemForArrow(key)
        }
        return true
    }

    private static let enterKeys = [GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter]

    /// Whether keys go to a text field: the search field, or the inline rename's entry
    /// (a popover's keys pass through the browser on their way up).
    var isTyping: Bool {
        if renaming != nil { return true }
        guard let root = gtk_widget_get_root(contentWidget), let focus = gtk_root_get_focus(root) else { return false }
        if focus == search.entry || gtk_widget_is_ancestor(focus, search.entry) != 0 { return true }
        return g_type_check_instance_is_a(UnsafeMutableRawPointer(focus).assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_editable_get_type()) != 0
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

    func copyPaths(_ urls: [URL]) {
        guard !urls.isEmpty else { return }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(contentWidget), urls.map(\.path).joined(separator: "\n"))
    }
}
