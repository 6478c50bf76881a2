import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The browser's sidebar: Recent, Home and the XDG user folders; mounted volumes (with an
/// eject or unmount button); Favorites from GTK's bookmarks file (drop a folder to add it,
/// drag to reorder, right-click to rename or remove); one row per tag in use; and Recently
/// Deleted, the Trash, whose icon shows whether it is full. Everything stays current while
/// the sidebar lives.
///
/// Activating a row calls `locationSelected`; the window then shows that location and calls
/// `highlight(_:)` so the matching row is selected.
@MainActor
public final class BrowserSidebar {
    /// The sidebar, to put beside the browser's content.
    public var widget: Widget { Widget(gtkWidget: rootWidget) }
    /// The GtkWidget `widget` wraps.
    let rootWidget: WidgetPointer
    /// Called with the location of the row the user activated.
    public var locationSelected: ((BrowserLocation) -> Void)?
    /// Called by the rows' "Open in New Window" menu item; the item is hidden while nil.
    public var openInNewWindow: ((BrowserLocation) -> Void)? {
        didSet { menuActions.setEnabled("open-in-new-window", openInNewWindow != nil) }
    }
    /// Called by the Connect to Server row.
    public var connectToServer: (() -> Void)?
    /// Called with a message to show (a toast) when something the user asked for failed.
    public var errorHandler: ((String) -> Void)?
    /// Called when a mount that held `location` (the last highlighted one) went away, so the
    /// window can leave it; the sidebar has no row for it any more.
    public var shownVolumeRemoved: ((BrowserLocation) -> Void)?

    let listBox: WidgetPointer
    private(set) var rows: [(row: WidgetPointer, item: SidebarItem)] = []
    private var highlighted: BrowserLocation?
    let sources = SidebarSources.shared
    let menuActions: SidebarMenuActions
    /// The row whose menu is open.
    var menuItem: SidebarItem?
    var popover: WidgetPointer?

    /// Makes the sidebar with its rows, kept current while it lives.
    public init() {
        listBox = gtk_list_box_new()
        gtk_widget_add_css_class(listBox, "navigation-sidebar")
        gtk_list_box_set_selection_mode(cast(listBox), GTK_SELECTION_SINGLE)
        setAccessibleName(listBox, tr("Places"))
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(scrolled), listBox)
        gtk_widget_set_vexpand(scrolled, 1)
        rootWidget = makeBox(GTK_ORIENTATION_VERTICAL, [scrolled])
        gtk_widget_set_size_request(rootWidget, 200, -1)
        gtk_widget_add_css_class(rootWidget, "background")
        menuActions = SidebarMenuActions(on: rootWidget)

        connectSignal(raw(listBox), "row-activated") { [weak self] (row: UnsafeMutableRawPointer?) in
            guard let self, let row, let item = self.item(for: row) else { return }
            if item.connectsToServer {
                self.connectToServer?()
                if let highlighted = self.highlighted { self.highlight(highlighted) }
            } else {
                self.locationSelected?(item.location)
            }
        }
        setHeaderFunction()
        installMenu()
        installDropTarget()
        sources.addListener(owner: self) { [weak self] in self?.reload() }
        sources.addRemovalListener(owner: self) { [weak self] root in
            guard let self, case .folder(let url)? = self.highlighted, SidebarVolumes.location(url, isOn: root) else { return }
            self.shownVolumeRemoved?(.folder(url))
        }
        sources.refreshTags()
        reload()
    }

    /// Selects the row that leads to `location`, or none when no row does.
    public func highlight(_ location: BrowserLocation) {
        highlighted = location
        if let match = rows.first(where: { Self.same($0.item.location, location) }) {
            gtk_list_box_select_row(cast(listBox), cast(match.row))
        } else {
            gtk_list_box_unselect_all(cast(listBox))
        }
    }

    /// Locations compared as a user would: a local folder is the same with or without a
    /// trailing slash.
    private static func same(_ a: BrowserLocation, _ b: BrowserLocation) -> Bool {
        if case .folder(let first) = a, case .folder(let second) = b, first.isFileURL, second.isFileURL {
            return first.standardizedFileURL.path == second.standardizedFileURL.path
        }
        return a == b
    }

    /// The accessible names of the rows in order (for tests and screen-reader checks).
    public var rowTitles: [String] { rows.map(\.item.title) }

    func item(for row: UnsafeMutableRawPointer) -> SidebarItem? {
        rows.first { raw($0.row) == row }?.item
    }

    // MARK: Rows

    private var items: [SidebarItem] {
        sources.places + sources.volumes.items + [SidebarItem.connectToServer] + sources.favoriteItems.map(SidebarItem.favorite)
            + sources.tags.map(SidebarItem.tag) + [SidebarItem.trash(isFull: sources.trashIsFull)]
    }

    /// Builds the rows again (a few dozen at most) and keeps the highlight.
    func reload() {
        popover.map { gtk_popover_popdown(cast($0)) }
        // A row about to go may hold the window's focus (its eject button, just clicked). Left
        // to itself GTK hands the focus to the first row, which then shows as selected.
        let root = gtk_widget_get_root(listBox)
        let hadFocus = root.flatMap { gtk_root_get_focus($0) }.map { gtk_widget_is_ancestor($0, listBox) != 0 } ?? false
        if hadFocus, let root { gtk_root_set_focus(root, nil) }
        while let child = gtk_widget_get_first_child(listBox) {
            gtk_list_box_remove(cast(listBox), child)
        }
        rows = []
        for item in items {
            let row = SidebarRow.make(item) { [weak self] in self?.remove(item) }
            g_object_set_data(cast(row), "dossier-section", UnsafeMutableRawPointer(bitPattern: item.section.rawValue + 1))
            if item.favorite != nil { installDragSource(on: row, item: item) }
            gtk_list_box_append(cast(listBox), row)
            rows.append((row, item))
        }
        if let highlighted { highlight(highlighted) }
        if hadFocus, let selected = gtk_list_box_get_selected_row(cast(listBox)) { gtk_widget_grab_focus(cast(selected)) }
    }

    /// Ejects or unmounts a volume row's mount.
    func remove(_ item: SidebarItem) {
        guard let mount = item.mount else { return }
        SidebarVolumes.remove(mount, parent: rootWidget) { [weak self] message in
            if let message { self?.errorHandler?(message) }
        }
    }

    /// A separator above the first row of each section.
    private func setHeaderFunction() {
        let update: GtkListBoxUpdateHeaderFunc = { row, before, _ in
            guard let row else { return }
            func section(_ row: UnsafeMutablePointer<GtkListBoxRow>) -> Int {
                Int(bitPattern: g_object_get_data(cast(row), "dossier-section"))
            }
            let needsSeparator = before.map { section($0) != section(row) } ?? false
            let header = gtk_list_box_row_get_header(row)
            if needsSeparator, header == nil {
                let separator = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!
                gtk_list_box_row_set_header(row, separator)
            } else if !needsSeparator, header != nil {
                gtk_list_box_row_set_header(row, nil)
            }
        }
        gtk_list_box_set_header_func(cast(listBox), update, nil, nil)
    }
}
