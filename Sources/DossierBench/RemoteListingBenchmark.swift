import CGLib
import CX11
import DossierFixtures
import Foundation

/// A 1,000-file folder on an SFTP server, opened by its `sftp://` URI in Dossier's browser and
/// in Nautilus 43 in the same run, both through the session's GVFS:
/// - launch to the first items drawn: the view's area stops being flat, read from the screen
///   as the browser bench reads it (`BrowserBenchmark.waitForGrid`);
/// - launch to the whole listing: the view's scrollable height reaches its final value, read
///   through AT-SPI (`ViewLength`), and not before the first items are drawn. A GTK 4 grid
///   draws only the cells on screen, so neither the screen nor the accessibility tree's cells
///   can say that the last item arrived; the height the view scrolls over can, and it is the
///   same reading for both apps.
///
/// The server is the tests' real sshd (`RemoteServer`, as root: sshd checks system passwords)
/// on 127.0.0.1, reached at full speed and through a slow line (`ThrottledLink`), each mounted
/// once before the passes. Each pass starts a new process and window of each app, the apps
/// alternating, with the thumbnail and download caches emptied. Needs a display and a session
/// bus (`make bench` starts both).
enum RemoteListingBenchmark {
    static let fileCount = 1_000
    static let folderName = "1000 files"
    /// The slow line's pace: a listing of 1,000 entries (roughly 130 KB of SFTP replies) then
    /// takes about half a second, long enough to tell the first items from the last.
    static let slowLine = 256 << 10
    /// Both windows get Dossier's default size (Nautilus is told through its settings).
    static let windowSize = (width: 1000, height: 700)
    /// How long the view's length must stand still to count as the whole listing.
    static let stillness = 4.0

    enum Peer: String, CaseIterable {
        case dossier = "Dossier", nautilus = "Nautilus"
    }

    /// One way to the server: its name in the report and the folder's URI through it.
    struct Line {
        let name: String
        let uri: String
    }

    /// One launch's times in seconds (nil: not seen), the window's size and the view's final length.
    struct Pass {
        var firstItems: Double?
        var wholeListing: Double?
        var window = ""
        var length: Double?
        /// How the app ended by itself during the pass (a crash), if it did.
        var ended: String?
    }

    static func run() throws {
        guard let session = BenchSession("Remote", peer: BrowserBenchmark.nautilus, named: "Nautilus (Debian's nautilus)") else { return }
        defer { session.close() }
        guard ServerAccount.canStartServers else {
            print("Remote: skipped, the SFTP test server needs root (sshd checks system passwords for its throw-away account); run make bench as root")
            return
        }
        if let reason = ViewLength.unavailableReason {
            print("Remote: skipped, \(reason)")
            return
        }
        let server: RemoteServer
        let link: ThrottledLink
        do {
            server = try RemoteServer.start(.sftp)
            try makeFolder(server.localURL(folderName))
            link = try ThrottledLink(to: server, bytesPerSecond: slowLine)
            try server.mount()
            try link.mount()
        } catch {
            print("Remote: skipped, the SFTP server could not be started and mounted: \(error)")
            return
        }
        defer {
            link.stop()
            server.stop()
        }
        let passes = Int(ProcessInfo.processInfo.environment["DOSSIER_BENCH_REMOTE_PASSES"] ?? "") ?? 5
        let lines = [Line(name: "full speed", uri: server.uri(folderName) + "/"),
                     Line(name: "\(slowLine >> 10) KB/s line", uri: link.uri(folderName) + "/")]
        let display = session.display
        _ = try? Measure.run("/usr/bin/gsettings", ["set", "org.gnome.nautilus.window-state", "initial-size",
                                                     "(\(windowSize.width), \(windowSize.height))"])

        // Untimed: each app lists the folder once (GVFS's first listing of the mount), shows
        // where its view's scroll bar is, and has its window photographed.
        var paths: [Peer: String] = [:]
        for peer in Peer.allCases {
            guard let path = try discover(peer, uri: lines[0].uri, display: display) else {
                print("Remote: \(peer.rawValue)'s view was not found through AT-SPI; see .build/bench-shots/remote-\(peer.rawValue)-*.png")
                return
            }
            paths[peer] = path
        }

        let loadAtStart = loadAverage()
        var results: [String: [Peer: [Pass]]] = [:]
        for pass in 0..<passes {
            for line in lines {
                let order = pass % 2 == 0 ? Peer.allCases : Peer.allCases.reversed()
                for peer in order {
                    guard let path = paths[peer] else { continue }
                    let measured = try measure(peer, uri: line.uri, path: path, display: display)
                    results[line.name, default: [:]][peer, default: []].append(measured)
                }
            }
        }
        RemoteListingReport(passes: passes, lines: lines.map(\.name), results: results,
                            load: "\(loadAtStart) at the start, \(loadAverage()) at the end").print()
    }

    /// The 1, 5 and 15 minute load averages.
    private static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// 1,000 small documents of several kinds, as in a folder of notes and exports.
    static func makeFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let kinds = ["txt", "md", "csv", "json", "txt", "html", "txt", "xml", "log", "txt"]
        for index in 0..<fileCount {
            let path = folder.appendingPathComponent(String(format: "document %04d.%@", index, kinds[index % kinds.count])).path
            guard FileManager.default.createFile(atPath: path, contents: Data("item \(index)\n".utf8)) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
    }

