import CGLib
import CX11
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
/// "On screen" is read off the X screen: the middle of the window (see `Readiness`).
final class PreviewerService {
    private let display: OpaquePointer
    private let bus: OpaquePointer
    private let dossier: String
    private let serviceFile: URL
    /// Where to save a picture of the screen at the moment content was detected, if anywhere.
    private let screenshots: URL?
    /// The longest one showing may take before it counts as failed.
    private static let patience: Duration = .seconds(30)
    /// How long content must stand still to count: more than a spinner's frame, and more than
    /// the in-between states previewers pass through (Sushi's web view first shows a blank
    /// square in a corner for a few hundred ms, which stood still for 150 ms under load).
    private static let stillness: Duration = .milliseconds(500)

    init(display: OpaquePointer, bus: OpaquePointer, dossier: String, screenshots: URL?) {
        self.display = display
        self.bus = bus
        self.dossier = dossier
        self.screenshots = screenshots
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

    /// One ShowFile, timed until the content is on screen (seconds; nil if it never came);
    /// then Close, and wait for the window to go. `name` names the screenshot, if one is kept.
    func show(_ file: URL, readiness: PreviewerInput.Readiness, name: String) -> Double? {
        let clock = ContinuousClock()
        let start = clock.now
        guard call("org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2",
                   "ShowFile", dossier_variant_tuple_ssb(file.absoluteString, "x11:0", 0)) else { return nil }
        var stableSince: ContinuousClock.Instant?
        var lastChecksum: UInt64 = 0
        var shownAt: Double?
        while clock.now - start < Self.patience {
            var spread = 0.0
            var checksum: UInt64 = 0
            guard let region = window(middle: readiness != .steadyEverywhere),
                  dossier_x11_region(display, region.x, region.y, region.width, region.height, &spread, &checksum) == 1 else {
                usleep(4_000)
                continue
            }
            let now = clock.now
            switch readiness {
            case .firstFrame:
                // testsrc2's colour bars: a spread in the thousands; the window around them, a
                // spinner or controls on a flat background, stays far below.
                if spread > 1000 { shownAt = Measure.seconds(now - start) }
            case .steady, .steadyEverywhere:
                if spread > 150 && checksum == lastChecksum {
                    if let since = stableSince, now - since >= Self.stillness { shownAt = Measure.seconds(since - start) }
                } else {
                    stableSince = spread > 150 ? now : nil
                }
            }
            if shownAt != nil { break }
            lastChecksum = checksum
            usleep(4_000)
        }
        if shownAt != nil, let screenshots { keepScreenshot(screenshots.appendingPathComponent(name + ".png")) }
        _ = call("org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2", "Close", nil)
        let closing = clock.now
        while clock.now - closing < .seconds(10), window(middle: true) != nil {
            usleep(10_000)
        }
        usleep(150_000)
        return shownAt
    }

    /// The largest window on screen (under a bare X server, the previewer's) below its header
    /// bar; or its middle: 60% of its width, 50% of its height. Mostly the middle: a PDF's page
    /// sidebar fills in after the page, and an overlay scrollbar fades out a second after a text
    /// shows; neither is the content, and both would keep the window changing.
    private func window(middle: Bool) -> (x: Int32, y: Int32, width: UInt32, height: UInt32)? {
        var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
        guard dossier_x11_largest_window(display, &x, &y, &width, &height) == 1 else { return nil }
        let screenWidth = Int32(XDisplayWidth(display, 0)), screenHeight = Int32(XDisplayHeight(display, 0))
        let w = Int32(width), h = Int32(height)
        var left = x + 4, top = y + 50, right = x + w - 4, bottom = y + h - 4
        if middle { left = x + w / 5; top = y + 60 + h / 5; right = x + w * 4 / 5; bottom = y + h * 7 / 10 }
        left = max(left, 0); top = max(top, 0); right = min(right, screenWidth); bottom = min(bottom, screenHeight)
        guard right - left > 20, bottom - top > 20 else { return nil }
        return (left, top, UInt32(right - left), UInt32(bottom - top))
    }

    /// The whole screen as ImageMagick's `import` reads it, to look at what was detected.
    private func keepScreenshot(_ url: URL) {
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try? Measure.run("/usr/bin/import", ["-window", "root", url.path])
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
