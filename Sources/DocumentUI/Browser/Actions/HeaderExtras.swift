import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// What the browser adds to the header's controls for working on items: the app's own
/// actions (`DocumentBrowserAction`s available in the header, shown while the selection
/// suits them), the file operations' progress button, and the New menu.
extension DocumentBrowser {
    func installHeaderExtras() {
        let newButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(newButton), "list-add-symbolic")
        let menu = makeNewMenu()
        gtk_menu_button_set_menu_model(cast(newButton), cast(menu))
        g_object_unref(raw(menu))
        setAccessibleName(newButton, tr("New"))
        gtk_widget_set_tooltip_text(newButton, tr("New Folder, New Document or Import"))
        if let popover = gtk_menu_button_get_popover(cast(newButton)) {
            connectSignal(raw(popover), "show") { [weak self] in self?.refreshTemplates() }
        }
        self.newButton = newButton
        for part in [newButton, operations.button, headerActions] { gtk_box_prepend(cast(controls.widget), part) }
        gtk_box_set_spacing(cast(headerActions), 6)
        refreshTemplates()

        connectRangeSignal(raw(selection), "selection-changed") { [weak self] _, _ in
            self?.updateHeaderActions()
        }
    }

    /// Called after each navigation: what needs a folder follows.
    func locationShown() {
        updateFolderActions()
        if let newButton { gtk_widget_set_visible(newButton, currentFolder == nil ? 0 : 1) }
        renaming?.close()
        updateHeaderActions()
    }

    /// Rebuilds the header buttons of the app's actions for the current selection.
    func updateHeaderActions() {
        while let child = gtk_widget_get_first_child(headerActions) { gtk_box_remove(cast(headerActions), child) }
        let positions = selectedPositions
        guard !positions.isEmpty, location != .trash else { return }
        let types = positions.map { model[$0].isDirectory ? DocumentType.folder : model[$0].type }
        let urls = positions.map { model[$0].url }
        for action in actions where action.availability.contains(.header) && action.applies(to: types) {
            let button: WidgetPointer
            if let icon = action.iconName {
                button = gtk_button_new_from_icon_name(icon)
                gtk_widget_set_tooltip_text(button, action.title)
            } else {
                button = gtk_button_new_with_label(action.title)
            }
            setAccessibleName(button, action.title)
            connectSignal(raw(button), "clicked") { [weak self] in
                if let handler = action.handler { handler(urls) } else { self?.actionHandler?(action, urls) }
            }
            gtk_box_append(cast(headerActions), button)
        }
    }
}

/// Shows a spinner over the icons of the items being opened until their app has shown up: its
/// window took the focus from ours, or a few seconds passed (an app's start is not reported
/// otherwise), so a slow app does not look like a missed click. A failed launch ends it at
/// once. An overlay of a fixed size: the cell keeps its size.
@MainActor
final class LaunchIndicator {
    /// How long a spinner stays after its app was started when no window of it takes the focus.
    static let patience: TimeInterval = 5
    private var spinners: [String: WidgetPointer] = [:]
    private var watchedWindow: UnsafeMutableRawPointer?

    /// The items showing a spinner now (for tests).
    var loading: [String] { Array(spinners.keys) }

    func start(_ urls: [URL], in browser: DocumentBrowser) {
        for url in urls where spinners[url.path] == nil {
            guard let overlay = browser.iconOverlay(for: url) else { continue }
            let spinner = gtk_spinner_new()!
            gtk_spinner_start(cast(spinner))
            let size: Int32 = browser.viewMode == .grid ? 32 : 16
            gtk_widget_set_size_request(spinner, size, size)
            gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
            gtk_widget_add_css_class(spinner, "dossier-opening")
            setAccessibleName(spinner, tr("Opening %s", url.lastPathComponent))
            gtk_overlay_add_overlay(cast(overlay), spinner)
            spinners[url.path] = spinner
        }
    }

    /// The app for `urls` was started (or failed to): the spinners go when its window shows.
    func launched(_ urls: [URL], failed: Bool, in browser: DocumentBrowser) {
        guard !failed, let window = browser.parentWindow else { return stop(urls) }
        let raw = UnsafeMutableRawPointer(window)
        if watchedWindow != raw {
            watchedWindow = raw
            connectSignal(raw, "notify::is-active") { [weak self] (_: UnsafeMutableRawPointer?) in
                guard let self, gtk_window_is_active(window) == 0 else { return }
                // Another window took the focus: the app has shown up.
                self.stop(self.spinners.keys.map { URL(fileURLWithPath: $0) })
            }
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.patience) { [weak self] in
            self?.stop(urls)
        }
    }

    func stop(_ urls: [URL]) {
        for url in urls {
            guard let spinner = spinners.removeValue(forKey: url.path), let parent = gtk_widget_get_parent(spinner) else { continue }
            gtk_overlay_remove_overlay(cast(parent), spinner)
        }
    }
}
