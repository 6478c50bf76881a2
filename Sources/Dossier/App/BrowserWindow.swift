import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport
import GtkSupport

/// The main window: a header bar (sidebar toggle, back, forward, the browser's path bar,
/// its view controls and the primary menu), the sidebar beside the browser (folding away on
/// narrow widths). Toasts appear over the browser's items (the browser's own overlay).
@MainActor
final class BrowserWindow {
    let window: WidgetPointer
    let browser: DocumentBrowser
    let sidebar: BrowserSidebar
    let flap: OpaquePointer
    private let backButton: WidgetPointer
    private let forwardButton: WidgetPointer
    private let state: WindowState

    /// Asks the application for another window at a location.
    var openWindow: ((BrowserLocation) -> Void)?
    /// Told when the window has closed (after its state was saved).
    var didClose: ((BrowserWindow) -> Void)?

    init(application: UnsafeMutablePointer<GtkApplication>, location: BrowserLocation, state: WindowState) {
        self.state = state
        browser = DocumentBrowser(location: location)
        sidebar = BrowserSidebar()
        window = widget(adw_application_window_new(application))
        gtk_window_set_default_size(cast(window), state.values.width, state.values.height)
        if state.values.maximized { gtk_window_maximize(cast(window)) }

        backButton = gtk_button_new_from_icon_name("go-previous-symbolic")
        forwardButton = gtk_button_new_from_icon_name("go-next-symbolic")
        flap = OpaquePointer(adw_flap_new())

        let header = makeHeaderBar()
        gtk_widget_set_hexpand(browser.widget.gtkWidget, 1)
        gtk_widget_set_vexpand(browser.widget.gtkWidget, 1)
        adw_flap_set_flap(flap, sidebar.widget.gtkWidget)
        adw_flap_set_separator(flap, gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        adw_flap_set_content(flap, browser.widget.gtkWidget)
        adw_flap_set_swipe_to_open(flap, 1)
        adw_flap_set_swipe_to_close(flap, 1)
        let content = makeBox(GTK_ORIENTATION_VERTICAL, [header, widget(flap)])
        gtk_widget_set_vexpand(widget(flap), 1)
        adw_application_window_set_content(cast(window), content)

        Shortcuts.attach(to: browser.widget.gtkWidget)
        if let overlay = Shortcuts.makeWindow() {
            gtk_application_window_set_help_overlay(cast(window), overlay)
        }
        installActions()
        connectBrowser()
        restoreBrowserState()
        connectWindowState()
        locationChanged(browser.location)
        browser.scrollForBenchmarkIfRequested()  // inert unless DOSSIER_BENCH_SCROLL is set
    }

    func present() {
        gtk_window_present(cast(window))
    }

    /// Shows a toast over the browser's items; with `undo`, an Undo button that calls it.
    func showToast(title: String, undo: (() -> Void)? = nil) {
        browser.showToast(title, undo: undo)
    }

    // MARK: Building

    private func makeHeaderBar() -> WidgetPointer {
        let header = adw_header_bar_new()!
        let toggle = gtk_toggle_button_new()!
        gtk_button_set_icon_name(cast(toggle), "sidebar-show-symbolic")
        setAccessibleName(toggle, tr("Show Sidebar"))
        gtk_widget_set_tooltip_text(toggle, tr("Show Sidebar"))
        g_object_bind_property(raw(flap), "reveal-flap", raw(toggle), "active", GBindingFlags(rawValue: DOSSIER_G_BINDING_BIDIRECTIONAL | DOSSIER_G_BINDING_SYNC_CREATE))
        g_object_bind_property(raw(flap), "folded", raw(toggle), "visible", GBindingFlags(rawValue: DOSSIER_G_BINDING_SYNC_CREATE))
        adw_header_bar_pack_start(OpaquePointer(header), toggle)

        setAccessibleName(backButton, tr("Back"))
        gtk_widget_set_tooltip_text(backButton, tr("Back"))
        setAccessibleName(forwardButton, tr("Forward"))
        gtk_widget_set_tooltip_text(forwardButton, tr("Forward"))
        connectSignal(raw(backButton), "clicked") { [weak self] in self?.browser.goBack() }
        connectSignal(raw(forwardButton), "clicked") { [weak self] in self?.browser.goForward() }
        let navigation = makeBox(GTK_ORIENTATION_HORIZONTAL, [backButton, forwardButton])
        gtk_widget_add_css_class(navigation, "linked")
        adw_header_bar_pack_start(OpaquePointer(header), navigation)

        adw_header_bar_set_title_widget(OpaquePointer(header), browser.pathBar.gtkWidget)

        let menu = g_menu_new()!
        defer { g_object_unref(raw(menu)) }
        let windows = g_menu_new()!
        defer { g_object_unref(raw(windows)) }
        g_menu_append(windows, tr("New Window"), "win.new-window")
        g_menu_append_section(menu, nil, cast(windows))
        let help = g_menu_new()!
        defer { g_object_unref(raw(help)) }
        g_menu_append(help, tr("Keyboard Shortcuts"), "win.show-help-overlay")
        g_menu_append(help, tr("About Dossier"), "app.about")
        g_menu_append_section(menu, nil, cast(help))
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(menuButton), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(cast(menuButton), cast(menu))
        gtk_menu_button_set_primary(cast(menuButton), 1)
        setAccessibleName(menuButton, tr("Main Menu"))
        gtk_widget_set_tooltip_text(menuButton, tr("Main Menu"))
        adw_header_bar_pack_end(OpaquePointer(header), menuButton)
        adw_header_bar_pack_end(OpaquePointer(header), browser.headerControls.gtkWidget)
        return header
    }

    // MARK: The browser

    private func connectBrowser() {
        sidebar.locationSelected = { [weak self] location in
            guard let self else { return }
            self.browser.go(to: location)
            if adw_flap_get_folded(self.flap) != 0 { adw_flap_set_reveal_flap(self.flap, 0) }
        }
        sidebar.openInNewWindow = { [weak self] location in self?.openWindow?(location) }
        sidebar.errorHandler = { [weak self] message in self?.showToast(title: message) }
        sidebar.connectToServer = { [weak self] in
            guard let self else { return }
            self.browser.presentConnectToServer()
            if adw_flap_get_folded(self.flap) != 0 { adw_flap_set_reveal_flap(self.flap, 0) }
        }
        // Like Files: a window showing a volume that is unmounted or ejected goes Home.
        sidebar.shownVolumeRemoved = { [weak self] location in
            guard let self, self.browser.location == location else { return }
            self.browser.go(to: .folder(UserDirectories().home.standardizedFileURL))
        }
        browser.locationDidChange = { [weak self] location in self?.locationChanged(location) }
        browser.stateDidChange = { [weak self] in self?.saveBrowserState() }
    }

    private func locationChanged(_ location: BrowserLocation) {
        gtk_window_set_title(cast(window), Self.title(for: location))
        sidebar.highlight(location)
        gtk_widget_set_sensitive(backButton, browser.canGoBack ? 1 : 0)
        gtk_widget_set_sensitive(forwardButton, browser.canGoForward ? 1 : 0)
        state.update { $0.location = location }
    }

    /// The window title: the folder's name, or the collection's.
    static func title(for location: BrowserLocation) -> String {
        switch location {
        case .folder(let url):
            if url.isFileURL, url.standardizedFileURL.path == UserDirectories().home.standardizedFileURL.path { return tr("Home") }
            if url.isFileURL, url.path == "/" { return tr("Computer") }
            if !url.isFileURL { return RemoteLocation.title(for: url) }
            return url.lastPathComponent.isEmpty ? (url.host ?? url.absoluteString) : VisibleName.of(url.lastPathComponent)
        case .recents: return tr("Recent")
        case .tag(let name): return name
        case .trash: return tr("Recently Deleted")
        }
    }

    private func restoreBrowserState() {
        let values = state.values
        browser.viewMode = values.viewMode
        if let sort = values.sort { browser.sort = sort }
        browser.showsHidden = values.showsHidden
        if let zoom = values.zoomLevel { browser.zoomLevel = zoom }
    }

    private func saveBrowserState() {
        let browser = browser
        state.update {
            $0.viewMode = browser.viewMode
            $0.sort = browser.sort
            $0.showsHidden = browser.showsHidden
            $0.zoomLevel = browser.zoomLevel
        }
    }

    // MARK: Window state

    private func connectWindowState() {
        for property in ["notify::default-width", "notify::default-height", "notify::maximized"] {
            connectSignal(raw(window), property) { [weak self] (_: UnsafeMutableRawPointer?) in self?.saveSize() }
        }
        connectSignal(raw(window), "close-request", returning: { [weak self] in
            guard let self else { return false }
            self.saveSize()
            self.state.update { $0.location = self.browser.location }
            self.saveBrowserState()
            self.state.flush()
            return false
        })
        connectSignal(raw(window), "destroy") { [weak self] in
            guard let self else { return }
            self.didClose?(self)
        }
    }

    /// The size a window is restored to is its unmaximized size (GTK keeps it as the
    /// default size while the window is maximized).
    private func saveSize() {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(cast(window), &width, &height)
        let maximized = gtk_window_is_maximized(cast(window)) != 0
        state.update {
            if width > 0, height > 0 {
                $0.width = width
                $0.height = height
            }
            $0.maximized = maximized
        }
    }
}
