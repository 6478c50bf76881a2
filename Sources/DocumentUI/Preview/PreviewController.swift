import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Shows items one at a time in the previewer window: the QLPreviewController of Linux.
///
/// Give it a data source (and optionally a delegate), set `currentIndex`, and `present` it.
/// Keys: Space or Escape close; Left/Right (and Up/Down) move between items; Enter or `o` open
/// in the default app; F or F11 fullscreen; `+` `-` `0` zoom; Ctrl+C copies; Ctrl+P prints
/// (items of a type Dossier prints).
@MainActor
public final class PreviewController {
    /// Gives the items to show; held weakly (keep it alive, as `PreviewItemList` is kept by its owner).
    public weak var dataSource: (any PreviewDataSource)?
    /// Told when the previewer closes; held weakly.
    public weak var delegate: (any PreviewDelegate)?

    /// When set, Left/Right/Up/Down are handed to it instead of moving between items (the
    /// Nautilus previewer service: Nautilus moves its selection and shows the next file).
    public var navigationHandler: ((GtkDirectionType) -> Void)?
    /// Called when the window is shown or hidden.
    public var visibilityDidChange: ((Bool) -> Void)?
    /// What the program that asked for the preview does itself with the item shown (Nautilus
    /// 51 renames, trashes, opens a folder): offered in the window's menu and by their keys.
    public var hostActions: [PreviewHostAction] = [] {
        didSet { applyHostActions() }
    }

    /// Whether the previewer window is shown.
    public private(set) var isPresented = false
    private var window: PreviewWindow?
    private var pages: [Int: PreviewPage] = [:]
    /// Pages kept after a reload, by file: showing an unchanged file again is instant.
    private var recent: [URL: PreviewPage] = [:]
    /// The kept pages' files, oldest first (a dictionary has no order).
    private var recentOrder: [URL] = []
    private var index = 0
    /// The current item's interaction controller: the Open With button, the options menu
    /// (right-click on the item), Enter, Copy and the window menu all go through it.
    private var interaction: DocumentInteractionController?
    private let interactionDelegate = PreviewInteractionDelegate()
    /// Gives the interaction controller for an item (the one that presented the previewer, for
    /// its own document); nil: the previewer makes one.
    var interactionProvider: ((PreviewItem) -> DocumentInteractionController?)?

    /// Work begun on items before their pages exist (a service's first item), which this
    /// previewer's pages take.
    public let prefetch: PreviewPrefetch?

    /// Makes a previewer with no items; set a data source, then `present` it. A service that
    /// begins its first item's work before the previewer can show it (`PreviewPrefetch`) gives
    /// it here.
    public init(prefetch: PreviewPrefetch? = nil) {
        self.prefetch = prefetch
    }

    /// The index of the item shown; setting it shows that item.
    public var currentIndex: Int {
        get { index }
        set { show(newValue) }
    }

    /// How many items the data source has (0 without one).
    public var numberOfItems: Int { dataSource.map { $0.numberOfItems(in: self) } ?? 0 }

    /// The item shown, if any.
    public var currentItem: PreviewItem? {
        guard index >= 0, index < numberOfItems else { return nil }
        return dataSource?.previewController(self, itemAt: index)
    }

    /// The window's widget while presented (for tests and transitions).
    public var windowWidget: WindowWidget? { window.map { WindowWidget(gtkWindow: cast($0.window)) } }

    /// The last zoom transition, for tests: opening or closing, the frames it drew (the
    /// picture's rectangle in the window), and whether it finished.
    var lastTransition: ZoomTransition.Record? { window?.zoom.record }

    /// True when some renderer besides the info page shows the item's type.
    public static func canPreview(_ item: PreviewItem) -> Bool {
        // A remote item's type comes from its name: reading its first bytes means the network.
        let type = RemoteFiles.isRemote(item.url)
            ? DocumentType(fileName: RemoteFiles.displayName(of: item.url))
            : try? DocumentType(contentsOf: item.url.rawPath)
        guard let type else { return false }
        return PreviewRendererRegistry.shared.hasContentRenderer(for: type)
    }

    /// Shows the window, transient for `parent`, and gives it the focus. `activationToken`,
    /// from the program that asked (an X11 startup id or an xdg-activation token), lets the
    /// window take the focus where the window manager would otherwise refuse it.
    public func present(transientFor parent: WindowWidget? = nil, application: AppInstance? = nil,
                        activationToken: String? = nil) {
        present(transientFor: parent?.gtkWindow, application: application?.gtkApplication, activationToken: activationToken)
    }

