// STAND-IN: replaced by the browser branch
import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// How the browser orders a location's items.
public struct BrowserSort: Codable, Hashable, Sendable {
    public enum Key: String, Codable, Hashable, Sendable, CaseIterable {
        case name, size, kind, modified
    }

    public var key: Key
    public var reversed: Bool

    public init(key: Key = .name, reversed: Bool = false) {
        self.key = key
        self.reversed = reversed
    }
}

/// A stand-in with the contract's API so the window builds before the real browser lands:
/// a label naming the location, and a "browser" action group with the navigation and view
/// actions.
@MainActor
public final class DocumentBrowser {
    public let widget: Widget
    public let pathBar: Widget
    public let headerControls: Widget
    public private(set) var location: BrowserLocation
    public var locationDidChange: ((BrowserLocation) -> Void)?
    public var stateDidChange: (() -> Void)?
    public var viewMode: BrowserViewMode = .grid { didSet { update(); stateDidChange?() } }
    public var sort = BrowserSort() { didSet { stateDidChange?() } }
    public var showsHidden = false { didSet { update(); stateDidChange?() } }
    public var zoomLevel = 2 { didSet { update(); stateDidChange?() } }
    public private(set) var selectedURLs: [URL] = []

    private var history: [BrowserLocation] = []
    private var future: [BrowserLocation] = []
    private let label: Widget
    private let title: Widget
    private let actions: UnsafeMutablePointer<GSimpleActionGroup>

    public init(location: BrowserLocation) {
        self.location = location
        label = gtk_label_new("")
        gtk_widget_set_vexpand(label, 1)
        gtk_widget_set_hexpand(label, 1)
        widget = makeBox(GTK_ORIENTATION_VERTICAL, [label])
        title = gtk_label_new("")
        gtk_widget_add_css_class(title, "title")
        pathBar = title
        headerControls = makeBox(GTK_ORIENTATION_HORIZONTAL, [])
        actions = g_simple_action_group_new()
        for widget in [widget, pathBar, headerControls] {
            gtk_widget_insert_action_group(widget, "browser", cast(actions))
        }
        addAction("back") { [weak self] _ in self?.goBack() }
        addAction("forward") { [weak self] _ in self?.goForward() }
        addAction("up") { [weak self] _ in
            guard let self, case .folder(let url) = self.location, url.path != "/" else { return }
            self.go(to: .folder(url.deletingLastPathComponent()))
        }
        addAction("view-mode", parameter: "s") { [weak self] mode in
            self?.viewMode = mode.flatMap(BrowserViewMode.init(rawValue:)) ?? .grid
        }
        addAction("show-hidden") { [weak self] _ in self?.showsHidden.toggle() }
        addAction("zoom-in") { [weak self] _ in self.map { $0.zoomLevel = min($0.zoomLevel + 1, 4) } }
        addAction("zoom-out") { [weak self] _ in self.map { $0.zoomLevel = max($0.zoomLevel - 1, 0) } }
        addAction("zoom-reset") { [weak self] _ in self?.zoomLevel = 2 }
        update()
    }

    public func go(to location: BrowserLocation) {
        guard location != self.location else { return }
        history.append(self.location)
        future = []
        move(to: location)
    }

    public func goBack() {
        guard let previous = history.popLast() else { return }
        future.append(location)
        move(to: previous)
    }

    public func goForward() {
        guard let next = future.popLast() else { return }
        history.append(location)
        move(to: next)
    }

    public var canGoBack: Bool { !history.isEmpty }
    public var canGoForward: Bool { !future.isEmpty }

    public func select(_ urls: [URL]) { selectedURLs = urls }
    public func focusSearch() {}

    private func move(to location: BrowserLocation) {
        self.location = location
        update()
        locationDidChange?(location)
    }

    private func update() {
        let name: String = switch location {
        case .folder(let url): url.lastPathComponent
        case .recents: "Recents"
        case .tag(let tag): tag
        case .trash: "Trash"
        }
        gtk_label_set_text(OpaquePointer(label), "Location \(location) (\(viewMode.rawValue))")
        setAccessibleName(label, "Location \(location)")
        gtk_label_set_text(OpaquePointer(title), name)
    }

    private func addAction(_ name: String, parameter: String? = nil, _ handler: @escaping (String?) -> Void) {
        let type = parameter.map { g_variant_type_new($0) }
        let action = g_simple_action_new(name, type ?? nil)!
        if let type { g_variant_type_free(type) }
        connectSignal(raw(action), "activate") { value in
            handler(value.flatMap { borrowString(g_variant_get_string(OpaquePointer($0), nil)) })
        }
        g_action_map_add_action(cast(actions), action)
        g_object_unref(raw(action))
    }
}
