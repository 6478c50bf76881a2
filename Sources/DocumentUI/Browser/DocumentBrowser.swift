import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// A location's documents as a grid of thumbnails or a list: the UIDocumentBrowserViewController
/// of Linux. It stays fluid on a folder of 100,000 files (only the cells on screen exist,
/// thumbnails load behind placeholder icons, visible ones first) and shows every change on
/// disk as it happens. Double-click or Enter opens an item (a folder in place), Space
/// previews the selection, a right-click or long-press opens the item's menu; the search bar
/// filters the folder as you type and searches its subfolders in the background.
///
/// Put `widget` in a window, `pathBar` in its header bar's title and `headerControls` at its
/// end. The browser's actions are in the group "browser." on `widget` (`browser.preview`,
/// `browser.back`, `browser.up`, `browser.search`…): the window only adds accelerators.
@MainActor
public final class DocumentBrowser {
    /// The content area: search bar, the grid or list, status pages, the Trash's action bar.
    public var widget: Widget { Widget(gtkWidget: contentWidget) }
    /// A path bar (a button per ancestor folder; a title for recents, a tag, the Trash).
    public var pathBar: Widget { Widget(gtkWidget: pathBarWidget) }
    /// Search toggle, view-mode toggle and view menu, for the end of the window's header bar.
    public var headerControls: Widget { Widget(gtkWidget: headerControlsWidget) }
    /// The GtkWidgets `widget`, `pathBar` and `headerControls` wrap.
    let contentWidget: WidgetPointer, pathBarWidget: WidgetPointer, headerControlsWidget: WidgetPointer

    /// The location shown now; `go(to:)` changes it.
    public private(set) var location: BrowserLocation
    /// Called after every navigation, with the new location.
    public var locationDidChange: ((BrowserLocation) -> Void)?
    /// Called when the view mode, sort, hidden files or zoom changed (for the window to keep).
    public var stateDidChange: (() -> Void)?
    /// The app's own actions on documents: offered in the options menu, and in the header
    /// while the selection suits them (each one's types, count and availability).
    public var actions: [DocumentBrowserAction] = [] {
        didSet { updateHeaderActions() }
    }
    /// Performs an action of `actions` that has no handler of its own.
    public var actionHandler: ((DocumentBrowserAction, [URL]) -> Void)?
    /// Only documents of these types (or of a subtype) are shown, besides folders; empty shows
    /// every document. A document-based app scopes its browser to the types it edits.
    public var contentTypes: [DocumentType] = [] {
        didSet {
            model.contentTypes = contentTypes
            folderThumbnails.contentTypes = contentTypes
        }
    }
    /// The files New Document offers to copy into the shown folder; nil offers those in the
    /// user's Templates folder. A document-based app offers its own blank document here.
    public var templates: [URL]? {
        didSet { refreshTemplates() }
    }
    /// Opens files in the app itself when set (double-click, Enter, the menu's Open), instead
    /// of in their default applications: a document-based app opens its documents in its editor.
    public var documentOpener: (([URL]) -> Void)?

    let model = BrowserListModel()
    let feed: LocationFeed
    let selection: OpaquePointer
    let grid: ItemGridView
    let list: ItemListView
    let search = BrowserSearch()
    let status = StatusPage()
    let path = PathBar()
    /// Mounts a remote location's server before it is listed.
    let connector = ServerConnector()
    let controls: HeaderControls
    let trashActions: TrashActions
    let actionGroup = BrowserActions()
    let preview: BrowserPreview
    let loader: ThumbnailLoader
    /// Thumbnails for the rest of the folder, made in the background.
    let folderThumbnails: FolderThumbnails
    let stack: WidgetPointer
    /// The "loading" page's spinner: spinning only while that page is shown. A spinner spins by
    /// a CSS animation, which GTK 4.8 runs on a page the stack hides too: left spinning, it
    /// would draw every frame for as long as the window is open, each restyling the stack and
    /// laying out the window again (on X11 with a round trip to the server for the work area),
    /// so the main thread would be busy when nothing moves and a folder's grid would come up later.
    private let loadingSpinner: WidgetPointer
    let toasts: OpaquePointer
    var history = BrowserHistory()
    // Working on items (Browser/Actions).
    let undoStack = UndoStack()
    let operations = OperationsProgress()
    let launchIndicator = LaunchIndicator()
    let templatesMenu = g_menu_new()!
    let headerActions = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
    var newButton: WidgetPointer?
    var renaming: InlineRename?
    var pending = PendingSelection()
    var clipboardHoldsCut = false
    /// Where the grid and the list were scrolled when the search began (restored after it).
    var scrollBeforeSearch: [Double]?
    /// The keyboard focus promised to the items view once it is on screen (BrowserFocus).
    var itemsFocusRequest: ItemsFocusRequest?