    func present(transientFor parent: UnsafeMutablePointer<GtkWindow>?, application: UnsafeMutablePointer<GtkApplication>? = nil,
                 activationToken: String? = nil) {
        if window == nil {
            window = makeWindow(application: application)
            applyHostActions()
        }
        guard let window else { return }
        if let parent { gtk_window_set_transient_for(cast(window.window), parent) }
        if let activationToken, !activationToken.isEmpty { gtk_window_set_startup_id(cast(window.window), activationToken) }
        show(index)
        let source = isPresented ? nil : currentItem.flatMap { delegate?.previewController(self, sourceWidgetFor: $0) }
        gtk_window_present(cast(window.window))
        Display.keepFrameMemory(after: window.window)
        if let source { window.zoom.open(from: source.gtkWidget) }
        if !isPresented {
            isPresented = true
            visibilityDidChange?(true)
        }
    }

    /// Keeps the window above another program's window, named by a portal-style handle
    /// ("x11:<hex XID>", "wayland:<handle>"), as Nautilus passes its own to the previewer.
    public func setTransientFor(handle: String) {
        guard let window, !handle.isEmpty else { return }
        gtk_widget_realize(window.window)
        _ = dossier_set_transient_for_handle(window.window, handle)
    }

    /// Closes the window.
    public func dismiss() {
        guard isPresented, let window else { return }
        delegate?.previewControllerWillDismiss(self)
        isPresented = false
        // Back into the item's place in its window (the browser's thumbnail), then hidden.
        let source = currentItem.flatMap { delegate?.previewController(self, sourceWidgetFor: $0) }
        if let source {
            window.zoom.close(into: source.gtkWidget) { [weak self] in
                guard let self, !self.isPresented else { return }
                gtk_widget_set_visible(window.window, 0)
            }
        } else {
            window.zoom.finish()
            gtk_widget_set_visible(window.window, 0)
        }
        reloadDataKeepingPages()
        visibilityDidChange?(false)
        delegate?.previewControllerDidDismiss(self)
    }

    /// Asks the data source again. Pages of files that did not change are kept (a few), so
    /// showing one of them again is instant.
    public func reloadData() {
        reloadDataKeepingPages()
        if isPresented { show(min(index, max(numberOfItems - 1, 0))) }
    }

    /// Ready pages are kept for a quick next showing (four at most); the rest are dropped.
    private func reloadDataKeepingPages() {
        for page in pages.values where page.state == .ready {
            if let replaced = recent.updateValue(page, forKey: page.item.url), replaced !== page { drop(replaced) }
            recentOrder.removeAll { $0 == page.item.url }
            recentOrder.append(page.item.url)
        }
        for page in pages.values where page.state != .ready { drop(page) }
        pages.removeAll()
        while recent.count > 4, !recentOrder.isEmpty {
            if let page = recent.removeValue(forKey: recentOrder.removeFirst()) { drop(page) }
        }
    }

    private func drop(_ page: PreviewPage) {
        page.cancel()
        if let window, gtk_widget_get_parent(page.view) == window.stack {
            gtk_stack_remove(OpaquePointer(window.stack), page.view)
        }
    }

    /// Loads the current item again (it changed on disk, say).
    public func refreshCurrentItem() {
        if let page = pages.removeValue(forKey: index), let window {
            page.cancel()
            gtk_stack_remove(OpaquePointer(window.stack), page.view)
        }
        if isPresented { show(index) }
    }

    /// The state of the current item's page, for tests: loading, downloading (bytes done of
    /// the whole), ready or failed.
    public var currentState: String {
        switch pages[index]?.state {
        case .ready: "ready"
        case .failed(let message): "failed: \(message)"
        default:
            if let progress = pages[index]?.downloadProgress {
                "downloading \(progress.bytesDone) of \(progress.bytesExpected)"
            } else {
                "loading"
            }
        }
    }

    /// The current item's page, for tests.
    var currentPage: PreviewPage? { pages[index] }

    // MARK: Showing an item

