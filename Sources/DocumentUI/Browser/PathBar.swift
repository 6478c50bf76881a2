import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// The location as a linked row of buttons, one per ancestor folder (Home, under the home
/// folder, with its icon; otherwise the file system's root, or for a location that is not a
/// local path its mount); a click goes there. Recents, a tag and the Trash show a title instead.
@MainActor
final class PathBar {
    let widget: Widget
    private let box: Widget
    var navigate: ((URL) -> Void)?
    /// The most ancestors shown before the current folder; the rest are behind "…".
    private let maximumButtons = 5
    private let home: String

    init(home: String = NSHomeDirectory()) {
        self.home = home
        box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_add_css_class(box, "linked")
        widget = box
        setAccessibleName(widget, tr("Location"))
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
            let content = makeContent(step.title, icon: step.icon)
            gtk_button_set_child(cast(button), content)
            if isCurrent { gtk_widget_add_css_class(content, "heading") }
            setAccessibleName(button, step.title == "…" ? step.url.lastPathComponent : step.title)
            gtk_widget_set_tooltip_text(button, step.url.isFileURL ? displayPath(step.url.path, home: home) : step.url.absoluteString)
            let target = step.url
            connectSignal(raw(button), "clicked") { [weak self] in
                MainActor.assumeIsolated { self?.navigate?(target) }
            }
            gtk_box_append(cast(box), button)
        }
    }

    private func makeContent(_ title: String, icon: String?) -> Widget {
        let label = makeLabel(title)
        gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(opaque(label), 24)
        guard let icon else { return label }
        return makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [gtk_image_new_from_icon_name(icon), label])
    }
}
