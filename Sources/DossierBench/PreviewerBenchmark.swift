import CGLib
import CImaging
import CX11
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport

/// The time from Nautilus's `ShowFile` D-Bus call to the window showing the content, measured
/// from outside the same way for Dossier and for Sushi (GNOME's previewer), on the same files
/// in the same run: warm (the service already running) and cold (started by the call).
/// "Showing the content" is read off the screen: the window's middle is no longer flat and
/// has stopped changing. Needs a display and a session bus (`make bench` starts both).
/// Rounds are medians of 9 warm and 7 cold showings: Sushi's own cold time moves between
/// about 280 and 650 ms from one run to the next, and a median of 3 swung the ratio by ±0.15.
enum PreviewerBenchmark {
    static let sushi = "/usr/libexec/org.gnome.NautilusPreviewer"
    static let warmRounds = 9
    static let coldRounds = 7

    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil, environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            print("Previewer: skipped, needs a display and a session bus (make bench starts them)")
            return
        }
        guard FileManager.default.isExecutableFile(atPath: sushi) else {
            print("Previewer: skipped, Sushi (Debian's gnome-sushi) is not installed")
            return
        }
        guard let display = XOpenDisplay(nil), let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else {
            print("Previewer: skipped, the display or the session bus cannot be reached")
            return
        }
        defer { XCloseDisplay(display) }
        dossier_x11_tolerate_errors()
        let folder = try TemporaryFolder("dossier-bench-previewer")
        let files = [
            ("12 MP JPEG", try ThumbnailBenchmark.makePhoto(at: folder.url.appendingPathComponent("photo.jpg"))),
            ("50-page PDF", try makePDF(at: folder.url.appendingPathComponent("document.pdf"), pages: 50)),
            ("10 MB text", try makeText(at: folder.url.appendingPathComponent("log.txt"), bytes: 10 << 20)),
        ]
        let dossier = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("dossier").path
        let serviceFile = URL(fileURLWithPath: String(cString: g_get_user_data_dir()))
            .appendingPathComponent("dbus-1/services/org.gnome.NautilusPreviewer.service")

        var results: [String: [String: Double]] = [:]
        for previewer in ["Dossier", "Sushi"] {
            try? FileManager.default.removeItem(at: serviceFile)
            if previewer == "Dossier" {
                try FileManager.default.createDirectory(at: serviceFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("[D-BUS Service]\nName=org.gnome.NautilusPreviewer\nExec=\(dossier) previewer-service\n".utf8).write(to: serviceFile)
            }
            call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig", nil)
            for (label, file) in files {
                var cold: [Double] = []
                for _ in 0..<coldRounds {
                    stopService(bus)
                    if let time = measure(display, bus, file) { cold.append(time) }
                }
                var warm: [Double] = []
                for _ in 0..<warmRounds {
                    if let time = measure(display, bus, file) { warm.append(time) }
                }
                results[previewer, default: [:]]["\(label) cold"] = Measure.median(cold)
                results[previewer, default: [:]]["\(label) warm"] = Measure.median(warm)
            }
            stopService(bus)
        }
        try? FileManager.default.removeItem(at: serviceFile)
        call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig", nil)

        print("Previewer: ShowFile to content on screen, Dossier vs Sushi 43, medians (\(warmRounds) warm, \(coldRounds) cold)")
        for (label, _) in files {
            for temperature in ["warm", "cold"] {
                let key = "\(label) \(temperature)"
                let ours = results["Dossier"]?[key] ?? .nan
                let theirs = results["Sushi"]?[key] ?? .nan
                print(String(format: "  %-24@ Dossier %7.0f ms   Sushi %7.0f ms   Dossier takes %.2f× Sushi's time",
                             key as NSString, ours * 1000, theirs * 1000, ours / theirs))
            }
        }
    }

    /// One ShowFile, timed until the content is on screen; then Close, and wait for the window to go.
    private static func measure(_ display: OpaquePointer, _ bus: OpaquePointer, _ file: URL) -> Double? {
        let clock = ContinuousClock()
        let start = clock.now
        let reply = call(bus, "org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2",
                         "ShowFile", dossier_variant_tuple_ssb(file.absoluteString, "x11:0", 0))
        guard reply else { return nil }
        var stableSince: ContinuousClock.Instant?
        var lastChecksum: UInt64 = 0
        var shownAt: Double?
        while clock.now - start < .seconds(60) {
            var spread = 0.0
            var checksum: UInt64 = 0
            // The middle of the previewer's window, wherever it was placed, below its header.
            guard let region = windowMiddle(display) else {
                usleep(4_000)
                continue
            }
            guard dossier_x11_region(display, region.x, region.y, region.width, region.height, &spread, &checksum) == 1 else {
                usleep(4_000)
                continue
            }
            let now = clock.now
            if spread > 150 && checksum == lastChecksum {
                if let since = stableSince, now - since >= .milliseconds(150) {
                    shownAt = Measure.seconds(since - start)
                    break
                }
            } else {
                stableSince = spread > 150 ? now : nil
            }
            lastChecksum = checksum
            usleep(4_000)
        }
        _ = call(bus, "org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2", "Close", nil)
        let closing = clock.now
        while clock.now - closing < .seconds(10), windowMiddle(display) != nil {
            usleep(10_000)
        }
        usleep(300_000)
        return shownAt
    }

    /// The middle of the largest window on screen, below its header bar: 60% of its width,
    /// 50% of its height.
    private static func windowMiddle(_ display: OpaquePointer) -> (x: Int32, y: Int32, width: UInt32, height: UInt32)? {
        var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
        guard dossier_x11_largest_window(display, &x, &y, &width, &height) == 1 else { return nil }
        let screenWidth = Int32(XDisplayWidth(display, 0)), screenHeight = Int32(XDisplayHeight(display, 0))
        var left = x + Int32(width) / 5, top = y + 60 + Int32(height) / 5
        var right = x + Int32(width) * 4 / 5, bottom = y + Int32(height) * 7 / 10
        left = max(left, 0); top = max(top, 0); right = min(right, screenWidth); bottom = min(bottom, screenHeight)
        guard right - left > 20, bottom - top > 20 else { return nil }
        return (left, top, UInt32(right - left), UInt32(bottom - top))
    }

    /// Ends whatever owns the previewer name, so the next call starts it cold.
    private static func stopService(_ bus: OpaquePointer) {
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
        usleep(300_000)
    }

    @discardableResult
    private static func call(_ bus: OpaquePointer, _ name: String, _ path: String, _ interface: String, _ method: String,
                             _ parameters: OpaquePointer?) -> Bool {
        let reply = g_dbus_connection_call_sync(bus, name, path, interface, method, parameters, nil, GDBusCallFlags(rawValue: 0),
                                                60_000, nil, nil)
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }

    /// A PDF of `pages` pages of text, drawn with cairo.
    static func makePDF(at url: URL, pages: Int) throws -> URL {
        let surface = cairo_pdf_surface_create(url.path, 595, 842)
        let context = cairo_create(surface)
        cairo_select_font_face(context, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        for page in 1...pages {
            cairo_set_font_size(context, 24)
            cairo_move_to(context, 60, 90)
            cairo_show_text(context, "Page \(page) of the benchmark document")
            cairo_set_font_size(context, 11)
            for line in 0..<50 {
                cairo_move_to(context, 60, 130 + Double(line) * 13.5)
                cairo_show_text(context, "Line \(line + 1): the previewer shows every page of this document, scrolled.")
            }
            cairo_show_page(context)
        }
        cairo_destroy(context)
        cairo_surface_destroy(surface)
        return url
    }

    static func makeText(at url: URL, bytes: Int) throws -> URL {
        var text = ""
        var line = 0
        while text.utf8.count < bytes {
            line += 1
            text += "2026-11-21 10:\(String(format: "%02d", line % 60)):00 INFO request \(line) served in \(line % 97) ms from cache\n"
        }
        try Data(text.utf8).write(to: url)
        return url
    }
}