    private func show(_ newIndex: Int) {
        let count = numberOfItems
        guard count > 0, let window else {
            index = max(0, min(newIndex, count - 1))
            return
        }
        index = max(0, min(newIndex, count - 1))
        guard let item = dataSource?.previewController(self, itemAt: index) else { return }
        let moving = gtk_stack_get_visible_child(OpaquePointer(window.stack)) != nil && isPresented
        let page = pages[index] ?? reuse(item, at: index) ?? makePage(item, at: index)
        // Cross-fade between items; the first item of a showing appears at once.
        gtk_stack_set_transition_type(OpaquePointer(window.stack),
                                      moving ? GTK_STACK_TRANSITION_TYPE_CROSSFADE : GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_set_visible_child(OpaquePointer(window.stack), page.view)
        adw_window_title_set_title(window.title, item.displayTitle)
        updateSubtitle()
        gtk_window_set_title(cast(window.window), item.displayTitle)
        updateOpenWith(for: page)
        window.hostActions.update(for: item)
        // Keep the neighbours loaded, drop the rest.
        for (key, old) in pages where abs(key - index) > 1 {
            old.cancel()
            gtk_stack_remove(OpaquePointer(window.stack), old.view)
            pages[key] = nil
        }
    }

    /// The header's subtitle: the item's place among several, and how far its download has
    /// come while a remote item downloads.
    private func updateSubtitle() {
        guard let window else { return }
        let count = numberOfItems
        var parts: [String] = count > 1 ? [tr("%s of %s", String(index + 1), String(count))] : []
        if let progress = pages[index]?.downloadProgress, progress.bytesExpected > 0 {
            parts.append(tr("Downloading, %s of %s", formattedSize(progress.bytesDone), formattedSize(progress.bytesExpected)))
        }
        adw_window_title_set_subtitle(window.title, parts.joined(separator: " · "))
    }

    /// A kept page of the same, unchanged file.
    private func reuse(_ item: PreviewItem, at position: Int) -> PreviewPage? {
        guard let page = recent.removeValue(forKey: item.url) else { return nil }
        recentOrder.removeAll { $0 == item.url }
        guard page.version != nil, page.version == FileVersion(at: item.url) else {
            drop(page)
            return nil
        }
        pages[position] = page
        return page
    }

    private func makePage(_ item: PreviewItem, at position: Int) -> PreviewPage {
        let page = PreviewPage(item: item, prefetch: prefetch)
        pages[position] = page
        gtk_stack_add_named(cast(window!.stack), page.view, "item-\(position)-\(UUID().uuidString)")
        page.linkHandler = { [weak self] url, item in self?.openLink(url, in: item) }
        page.stateDidChange = { [weak self, weak page] _ in
            guard let self, let page, self.pages[self.index] === page else { return }
            self.updateSubtitle()
        }
        page.start()
        return page
    }

    /// Fills the Open With button from the item's interaction controller. Finding the apps
    /// reads every desktop entry the first time, so it happens off the main thread; a late
    /// answer for an item no longer shown is dropped.
    private func updateOpenWith(for page: PreviewPage) {
        guard let window else { return }
        let item = page.item
        let sameItem = interaction?.urls == [item.url]
        if !sameItem {
            let controller = interactionProvider?(item) ?? DocumentInteractionController(url: item.url)
            if controller.delegate == nil {
                interactionDelegate.previewer = self
                controller.delegate = interactionDelegate
            }
            controller.defaultApplicationDidChange = { [weak self, weak controller] in
                guard let self, let controller, self.interaction === controller,
                      let page = self.pages[self.index] else { return }
                self.updateOpenWith(for: page)
            }
            interaction = controller
        }
        guard let interaction else { return }
        interaction.installActions(on: window.window)
        if !sameItem { interaction.setAction("print", enabled: false) }
        // The same item shown again keeps its menu until the new one is ready.
        if !sameItem { window.setOpenWith(menu: nil, default: nil) }
        interaction.loadOpenWithMenu { [weak self, weak interaction] menu, defaultApp in
            // Building the menu's popover makes widgets: after the item's first frame.
            MainLoopIdle.run {
                defer { g_object_unref(raw(menu)) }
                guard let self, let interaction, self.interaction === interaction else { return }
                interaction.setAction("open", enabled: defaultApp != nil)
                // The type is read from the contents by now: Print… only for one Dossier prints.
                interaction.setAction("print", enabled: interaction.canPerform(.print))
                self.window?.setOpenWith(menu: menu, default: defaultApp)
            }
        }
    }

    /// Shows the current item's options menu where the item was right-clicked.
    private func presentOptions(at point: (x: Double, y: Double)) {
        guard let window, let interaction else { return }
        interaction.presentOptionsMenu(from: window.stack, at: point)
    }

    // MARK: The window and its actions

    private func makeWindow(application: UnsafeMutablePointer<GtkApplication>?) -> PreviewWindow {
        let window = PreviewWindow(application: application)
        onSecondaryClick(window.stack) { [weak self] x, y in self?.presentOptions(at: (x, y)) }
        connectSignal(raw(window.window), "close-request", returning: { [weak self] in
            self?.dismiss()
            return true  // hidden, not destroyed: the next present is instant
        })
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        connectKeyPressed(raw(keys)) { [weak self] key, state in self?.handleKey(key, state: state) ?? false }
        gtk_widget_add_controller(window.window, keys)
        // Touchpad and touchscreen: a sideways swipe moves between items, a pinch zooms.
        onSwipe(window.stack) { [weak self] step in
            self?.move(step > 0 ? GTK_DIR_RIGHT : GTK_DIR_LEFT, by: step)
        }
        onPinch(window.stack) { [weak self] change in
            guard let self, abs(change - 1) > 0.15 else { return }
            self.pages[self.index]?.renderer?.zoom(change > 1 ? .zoomIn : .zoomOut)
        }
        return window
    }

    private func applyHostActions() {
        guard let window else { return }
        window.hostActions.set(hostActions) { [weak self] action in self?.perform(action) }
        window.hostActions.update(for: isPresented ? currentItem : nil)
    }

    /// As Sushi does: the previewer closes, then the host acts in its own window.
    private func perform(_ action: PreviewHostAction) {
        guard let item = currentItem else { return }
        dismiss()
        action.perform(item)
    }

    private func handleKey(_ key: UInt32, state: UInt32) -> Bool {
        // A menu (Open With, options) is part of the window's widget tree: its keys reach this
        // capture-phase handler first, and must move through the menu, not between items.
        if let window, let focus = gtk_root_get_focus(OpaquePointer(window.window)),
           gtk_widget_get_ancestor(focus, gtk_popover_get_type()) != nil || dossier_focus_wants_keys(focus) != 0 {
            return false  // a menu, a text field, or a dialog inside the window (New Tag…)
        }
        // A menu button in the item (the text's encoding), reached with Tab, opens with the
        // keys of a button rather than closing or opening the item.
        if let window, let focus = gtk_root_get_focus(OpaquePointer(window.window)),
           gtk_widget_get_ancestor(focus, gtk_menu_button_get_type()) != nil, gtk_widget_is_ancestor(focus, window.stack) != 0,
           [GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_space].contains(Int32(key)) {
            return false
        }
        let control = state & GDK_CONTROL_MASK.rawValue != 0
        let modifiers = state & (GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
        // The host's keys first, and only unmodified (Shift+Delete is not Delete): Enter on a
        // folder asks Nautilus to open it instead.
        if modifiers == 0, let action = window?.hostActions.action(forKey: key) {
            perform(action)
            return true
        }
        switch Int32(key) {
        case GDK_KEY_space, GDK_KEY_Escape:
            if key == UInt32(GDK_KEY_Escape), window?.isFullscreen == true {
                window?.toggleFullscreen()
            } else {
                dismiss()
            }
        case GDK_KEY_Left: move(GTK_DIR_LEFT, by: -1)
        case GDK_KEY_Up: move(GTK_DIR_UP, by: -1)
        case GDK_KEY_Right: move(GTK_DIR_RIGHT, by: 1)
        case GDK_KEY_Down: move(GTK_DIR_DOWN, by: 1)
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_o: interaction?.perform(.open)
        case GDK_KEY_f, GDK_KEY_F11: window?.toggleFullscreen()
        case GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add: pages[index]?.renderer?.zoom(.zoomIn)
        case GDK_KEY_minus, GDK_KEY_KP_Subtract: pages[index]?.renderer?.zoom(.zoomOut)
        case GDK_KEY_0, GDK_KEY_KP_0: pages[index]?.renderer?.zoom(.fit)
        case GDK_KEY_1: pages[index]?.renderer?.zoom(.actualSize)
        case GDK_KEY_c where control: copy()
        case GDK_KEY_p where control: print()
        default: return false
        }
        return true
    }

    private func move(_ direction: GtkDirectionType, by step: Int) {
        if let navigationHandler {
            navigationHandler(direction)
            return
        }
        let target = index + step
        guard target >= 0, target < numberOfItems else { return }
        show(target)
        delegate?.previewController(self, didMoveTo: index)
    }

    /// Ctrl+C: the renderer's selection (text, say), else the file itself.
    private func copy() {
        if pages[index]?.renderer?.copy() == true { return }
        interaction?.perform(.copy)
    }

    /// Ctrl+P: the print dialog for the item, above the previewer, when Dossier prints its type.
    private func print() {
        guard let interaction, let window, interaction.canPerform(.print) else { return }
        interaction.presentPrintDialog(transientFor: WindowWidget(gtkWindow: cast(window.window)))
    }

    /// A link activated in an item: the delegate may take it; otherwise the default
    /// application for the link opens it (a web browser for http, the file's app for file:).
    private func openLink(_ url: URL, in item: PreviewItem) {
        guard delegate?.previewController(self, shouldOpen: url, in: item) ?? true else { return }
        let uri = url.absoluteString
        Task.detached { TemporaryFiles.openInDefaultApplication(uri) }
    }
}

/// What the previewer's own interaction controllers ask: the previewer's window is their
/// parent; Preview, Rename, Duplicate and Move to Trash are not offered inside it.
@MainActor
final class PreviewInteractionDelegate: DocumentInteractionDelegate {
    weak var previewer: PreviewController?

    func parentWindow(for controller: DocumentInteractionController) -> WindowWidget? {
        previewer?.windowWidget
    }

    func documentInteractionController(_ controller: DocumentInteractionController, canPerform action: DocumentAction) -> Bool {
        switch action {
        case .preview, .rename, .duplicate, .moveToTrash: false
        default: controller.canPerformByDefault(action)
        }
    }
}
