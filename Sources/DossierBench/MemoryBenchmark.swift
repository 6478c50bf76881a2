import CGLib
import CX11
import DocumentCore
import DossierFixtures
import Foundation

/// The previewer service's resident memory over time, against Sushi on the same sequence in
/// the same run: at start (activated, idle), after a first pass over every kind of file, after
/// 100 showings, and 60 s later. The files are `data/samples` and the fixtures
/// (`SampleFiles`: images, PDF, text, code, HTML, Markdown, CSV, video, audio, fonts, archives,
/// office documents, a folder), shown in turn as Nautilus shows them (`ShowFile`, the window
/// kept open from one to the next, closed every tenth), each until its window has settled (at
/// most 3 s). The pass readings are taken in one state: a small text shown and settled; the
/// last one 60 s after the window closed (a service that quit then reads "quit", 0 MB). The
/// service's own figure and its helper processes' (its descendants and this session's WebKit
/// processes) are apart. Needs a display and a session bus (`make bench` starts both).
enum MemoryBenchmark {
    static let sushi = "/usr/libexec/org.gnome.NautilusPreviewer"
    static let showings = 100
    static let laterSeconds: UInt32 = 60

    struct Reading {
        /// NaN when no process owned the name (the service had quit).
        var own = Double.nan
        var helpers = Double.nan
        var helperNames: [String] = []
    }

