import CGLib
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport

/// What Dossier remembers between runs — window size, last location, view mode, sort, hidden
/// files and zoom — in a keyfile, `$XDG_STATE_HOME/dossier/state.ini` (`~/.local/state`
/// when unset). Changes are written half a second after the last one, off the main thread,
/// and at once when a window closes.
@MainActor
final class WindowState {
    struct Values: Equatable {
        var width: Int32 = 1000
        var height: Int32 = 700
        var maximized = false
        var location: BrowserLocation?
        var viewMode: BrowserViewMode = .grid
        var sort: BrowserSort?
        var showsHidden = false
        var zoomLevel: Int?
    }

    let fileURL: URL
    private(set) var values = Values()
    private var pendingWrite: DispatchWorkItem?
    private let writer = DispatchQueue(label: "dossier.window-state")

    /// `$XDG_STATE_HOME/dossier/state.ini`, or `~/.local/state/dossier/state.ini`.
    static var defaultFileURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return URL(fileURLWithPath: base).appendingPathComponent("dossier/state.ini")
    }

    /// Reads the keyfile (a few hundred bytes, once, before the first window); a missing or
    /// damaged file gives the defaults.
    init(fileURL: URL = WindowState.defaultFileURL) {
        self.fileURL = fileURL
        let file = g_key_file_new()!
        defer { g_key_file_unref(file) }
        guard g_key_file_load_from_file(file, fileURL.path, GKeyFileFlags(rawValue: 0), nil) != 0 else { return }
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
        if let width = integer("window", "width"), width >= 360 { values.width = width }
        if let height = integer("window", "height"), height >= 294 { values.height = height }
        values.maximized = boolean("window", "maximized") ?? false
        values.location = string("browser", "location").flatMap(Self.location(from:))
        values.viewMode = string("browser", "view-mode").flatMap(BrowserViewMode.init(rawValue:)) ?? .grid
        values.sort = string("browser", "sort").flatMap { try? JSONDecoder().decode(BrowserSort.self, from: Data($0.utf8)) }
        values.showsHidden = boolean("browser", "show-hidden") ?? false
        values.zoomLevel = integer("browser", "zoom-level").map(Int.init)
    }

    /// Changes the remembered values; they are written shortly after.
    func update(_ change: (inout Values) -> Void) {
        var changed = values
        change(&changed)
        guard changed != values else { return }
        values = changed
        pendingWrite?.cancel()
        let data = keyfileText()
        let item = DispatchWorkItem { [fileURL] in Self.write(data, to: fileURL) }
        pendingWrite = item
        writer.asyncAfter(deadline: .now() + 0.5, execute: item)
    }

    /// Writes now what is pending, and waits for it (a window closing, the app quitting).
    func flush() {
        guard let pending = pendingWrite else { return }
        pendingWrite = nil
        pending.cancel()
        let data = keyfileText()
        writer.sync { Self.write(data, to: fileURL) }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private func keyfileText() -> String {
        let file = g_key_file_new()!
        defer { g_key_file_unref(file) }
        g_key_file_set_comment(file, nil, nil, " Dossier's window state; rewritten as you use it.", nil)
        g_key_file_set_integer(file, "window", "width", values.width)
        g_key_file_set_integer(file, "window", "height", values.height)
        g_key_file_set_boolean(file, "window", "maximized", values.maximized ? 1 : 0)
        if let location = values.location { g_key_file_set_string(file, "browser", "location", Self.text(for: location)) }
        g_key_file_set_string(file, "browser", "view-mode", values.viewMode.rawValue)
        if let sort = values.sort, let data = try? Self.encoder.encode(sort) {
            g_key_file_set_string(file, "browser", "sort", String(decoding: data, as: UTF8.self))
        }
        g_key_file_set_boolean(file, "browser", "show-hidden", values.showsHidden ? 1 : 0)
        if let zoom = values.zoomLevel { g_key_file_set_integer(file, "browser", "zoom-level", Int32(zoom)) }
        return takeString(g_key_file_to_data(file, nil, nil)) ?? ""
    }

    /// Atomically replaces the file (GLib writes a temporary file and renames it).
    private nonisolated static func write(_ text: String, to url: URL) {
        g_mkdir_with_parents(url.deletingLastPathComponent().path, 0o700)
        var error: UnsafeMutablePointer<GError>?
        if g_file_set_contents(url.path, text, gssize(text.utf8.count), &error) == 0, let error {
            FileHandle.standardError.write(Data(("dossier: " + tr("The window state could not be saved in %s: %s",
                                                                 url.path, String(cString: error.pointee.message)) + "\n").utf8))
            g_error_free(error)
        }
    }

    // MARK: Locations as text

    /// `recents:`, `trash:`, `tag:NAME`, or the folder's URI.
    static func text(for location: BrowserLocation) -> String {
        switch location {
        case .folder(let url): url.absoluteString
        case .recents, .trash, .tag: location.description
        }
    }

    static func location(from text: String) -> BrowserLocation? {
        if text == "recents:" { return .recents }
        if text == "trash:" { return .trash }
        if text.hasPrefix("tag:") { return .tag(String(text.dropFirst(4))) }
        guard let url = URL(string: text), url.scheme != nil else { return nil }
        return .folder(url.isFileURL ? url.standardizedFileURL : url)
    }
}