    /// A browser showing `location`.
    public convenience init(location: BrowserLocation) {
        self.init(location: location, directories: UserDirectories(), trash: Trash())
    }

    /// A browser reading recents, tags and the Trash from `directories` and `trash`, and
    /// asking `thumbnails` for its thumbnails.
    init(location: BrowserLocation, directories: UserDirectories, trash: Trash,
         thumbnails: ThumbnailGenerator = ThumbnailLoader.sharedGenerator) {
        self.location = location
        StageTrace.mark("browser made")
        loader = ThumbnailLoader(generator: thumbnails)
        feed = LocationFeed(model: model, directories: directories, trash: trash)
        g_object_ref(raw(model.object.model))  // the selection takes the reference it is given
        selection = gtk_multi_selection_new(model.object.model)
        model.selection = selection
        grid = ItemGridView(selection: selection, loader: loader, pixels: BrowserZoom.iconSizes[BrowserZoom.defaultLevel])
        grid.arrivals = model.arrivals
        list = ItemListView(selection: selection)
        list.arrivals = model.arrivals
        controls = HeaderControls(searchBar: search.bar)
        trashActions = TrashActions(trash: trash)
        preview = BrowserPreview(model: model)
        pathBarWidget = path.widget
        headerControlsWidget = controls.widget

        stack = gtk_stack_new()
        gtk_stack_add_named(OpaquePointer(stack), grid.scrolled, "grid")
        gtk_stack_add_named(OpaquePointer(stack), list.scrolled, "list")
        gtk_stack_add_named(OpaquePointer(stack), status.widget, "status")
        let spinner = gtk_spinner_new()!
        loadingSpinner = spinner
        gtk_widget_set_size_request(spinner, 32, 32)
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        setAccessibleName(spinner, tr("Loading"))
        gtk_stack_add_named(OpaquePointer(stack), spinner, "loading")
        gtk_widget_set_vexpand(stack, 1)

        let content = makeBox(GTK_ORIENTATION_VERTICAL, [search.bar, stack, trashActions.bar])
        toasts = OpaquePointer(adw_toast_overlay_new())
        adw_toast_overlay_set_child(toasts, content)
        contentWidget = GtkSupport.widget(toasts)
        folderThumbnails = FolderThumbnails(generator: thumbnails, requests: grid.requests, widget: contentWidget,
                                            scrolled: [grid.scrolled, list.scrolled], pixels: grid.pixels)
        // The window places the path bar and the controls in its header bar, outside `widget`:
        // they need the group as well.
        for part in [contentWidget, pathBarWidget, headerControlsWidget] {
            gtk_widget_insert_action_group(part, "browser", cast(actionGroup.group))
        }
        setAccessibleName(contentWidget, tr("Browser"))

        wire()
        installActions()
        installKeys()
        installItemActions()
        applyViewMode()
        controls.show(viewMode)
        focusItemsOnMap()
        show(location)
    }

    isolated deinit {
        // The widgets may be gone with their window: only the background work is stopped.
        feed.stop()
        folderThumbnails.stop()
        search.stopWork()
        g_object_unref(raw(selection))
        g_object_unref(raw(templatesMenu))
    }

    // MARK: Navigation

    /// Shows `location`; the current one goes on the back stack.
    public func go(to location: BrowserLocation) {
        guard location != self.location else { return }
        history.leave(self.location)
        self.location = location
        show(location)
    }

    /// Shows the location before the current one, if there is one; the current one goes on the forward stack.
    public func goBack() {
        guard let target = history.goBack(from: location) else { return }
        location = target
        show(target)
    }

    /// Shows the location `goBack()` left, if there is one.
    public func goForward() {
        guard let target = history.goForward(from: location) else { return }
        location = target
        show(target)
    }

    /// Whether there is a location to go back to.
    public var canGoBack: Bool { history.canGoBack }
    /// Whether there is a location to go forward to.
    public var canGoForward: Bool { history.canGoForward }

