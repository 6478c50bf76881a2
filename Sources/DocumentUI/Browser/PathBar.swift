import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The location as a linked row of buttons, one per ancestor folder (Home, under the home
/// folder, with its icon; otherwise the file system's root, or for a location that is not a
/// local path its mount); a click goes there. Recents, a tag and the Trash show a title instead.
///
/// Ctrl+L turns it into an entry that takes a path or a server address (`enterLocation`);
/// a spinner beside it shows while a server is connected to or a remote folder listed.
@MainActor
final class PathBar {
    let widget: WidgetPointer
    private let box: WidgetPointer
    private let stack: WidgetPointer
    let entry: WidgetPointer
    private let spinner: WidgetPointer
    var navigate: ((URL) -> Void)?
    /// Called with the text typed into the location entry (Enter).
    var typed: ((String) -> Void)?
    /// The most ancestors shown before the current folder; the rest are behind "…".
    private let maximumButtons = 5
    private let home: String

    init(home: String = NSHomeDirectory()) {
        self.home = home
        box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_add_css_class(box, "linked")
        setAccessibleName(box, tr("Location"))
        entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(cast(entry), tr("Folder or server address (%s)", ServerAddress.schemesHint))
        setAccessibleName(entry, tr("Folder or Server Address"))
        gtk_widget_set_size_request(entry, 360, -1)
        stack = gtk_stack_new()!
        gtk_stack_set_hhomogeneous(OpaquePointer(stack), 0)
        gtk_stack_set_interpolate_size(OpaquePointer(stack), 1)
        gtk_stack_add_named(OpaquePointer(stack), box, "buttons")
        gtk_stack_add_named(OpaquePointer(stack), entry, "entry")
        spinner = gtk_spinner_new()!
        setAccessibleName(spinner, tr("Loading"))
        gtk_widget_set_visible(spinner, 0)
        widget = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [stack, spinner])
        installEntry()
    }

    /// Shows the spinner (and spins it) while `busy`; hidden, it costs no frames.
    func setBusy(_ busy: Bool) {
        gtk_widget_set_visible(spinner, busy ? 1 : 0)
        gtk_spinner_set_spinning(cast(spinner), busy ? 1 : 0)
    }

    var isBusy: Bool { gtk_spinner_get_spinning(cast(spinner)) != 0 }

    // MARK: The location entry

    /// Shows the entry with `text` selected and the keyboard in it.
    func enterLocation(_ text: String) {
        gtk_editable_set_text(OpaquePointer(entry), text)
        gtk_stack_set_visible_child_name(OpaquePointer(stack), "entry")
        gtk_widget_grab_focus(entry)
        gtk_editable_select_region(OpaquePointer(entry), 0, -1)
    }

    var isEnteringLocation: Bool { borrowString(gtk_stack_get_visible_child_name(OpaquePointer(stack))) == "entry" }

    /// Called when the entry goes while it has the keyboard: the browser puts it on the items.
    var returnFocus: (() -> Void)?

    /// Back to the buttons. The focus leaves the entry first: GTK 4.8 warns when a focused
    /// text field is hidden.
    func endEntering() {
        guard isEnteringLocation else { return }
        if entryHasFocus {
            returnFocus?()
            if entryHasFocus, let root = gtk_widget_get_root(entry) { gtk_root_set_focus(root, nil) }
        }
        gtk_stack_set_visible_child_name(OpaquePointer(stack), "buttons")
    }

    private var entryHasFocus: Bool {
        guard let root = gtk_widget_get_root(entry), let focus = gtk_root_get_focus(root) else { return false }
        return focus == entry || gtk_widget_is_ancestor(focus, entry) != 0
    }

    private func installEntry() {
        connectSignal(raw(entry), "activate") { [weak self] in
            guard let self else { return }
            let text = borrowString(gtk_editable_get_text(OpaquePointer(self.entry))) ?? ""
            self.endEntering()
            self.typed?(text)
        }
        let keys = gtk_event_controller_key_new()!
        connectKeyPressed(raw(keys)) { [weak self] key, _ in
            guard Int32(key) == GDK_KEY_Escape else { return false }
            self?.endEntering()
            return true
        }
        gtk_widget_add_controller(entry, keys)
        let focus = gtk_event_controller_focus_new()!
        connectSignal(raw(focus), "leave") { [weak self] in self?.endEntering() }
        gtk_widget_add_controller(entry, focus)
    }

    /// Shows `location`.
    func show(_ location: BrowserLocation) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(cast(box), child) }
        switch location {
        case .folder(let url): showFolder(url)
        case .recents: showTitle(tr("Recent"), icon: "document-open-recent-symbolic")
        case .tag(let name): showTitle(tr("Tag: %s", name), icon: "tag-symbolic")
        case .trash: showTitle(tr("Trash"), icon: "user-trash-symbolic")
        }
    }

    private func showTitle(_ title: String, icon: String) {
        let content = makeContent(title, icon: icon)
        gtk_widget_add_css_class(content, "heading")
        gtk_box_append(cast(box), content)
    }

    private func showFolder(_ url: URL) {
        guard url.isFileURL else {
            showSteps(remoteSteps(url))
            return
        }
        let path = url.standardizedFileURL.path
        var steps: [(title: String, icon: String?, url: URL)] = []
        var current = path
        while true {
            if current == home {
                steps.append((tr("Home"), "user-home-symbolic", URL(fileURLWithPath: current, isDirectory: true)))
                break
            }
            if current == "/" || current.isEmpty {
                steps.append((tr("Computer"), "drive-harddisk-symbolic", URL(fileURLWithPath: "/", isDirectory: true)))
                break
            }
            steps.append(((current as NSString).lastPathComponent, nil, URL(fileURLWithPath: current, isDirectory: true)))
            current = (current as NSString).deletingLastPathComponent
        }
        showSteps(steps.reversed())
    }

    /// For a location that is not a local path: its mount (by name), then the folders below.
    private func remoteSteps(_ url: URL) -> [(title: String, icon: String?, url: URL)] {
        let mount = RemoteLocation.mount(containing: url)
        let root = mount?.root ?? URL(string: "\(url.scheme ?? "file")://\(url.host ?? "")/") ?? url
        var steps: [(title: String, icon: String?, url: URL)] = [(mount?.name ?? RemoteLocation.title(for: root), "folder-remote-symbolic", root)]
        let below = url.pathComponents.dropFirst(root.pathComponents.count)
        var current = root
        for component in below where component != "/" {
            current = current.appendingPathComponent(component, isDirectory: true)
            steps.append((component, nil, current))
        }
        return steps
    }

    private func showSteps(_ list: [(title: String, icon: String?, url: URL)]) {
        var steps = list
        if steps.count > maximumButtons {
            let hidden = steps[1..<(steps.count - maximumButtons + 1)]
            steps = [steps[0]] + [("…", nil, hidden.last!.url)] + steps.suffix(maximumButtons - 1)
        }
        for (offset, step) in steps.enumerated() {
            let isCurrent = offset == steps.count - 1
            let button = gtk_button_new()!
            // A folder's name as the browser shows names: invisible controls written out.
            let title = VisibleName.of(step.title)
            let content = makeContent(title, icon: step.icon)
            gtk_button_set_child(cast(button), content)
            if isCurrent { gtk_widget_add_css_class(content, "heading") }
            setAccessibleName(button, step.title == "…" ? VisibleName.of(step.url.lastPathComponent) : title)
            gtk_widget_set_tooltip_text(button, VisibleName.of(step.url.isFileURL ? displayPath(step.url.path, home: home)
                                                                                    : step.url.absoluteString))
            let target = step.url
            connectSignal(raw(button), "clicked") { [weak self] in
                self?.navigate?(target)
            }
            gtk_box_append(cast(box), button)
        }
    }

    private func makeContent(_ title: String, icon: String?) -> WidgetPointer {
        let label = makeLabel(title)
        gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(opaque(label), 24)
        guard let icon else { return label }
        return makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [gtk_image_new_from_icon_name(icon), label])
    }
}
