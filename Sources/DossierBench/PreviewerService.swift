import CGLib
import DocumentCore
import Foundation

/// The two previewers the bench compares: both answer Nautilus's `org.gnome.NautilusPreviewer`
/// on the session bus, started by D-Bus activation.
enum Previewer: String, CaseIterable {
    case dossier = "Dossier"
    case sushi = "Sushi"

    static let sushiProgram = "/usr/libexec/org.gnome.NautilusPreviewer"
}

/// The previewer service as Nautilus sees it: which program the bus starts for the name, and
/// a `ShowFile` timed from outside until its content is on screen, the same way for both.
/// "On screen" is read off the X screen (`WindowContent`).
final class PreviewerService {
    private let bus: OpaquePointer
    private let dossier: String
    private let serviceFile: URL
    /// The previewer's window, read off the screen.
    private let content: WindowContent
    /// ShowFile with Nautilus 50's fourth argument, an activation token (here empty): Sushi 50
    /// takes only that form; Dossier takes both.
    private let withActivationToken: Bool

    init(content: WindowContent, bus: OpaquePointer, dossier: String, withActivationToken: Bool) {
        self.content = content
        self.withActivationToken = withActivationToken
        self.bus = bus
        self.dossier = dossier
        serviceFile = URL(fileURLWithPath: String(cString: g_get_user_data_dir()))
            .appendingPathComponent("dbus-1/services/org.gnome.NautilusPreviewer.service")
    }

    /// Makes the bus start `previewer` for the name from now on (the user's service file wins
    /// over Sushi's system one), and ends whichever previewer runs now.
    func use(_ previewer: Previewer?) throws {
        stop()
        try? FileManager.default.removeItem(at: serviceFile)
        if previewer == .dossier {
            try FileManager.default.createDirectory(at: serviceFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("[D-BUS Service]\nName=org.gnome.NautilusPreviewer\nExec=\(dossier) previewer-service\n".utf8).write(to: serviceFile)
        }
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig", nil)
    }

    /// Ends whatever owns the previewer name, so the next call starts it cold.
    func stop() {
        let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                "GetConnectionUnixProcessID", dossier_variant_tuple_s("org.gnome.NautilusPreviewer"),
                                                nil, GDBusCallFlags(rawValue: 0), 2000, nil, nil)
        guard let reply else { return }
        let pid = dossier_variant_get_u(reply)
        g_variant_unref(reply)
        kill(pid_t(pid), SIGTERM)
        for _ in 0..<200 {
            if kill(pid_t(pid), 0) != 0 { break }
            usleep(20_000)
        }
        usleep(150_000)
    }

    /// One ShowFile, timed until the content is on screen (seconds); then Close, and wait for
    /// the window to go. Infinity when the content did not come within `WindowContent.patience`
    /// (a time known only to be longer than that); nil when the call itself failed. `name` names
    /// the screenshot, if one is kept.
    func show(_ file: URL, readiness: PreviewerInput.Readiness, name: String) -> Double? {
        StageTrace.mark("bench ShowFile \(name)")
        let start = ContinuousClock.now
        guard call("org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2",
                   "ShowFile", showFileArguments(file)) else { return nil }
        let shownAt = content.waitForContent(since: start, readiness: readiness, name: name)
        StageTrace.mark("bench content \(shownAt.map { String(Int($0 * 1000)) } ?? "none")")
        _ = call("org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2", "Close", nil)
        content.waitUntilGone()
        return shownAt ?? .infinity
    }

    /// (uri, window handle, close if shown), and an empty activation token where the previewer wants one.
    private func showFileArguments(_ file: URL) -> OpaquePointer? {
        guard withActivationToken else { return dossier_variant_tuple_ssb(file.absoluteString, "x11:0", 0) }
        var children: [OpaquePointer?] = [g_variant_new_string(file.absoluteString), g_variant_new_string("x11:0"),
                                          g_variant_new_boolean(0), g_variant_new_string("")]
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    @discardableResult
    private func call(_ name: String, _ path: String, _ interface: String, _ method: String, _ parameters: OpaquePointer?) -> Bool {
        let reply = g_dbus_connection_call_sync(bus, name, path, interface, method, parameters, nil, GDBusCallFlags(rawValue: 0),
                                                60_000, nil, nil)
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }
}