    /// Goes to the folder that holds the current one.
    public func goUp() {
        guard case .folder(let url) = location, url.path != "/" else { return }
        let current = url
        go(to: .folder(url.deletingLastPathComponent()))
        // Left selected, as in Files: Enter goes back in, the arrows start from it.
        selectWhenShown([current])
    }

    func show(_ location: BrowserLocation) {
        folderThumbnails.stop()
        search.cancel()
        if search.isActive { search.isActive = false }
        model.filterText = ""
        feed.showExtras(nil)
        path.show(location)
        gtk_widget_set_visible(trashActions.bar, location == .trash ? 1 : 0)
        connector.cancel()
        if case .folder(let url) = location, ServerConnector.needsMount(url) {
            // Listed once its server is mounted; the dialogs ask for a password meanwhile.
            feed.hold(location, sort: sort, showsHidden: showsHidden)
            connector.connect(url, parent: contentWidget) { [weak self] in
                guard let self, self.location == location else { return }
                self.path.show(location)  // the mount's name now
                self.feed.show(location, sort: self.sort, showsHidden: self.showsHidden)
                self.locationDidChange?(location)
            }
        } else {
            feed.show(location, sort: sort, showsHidden: showsHidden)
        }
        showSort()
        gtk_selection_model_unselect_all(selection)
        scrollToTop()
        actionGroup.setEnabled("back", canGoBack)
        actionGroup.setEnabled("forward", canGoForward)
        if case .folder(let url) = location { actionGroup.setEnabled("up", url.path != "/") } else { actionGroup.setEnabled("up", false) }
        updateVisibleChild()
        focusItemsWhenShown()
        locationShown()
        locationDidChange?(location)
    }

    // MARK: View state

    /// Whether items show as a grid of icons or as a list with columns.
    public var viewMode: BrowserViewMode = .grid {
        didSet {
            guard viewMode != oldValue else { return }
            // The other view keeps the focus the hidden one had.
            if itemsViewHasFocus { itemsFocusRequest = ItemsFocusRequest(focusThen: nil) }
            applyViewMode()
            controls.show(viewMode)
            actionGroup.setState("view-mode", viewMode.rawValue)
            stateDidChange?()
        }
    }

    /// The order items are shown in; Recents and the Trash keep their own order until one is chosen.
    public var sort = BrowserSort() {
        didSet {
            guard sort != oldValue else { return }
            feed.setSort(sort)
            showSort()
            stateDidChange?()
        }
    }

    /// The user picked `sort` (view menu, a list header): it applies even where the location's
    /// own order did (Recents by last use, the Trash by deletion date).
    func chooseSort(_ chosen: BrowserSort) {
        feed.leaveLocationOrder()
        sort = chosen
        showSort()
    }

    /// Shows the order in the view menu and the list's headers: none checked while Recents or
    /// the Trash are in their own order.
    func showSort() {
        let own = feed.order != .sort(sort)
        list.show(own ? nil : sort)
        actionGroup.setState("sort", own ? "" : sort.key.rawValue)
        actionGroup.setState("sort-reversed", own ? false : sort.reversed)
    }

    /// Whether names starting with "." and those in a folder's `.hidden` file are shown.
    public var showsHidden = false {
        didSet {
            guard showsHidden != oldValue else { return }
            feed.setShowsHidden(showsHidden)
            actionGroup.setState("show-hidden", showsHidden)
            stateDidChange?()
        }
    }

    /// An index into `BrowserZoom.iconSizes`: the grid's icon size.
    public var zoomLevel = BrowserZoom.defaultLevel {
        didSet {
            let clamped = BrowserZoom.clamp(zoomLevel)
            if clamped != zoomLevel { zoomLevel = clamped; return }
            guard zoomLevel != oldValue else { return }
            grid.pixels = BrowserZoom.iconSizes[zoomLevel]
            folderThumbnails.pixels = grid.pixels
            actionGroup.setEnabled("zoom-in", zoomLevel < BrowserZoom.iconSizes.count - 1)
            actionGroup.setEnabled("zoom-out", zoomLevel > 0)
            stateDidChange?()
        }
    }

    private func applyViewMode() {
        updateVisibleChild()
    }

    // MARK: Selection

    /// The selected items' locations, in view order.
    public var selectedURLs: [URL] { selectedPositions.map { model[$0].url } }

    var selectedPositions: [Int] {
        guard let bitset = gtk_selection_model_get_selection(selection) else { return [] }
        defer { gtk_bitset_unref(bitset) }
        let count = Int(gtk_bitset_get_size(bitset))
        var positions: [Int] = []
        for index in 0..<count {
            let position = Int(gtk_bitset_get_nth(bitset, guint(index)))
            if position < model.count { positions.append(position) }
        }
        return positions
    }

