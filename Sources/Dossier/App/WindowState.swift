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
    let fileURL: URL
    private(set) var values = BrowserState()
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
        if let data = FileManager.default.contents(atPath: fileURL.path) { values = BrowserState(keyfile: data) }
    }

    /// Changes the remembered values; they are written shortly after.
    func update(_ change: (inout BrowserState) -> Void) {
        var changed = values
        change(&changed)
        guard changed != values else { return }
        values = changed
        pendingWrite?.cancel()
        let data = values.keyfileText
        let item = DispatchWorkItem { [fileURL] in Self.write(data, to: fileURL) }
        pendingWrite = item
        writer.asyncAfter(deadline: .now() + 0.5, execute: item)
    }

    /// Writes now what is pending, and waits for it (a window closing, the app quitting).
    func flush() {
        guard let pending = pendingWrite else { return }
        pendingWrite = nil
        pending.cancel()
        let data = values.keyfileText
        writer.sync { Self.write(data, to: fileURL) }
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
}
