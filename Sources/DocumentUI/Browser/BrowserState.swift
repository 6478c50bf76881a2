import CGtk
import Foundation
import GObjectSupport

/// What a browser window remembers between runs — its size, the location shown, view mode,
/// sort, hidden files and zoom — and its text as a GLib keyfile (Dossier keeps it in
/// `$XDG_STATE_HOME/dossier/state.ini`). Reading never fails: a damaged file, a missing key
/// or a value out of range leaves that value at its default.
package struct BrowserState: Equatable, Sendable {
    package var width: Int32 = 1000
    package var height: Int32 = 700
    package var maximized = false
    package var location: BrowserLocation?
    package var viewMode: BrowserViewMode = .grid
    package var sort: BrowserSort?
    package var showsHidden = false
    package var zoomLevel: Int?

    /// Smaller windows than this are not restored (GNOME's smallest useful browser window).
    package static let minimumWidth: Int32 = 360
    package static let minimumHeight: Int32 = 294

    package init() {}

    /// Reads the keyfile's bytes.
    package init(keyfile data: Data) {
        let file = g_key_file_new()!
        defer { g_key_file_unref(file) }
        let loaded = data.withUnsafeBytes { bytes -> Bool in
            guard let start = bytes.baseAddress?.assumingMemoryBound(to: gchar.self) else { return false }
            return g_key_file_load_from_data(file, start, gsize(bytes.count), GKeyFileFlags(rawValue: 0), nil) != 0
        }
        guard loaded else { return }
        func integer(_ group: String, _ key: String) -> Int32? {
            var error: UnsafeMutablePointer<GError>?
            let value = g_key_file_get_integer(file, group, key, &error)
            if let error { g_error_free(error); return nil }
            return value
        }
        func boolean(_ group: String, _ key: String) -> Bool? {
            var error: UnsafeMutablePointer<GError>?
            let value = g_key_file_get_boolean(file, group, key, &error)
            if let error { g_error_free(error); return nil }
            return value != 0
        }
        func string(_ group: String, _ key: String) -> String? {
            takeString(g_key_file_get_string(file, group, key, nil))
        }
        if let width = integer("window", "width"), width >= Self.minimumWidth { self.width = width }
        if let height = integer("window", "height"), height >= Self.minimumHeight { self.height = height }
        maximized = boolean("window", "maximized") ?? false
        location = string("browser", "location").flatMap(Self.location(from:))
        viewMode = string("browser", "view-mode").flatMap(BrowserViewMode.init(rawValue:)) ?? .grid
        sort = string("browser", "sort").flatMap { try? JSONDecoder().decode(BrowserSort.self, from: Data($0.utf8)) }
        showsHidden = boolean("browser", "show-hidden") ?? false
        zoomLevel = integer("browser", "zoom-level").map(Int.init)
    }

    /// The keyfile's text, with a comment on top.
    package var keyfileText: String {
        let file = g_key_file_new()!
        defer { g_key_file_unref(file) }
        g_key_file_set_comment(file, nil, nil, " Dossier's window state; rewritten as you use it.", nil)
        g_key_file_set_integer(file, "window", "width", width)
        g_key_file_set_integer(file, "window", "height", height)
        g_key_file_set_boolean(file, "window", "maximized", maximized ? 1 : 0)
        if let location { g_key_file_set_string(file, "browser", "location", Self.text(for: location)) }
        g_key_file_set_string(file, "browser", "view-mode", viewMode.rawValue)
        if let sort, let data = try? Self.encoder.encode(sort) {
            g_key_file_set_string(file, "browser", "sort", String(decoding: data, as: UTF8.self))
        }
        g_key_file_set_boolean(file, "browser", "show-hidden", showsHidden ? 1 : 0)
        if let zoomLevel { g_key_file_set_integer(file, "browser", "zoom-level", Int32(zoomLevel)) }
        return takeString(g_key_file_to_data(file, nil, nil)) ?? ""
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    // MARK: Locations as text

    /// `recents:`, `trash:`, `tag:NAME`, or the folder's URI.
    package static func text(for location: BrowserLocation) -> String {
        switch location {
        case .folder(let url): url.absoluteString
        case .recents, .trash, .tag: location.description
        }
    }

    /// The location `text(for:)` wrote; nil for anything else. A `file:` URL must name its
    /// folder by an absolute path: `file:Documents` would be relative to wherever Dossier
    /// happened to be started.
    package static func location(from text: String) -> BrowserLocation? {
        if text == "recents:" { return .recents }
        if text == "trash:" { return .trash }
        if text.hasPrefix("tag:") { return .tag(String(text.dropFirst(4))) }
        guard let url = URL(string: text), url.scheme != nil else { return nil }
        guard url.isFileURL else { return .folder(url) }
        guard url.path.hasPrefix("/") else { return nil }
        return .folder(url.standardizedFileURL)
    }
}