    /// One timed launch of `peer` on `uri`.
    static func measure(_ peer: Peer, uri: String, path: String, display: OpaquePointer) throws -> Pass {
        clearCaches()
        let reader = try ViewLength.watching(path, still: stillness, limit: 90)
        let process = launch(peer, uri)
        let launched = ViewLength.now()
        let start = ContinuousClock.now
        try process.run()
        reader.follow(process.processIdentifier)
        var result = Pass()
        result.firstItems = BrowserBenchmark.waitForGrid(display, since: start)
        let readings = ViewLength.Readings(reader.finish())
        result.length = readings.final
        if let first = result.firstItems, let whole = readings.reachedFinal {
            result.wholeListing = max(first, whole - launched)
        }
        result.window = windowSize(display)
        if !process.isRunning {
            process.waitUntilExit()
            result.ended = process.terminationReason == .uncaughtSignal
                ? "signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
        }
        end(process, display: display)
        if ProcessInfo.processInfo.environment["DOSSIER_BENCH_REMOTE_VERBOSE"] != nil {
            // Every reading, to check the detectors: lengths in px at ms after the launch.
            let lengths = readings.samples.map { String(format: "%.0f@%.0f", $0.length, ($0.time - launched) * 1000) }
            print("  \(peer.rawValue) \(uri): first items \(result.firstItems.map { String(format: "%.0f ms", $0 * 1000) } ?? "none"),"
                  + " lengths \(lengths.joined(separator: " "))\(readings.settled ? "" : " (never still)")")
        }
        return result
    }

    /// An untimed launch that finds the path of `peer`'s view scroll bar in its accessibility
    /// tree, with screenshots of the first items, the listed folder and its end.
    static func discover(_ peer: Peer, uri: String, display: OpaquePointer) throws -> String? {
        clearCaches()
        let reader = try ViewLength.discovering(still: 3, limit: 120)
        let process = launch(peer, uri)
        let start = ContinuousClock.now
        try process.run()
        reader.follow(process.processIdentifier)
        if BrowserBenchmark.waitForGrid(display, since: start) != nil { screenshot("remote-\(peer.rawValue)-1-first-items") }
        let path = reader.finish().last.flatMap { $0.first?.isNumber == true ? $0 : nil }
        screenshot("remote-\(peer.rawValue)-2-listed")
        // The end of the folder: the keyboard's End in the view (a click on an item first gives
        // the window the keyboard; a bare X server has no window manager).
        var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
        if dossier_x11_largest_window(display, &x, &y, &width, &height) == 1 {
            _ = try? Measure.run(ScreenWatch.xdotool, ["mousemove", "\(x + Int32(width) * 6 / 10)", "\(y + Int32(height) * 3 / 10)"])
            _ = try? Measure.run(ScreenWatch.xdotool, ["click", "1"])
            _ = try? Measure.run(ScreenWatch.xdotool, ["key", "End"])
            usleep(1_500_000)
            screenshot("remote-\(peer.rawValue)-3-end")
        }
        end(process, display: display)
        return path
    }

    private static func launch(_ peer: Peer, _ uri: String) -> Process {
        let process = Process()
        switch peer {
        case .dossier:
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("dossier")
            process.arguments = [uri]
        case .nautilus:
            process.executableURL = URL(fileURLWithPath: BrowserBenchmark.nautilus)
            process.arguments = ["--new-window", uri]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if ProcessInfo.processInfo.environment["DOSSIER_BENCH_REMOTE_VERBOSE"] != nil {
            let log = FileManager.default.currentDirectoryPath + "/.build/bench-shots/remote-\(peer.rawValue).log"
            if !FileManager.default.fileExists(atPath: log) { _ = FileManager.default.createFile(atPath: log, contents: nil) }
            if let handle = FileHandle(forWritingAtPath: log) {
                handle.seekToEndOfFile()
                process.standardError = handle
            }
        }
        return process
    }

    private static func end(_ process: Process, display: OpaquePointer) {
        BrowserBenchmark.stop(process)
        WindowContent(display: display, screenshots: nil).waitUntilGone()
    }

    private static func windowSize(_ display: OpaquePointer) -> String {
        var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
        guard dossier_x11_largest_window(display, &x, &y, &width, &height) == 1 else { return "?" }
        return "\(width)×\(height)"
    }

    /// Cold for the apps: no thumbnail, and no downloaded copy of a remote file, from a pass before.
    private static func clearCaches() {
        let cache = URL(fileURLWithPath: String(cString: g_get_user_cache_dir()))
        try? FileManager.default.removeItem(at: cache.appendingPathComponent("thumbnails"))
        try? FileManager.default.removeItem(at: cache.appendingPathComponent("dossier/remote"))
    }

    private static func screenshot(_ name: String) {
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/bench-shots")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try? Measure.run("/usr/bin/import", ["-window", "root", folder.appendingPathComponent(name + ".png").path])
    }
}