    /// Selects the items at `urls` (those shown) and scrolls to the first.
    public func select(_ urls: [URL]) {
        let positions = urls.compactMap { model.position(of: $0) }
        gtk_selection_model_unselect_all(selection)
        for position in positions { gtk_selection_model_select_item(selection, guint(position), 0) }
        if let first = positions.min() { reveal(first) }
    }

    /// Puts the keyboard focus in the search field (opening the search bar).
    public func focusSearch() {
        search.isActive = true
        gtk_widget_grab_focus(search.entry)
    }

    /// Selects only `position` and scrolls it into view, focused.
    func selectOnly(_ position: Int) {
        guard position < model.count else { return }
        gtk_selection_model_select_item(selection, guint(position), 1)
        reveal(position)
    }

    func reveal(_ position: Int) {
        let view = viewMode == .grid ? grid.grid : list.columnView
        gtk_widget_activate_action_variant(view, "list.scroll-to-item", g_variant_new_uint32(guint32(position)))
    }

    private func scrollToTop() {
        scrollBeforeSearch = nil
        scroll(to: [0, 0])
    }

    /// Where the grid and the list are scrolled (their vertical offsets).
    var scrollOffsets: [Double] {
        [grid.scrolled, list.scrolled].map { gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(cast($0))) }
    }

    /// Scrolls the grid and the list back to `offsets` — once the views have laid out the
    /// items again (the adjustments grow with the layout, a few frames after the items came:
    /// counted in frames, so a loaded machine's slower frames still get there).
    func scroll(to offsets: [Double], attempt: Int = 0) {
        var short = false
        for (scrolled, offset) in zip([grid.scrolled, list.scrolled], offsets) {
            let adjustment = gtk_scrolled_window_get_vadjustment(cast(scrolled))
            let reachable = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            // Not laid out that far yet: set once it is (the grid warns of a place it lacks).
            if offset > reachable + 0.5 && attempt < 20 { short = true; continue }
            gtk_adjustment_set_value(adjustment, offset)
        }
        guard short, attempt < 20 else { return }
        onNextFrame(of: contentWidget) { [weak self] in self?.scroll(to: offsets, attempt: attempt + 1) }
    }

    /// The view shown now: the grid, the list, a status page or the loading spinner.
    func updateVisibleChild() {
        let name: String
        if case .failed(_, let error) = connector.state {
            status.show(.notConnected(error))
            name = "status"
        } else if case .connecting = connector.state {
            name = "loading"
        } else if case .failed(let error) = feed.state {
            status.show(.unavailable(error))
            name = "status"
        } else if model.count == 0, let empty = emptyStatus() {
            status.show(empty)
            name = "status"
        } else if model.count == 0, feed.state == .loading, location != .trash, !isFolder {
            name = "loading"
        } else {
            name = viewMode.rawValue
        }
        if borrowString(gtk_stack_get_visible_child_name(OpaquePointer(stack))) != name {
            gtk_stack_set_visible_child_name(OpaquePointer(stack), name)
        }
        gtk_spinner_set_spinning(cast(loadingSpinner), name == "loading" ? 1 : 0)
        var connecting = false
        if case .connecting = connector.state { connecting = true }
        path.setBusy(isRemoteFolder && (connecting || connector.state == .idle && feed.state == .loading))
        actionGroup.setEnabled("empty-trash", location == .trash && model.count > 0)
    }

    private var isFolder: Bool {
        if case .folder = location { return true }
        return false
    }

    /// A folder on a server (not a local path).
    var isRemoteFolder: Bool {
        if case .folder(let url) = location { return !url.isFileURL }
        return false
    }

    /// The status page for no items, or nil while items may still come.
    private func emptyStatus() -> BrowserStatus? {
        guard feed.state == .loaded else { return nil }
        if !search.text.isEmpty && search.isActive {
            return search.isSearching ? nil : .noResults(search.text)
        }
        switch location {
        case .folder: return .emptyFolder
        case .trash: return .emptyTrash
        case .recents: return .noRecents
        case .tag(let name): return .noTaggedFiles(name)
        }
    }

    var parentWindow: UnsafeMutablePointer<GtkWindow>? {
        gtk_widget_get_root(contentWidget).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
    }
}