    static func run() throws {
        guard let session = BenchSession("Memory", peer: sushi, named: "Sushi (Debian's gnome-sushi)") else { return }
        defer { session.close() }
        let display = session.display
        let bus = session.bus

        let folder = try TemporaryFolder("dossier-bench-memory")
        let files = try sequence(in: folder.url)
        let dossier = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("dossier").path
        let serviceFile = URL(fileURLWithPath: String(cString: g_get_user_data_dir()))
            .appendingPathComponent("dbus-1/services/org.gnome.NautilusPreviewer.service")

        var readings: [String: [Reading]] = [:]
        var peaks: [String: Double] = [:]
        let reference = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("data/samples/notes.txt")
        for previewer in ["Dossier", "Sushi"] {
            try? FileManager.default.removeItem(at: serviceFile)
            if previewer == "Dossier" {
                try FileManager.default.createDirectory(at: serviceFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("[D-BUS Service]\nName=org.gnome.NautilusPreviewer\nExec=\(dossier) previewer-service\n".utf8).write(to: serviceFile)
            }
            _ = PreviewerBus.call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig", nil)
            PreviewerBus.stopService(bus)
            guard PreviewerBus.start(bus), PreviewerBus.servicePID(bus) != nil else {
                print("Memory: \(previewer)'s service did not start")
                continue
            }
            usleep(2_000_000)
            var series = [reading(bus)]
            var peakHelpers = 0.0
            for index in 0..<showings {
                show(files[index % files.count], display: display, bus: bus)
                peakHelpers = max(peakHelpers, reading(bus).helpers)
                if index % 10 == 9 {
                    _ = PreviewerBus.call(bus, "org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2", "Close", nil)
                }
                if index == files.count - 1 || index == showings - 1 {
                    // The same state at each reading: one small text shown, settled.
                    show(reference, display: display, bus: bus)
                    usleep(1_000_000)
                    series.append(reading(bus))
                }
            }
            _ = PreviewerBus.call(bus, "org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2", "Close", nil)
            sleep(laterSeconds)
            series.append(reading(bus))
            peaks[previewer] = peakHelpers
            readings[previewer] = series
            PreviewerBus.stopService(bus)
        }
        try? FileManager.default.removeItem(at: serviceFile)
        _ = PreviewerBus.call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig", nil)
        report(readings, peaks: peaks, files: files)
    }

    private static func report(_ readings: [String: [Reading]], peaks: [String: Double], files: [URL]) {
        let sushiVersion = ((try? Measure.run("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "gnome-sushi"])) ?? "")
            .split(separator: "-").first.map(String.init) ?? "?"
        print("Memory: the previewer service over \(showings) showings of \(files.count) files of every kind in turn, "
              + "Dossier vs Sushi \(sushiVersion); resident MB, the service + its helper processes (WebKit…), read with a small text shown (the last 60 s after closing)")
        print("  load average \(PhotoFolderBenchmark.loadAverage())")
        let columns = ["start", "after pass 1 (\(min(files.count, showings)))", "after \(showings)", "closed, \(laterSeconds) s later"]
        print("  " + "".padding(toLength: 10, withPad: " ", startingAt: 0)
              + columns.map { $0.padding(toLength: 22, withPad: " ", startingAt: 0) }.joined())
        for previewer in ["Dossier", "Sushi"] {
            guard let series = readings[previewer] else { continue }
            let cells = series.map { reading in
                (reading.own.isNaN ? "quit" : String(format: "%5.0f + %-5.0f", reading.own, reading.helpers)).padding(toLength: 22, withPad: " ", startingAt: 0)
            }
            print("  " + previewer.padding(toLength: 10, withPad: " ", startingAt: 0) + cells.joined()
                  + String(format: "  (helpers at most %.0f MB while showing)", peaks[previewer] ?? .nan))
        }
        guard let ours = readings["Dossier"], let theirs = readings["Sushi"], ours.count == 4, theirs.count == 4 else { return }
        // A service that quit holds nothing.
        func total(_ reading: Reading) -> Double { reading.own.isNaN ? 0 : reading.own + reading.helpers }
        // "No growth": within 5 % (or 5 MB) of the figure after the first pass.
        func grew(_ series: [Reading]) -> Double { max(total(series[2]), total(series[3])) - total(series[1]) }
        let allowance = max(5, total(ours[1]) * 0.05)
        print(String(format: "  growth after the first pass (largest later reading − after pass 1, with helpers): Dossier %+.0f MB, Sushi %+.0f MB (aim none, within %.0f MB: %@)",
                     grew(ours), grew(theirs), allowance, (grew(ours) <= allowance ? "met" : "missed") as NSString))
        for (label, index) in [("after \(showings)", 2), ("\(laterSeconds) s later", 3)] {
            // Sushi quits when its window has been closed for a while: nothing to compare then.
            guard !theirs[index].own.isNaN else {
                print(String(format: "  %@: Dossier holds %.0f MB; Sushi had quit (nothing to compare)", label as NSString, total(ours[index])))
                continue
            }
            let ownRatio = (ours[index].own.isNaN ? 0 : ours[index].own) / theirs[index].own
            let totalRatio = total(ours[index]) / total(theirs[index])
            print(String(format: "  %@: Dossier takes %.2f× Sushi's memory (service alone %.2f×) (aim ≤ 1×: %@)",
                         label as NSString, totalRatio, ownRatio, (totalRatio <= 1 && ownRatio <= 1 ? "met" : "missed") as NSString))
        }
        for previewer in ["Dossier", "Sushi"] {
            let names = Set(readings[previewer]?.flatMap(\.helperNames) ?? []).sorted()
            print("  \(previewer)'s helper processes seen: \(names.isEmpty ? "none" : names.joined(separator: ", "))")
        }
    }

    /// The service now (whoever owns the name: a service may quit when idle and be started
    /// again by the next call), and its helpers: its descendants, and the WebKit processes of
    /// this session (WebKit may start them outside the service's own tree).
    private static func reading(_ bus: OpaquePointer) -> Reading {
        guard let pid = PreviewerBus.servicePID(bus) else { return Reading(own: .nan, helpers: 0, helperNames: []) }
        let tree = ProcessMemory.tree(pid)
        var helpers = tree.children, names = tree.names
        let descendants = Set(ProcessMemory.descendants(of: pid).map(\.pid))
        for process in webProcessesOfThisSession() where !descendants.contains(process.pid) {
            let size = ProcessMemory.megabytes(process.pid)
            if !size.isNaN {
                helpers += size
                names.append(process.name)
            }
        }
        return Reading(own: tree.own, helpers: helpers, helperNames: names)
    }

    /// WebKit's processes on this D-Bus session.
    private static func webProcessesOfThisSession() -> [(pid: pid_t, name: String)] {
        guard let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] else { return [] }
        let marker = "DBUS_SESSION_BUS_ADDRESS=" + address
        var found: [(pid: pid_t, name: String)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                  let name = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8), name.hasPrefix("WebKit"),
                  let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
            if environment.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == marker }) {
                found.append((pid, name.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
        }
        return found
    }

    /// `data/samples` and every fixture kind, interleaved so kinds follow each other.
    private static func sequence(in folder: URL) throws -> [URL] {
        let samples = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("data/samples")
        let sampleFiles = ((try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []).sorted()
            .map { samples.appendingPathComponent($0) }
        let fixtures = try SampleFiles.writeAll(into: folder.appendingPathComponent("fixtures"))
        var files: [URL] = []
        for index in 0..<max(sampleFiles.count, fixtures.count) {
            if index < sampleFiles.count { files.append(sampleFiles[index]) }
            if index < fixtures.count { files.append(fixtures[index]) }
        }
        return files
    }

    /// ShowFile, then wait until the window's middle has settled (not flat, and unchanged for
    /// longer than a spinner's frame; a video never settles), for a few seconds at most.
    private static func show(_ file: URL, display: OpaquePointer, bus: OpaquePointer) {
        let start = ContinuousClock.now
        guard PreviewerBus.call(bus, "org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", "org.gnome.NautilusPreviewer2",
                                "ShowFile", dossier_variant_tuple_ssb(file.absoluteString, "x11:0", 0)) else { return }
        var lastChecksum: UInt64 = 0
        var steadySince: ContinuousClock.Instant?
        while ContinuousClock.now - start < .seconds(3) {
            var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
            var spread = 0.0
            var checksum: UInt64 = 0
            if dossier_x11_largest_window(display, &x, &y, &width, &height) == 1, width > 200, height > 200,
               dossier_x11_region(display, max(0, x + Int32(width) / 5), max(0, y + 60), width * 3 / 5, height / 2, &spread, &checksum) == 1 {
                if checksum == lastChecksum, spread > 20 {
                    if let since = steadySince, ContinuousClock.now - since > .milliseconds(200) { return }
                    if steadySince == nil { steadySince = .now }
                } else {
                    steadySince = nil
                }
                lastChecksum = checksum
            }
            usleep(20_000)
        }
    }
}

/// The previewer's bus name: calls, its owner's process, ending it.
enum PreviewerBus {
    @discardableResult
    static func call(_ bus: OpaquePointer, _ name: String, _ path: String, _ interface: String, _ method: String,
                     _ parameters: OpaquePointer?) -> Bool {
        let reply = g_dbus_connection_call_sync(bus, name, path, interface, method, parameters, nil, GDBusCallFlags(rawValue: 0),
                                                60_000, nil, nil)
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }

    /// Starts the service as D-Bus activation does, without showing anything.
    static func start(_ bus: OpaquePointer) -> Bool {
        var arguments: [OpaquePointer?] = [g_variant_new_string("org.gnome.NautilusPreviewer"), g_variant_new_uint32(0)]
        return call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "StartServiceByName",
                    g_variant_new_tuple(&arguments, 2))
    }

    static func servicePID(_ bus: OpaquePointer) -> pid_t? {
        let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                "GetConnectionUnixProcessID", dossier_variant_tuple_s("org.gnome.NautilusPreviewer"),
                                                nil, GDBusCallFlags(rawValue: 0), 2000, nil, nil)
        guard let reply else { return nil }
        defer { g_variant_unref(reply) }
        return pid_t(dossier_variant_get_u(reply))
    }

    /// Ends whatever owns the previewer name, and waits for it to go.
    static func stopService(_ bus: OpaquePointer) {
        guard let pid = servicePID(bus) else { return }
        kill(pid, SIGTERM)
        for _ in 0..<250 {
            if kill(pid, 0) != 0 { break }
            usleep(20_000)
        }
        if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        usleep(300_000)
    }
}
