import CGLib
import CImaging
import CX11
import DocumentCore
import DossierFixtures
import Foundation

/// A 100,000-file folder in the browser, against Nautilus 43 in the same run:
/// - launch to the first painted grid, measured from outside the same way for both (the
///   window's content area, right of the sidebar and below the header, stops being flat);
/// - frame times while the grid scrolls from the top to the end with thumbnails loading
///   (Dossier's own frame clock, through the `DOSSIER_BENCH_SCROLL` hook of the window);
/// - resident memory at the end of the scroll (Dossier) and once the folder is shown (both).
/// Needs a display and a session bus (`make bench` starts both).
enum BrowserBenchmark {
    static let nautilus = "/usr/bin/nautilus"
    static let fileCount = 100_000
    static let rounds = 3
    static let scrollSeconds = 8.0

    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let session = BenchSession("Browser", peer: nautilus, named: "Nautilus (Debian's nautilus)") else { return }
        defer { session.close() }
        let display = session.display

        let folder = try TemporaryFolder("dossier-bench-browser")
        let files = folder.url.appendingPathComponent("100000 files")
        try makeFolder(files)
        let dossier = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("dossier").path
        let shots = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/bench-shots")
        try? FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)

        var firstGrid: [String: [Double]] = [:]
        var memory: [String: [Double]] = [:]
        var frames: [Double] = []
        var scrollPeakMemory: [Double] = []
        for round in 0..<rounds {
            for peer in ["Dossier", "Nautilus"] {
                clearThumbnails()
                let scrollLog = folder.url.appendingPathComponent("frames-\(round).txt")
                let process = Process()
                if peer == "Dossier" {
                    process.executableURL = URL(fileURLWithPath: dossier)
                    process.arguments = [files.path]
                    var childEnvironment = environment
                    childEnvironment["DOSSIER_BENCH_SCROLL"] = "\(scrollSeconds):\(scrollLog.path)"
                    process.environment = childEnvironment
                } else {
                    process.executableURL = URL(fileURLWithPath: nautilus)
                    process.arguments = ["--new-window", files.path]
                }
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let start = ContinuousClock.now
                try process.run()
                guard let shown = waitForGrid(display, since: start) else {
                    print("Browser: \(peer) showed no grid within 60 s (round \(round + 1))")
                    stop(process)
                    continue
                }
                firstGrid[peer, default: []].append(shown)
                _ = try? Measure.run("/usr/bin/import", ["-window", "root", shots.appendingPathComponent("\(peer)-\(round + 1).png").path])
                if peer == "Dossier" {
                    // The window scrolls itself to the end once the grid is shown, then writes its log.
                    let deadline = ContinuousClock.now + .seconds(scrollSeconds + 60)
                    while ContinuousClock.now < deadline, !FileManager.default.fileExists(atPath: scrollLog.path) {
                        usleep(50_000)
                    }
                    frames += readFrameLog(scrollLog)
                    scrollPeakMemory.append(residentMegabytes(process.processIdentifier, field: "VmHWM:"))
                    memory[peer, default: []].append(residentMegabytes(process.processIdentifier, field: "VmRSS:"))
                } else {
                    // Nautilus keeps loading after its first paint; its memory once it has settled.
                    usleep(3_000_000)
                    memory[peer, default: []].append(residentMegabytes(process.processIdentifier, field: "VmRSS:"))
                }
                stop(process)
            }
        }

        print("Browser: a folder of \(fileCount) files (10 % JPEGs), Dossier vs Nautilus 43, medians of \(rounds) launches")
        let ours = Measure.median(firstGrid["Dossier"] ?? []), theirs = Measure.median(firstGrid["Nautilus"] ?? [])
        print(String(format: "  launch to first painted grid   Dossier %6.0f ms   Nautilus %6.0f ms   Dossier takes %.2f× Nautilus' time",
                     ours * 1000, theirs * 1000, ours / theirs))
        if frames.isEmpty {
            print("  scrolling: no frame log from Dossier")
        } else {
            let sorted = frames.sorted()
            let over = frames.filter { $0 > 33.4 }.count
            print(String(format: "  scrolling to the end over %.0f s with thumbnails loading: %d frames, median %.1f ms, 99th %.1f ms, worst %.1f ms, %d over 33 ms",
                         scrollSeconds, frames.count, sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
                         sorted.last ?? 0, over))
        }
        print(String(format: "  resident memory                Dossier %6.0f MB (peak while scrolling %.0f MB)   Nautilus %6.0f MB once loaded",
                     Measure.median(memory["Dossier"] ?? []), scrollPeakMemory.max() ?? .nan, Measure.median(memory["Nautilus"] ?? [])))
        print("  screenshots at the first painted grid: .build/bench-shots/")
    }

    /// 100,000 files: nine in ten small text-like documents of several types, one in ten a
    /// small photo-like JPEG (so thumbnails have work to do while scrolling).
    static func makeFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = try makeSmallPhoto()
        let kinds = ["txt", "md", "csv", "json", "txt", "html", "txt", "xml", "log"]
        for index in 0..<fileCount {
            if index % 10 == 9 {
                let path = folder.appendingPathComponent(String(format: "photo %06d.jpg", index)).path
                guard FileManager.default.createFile(atPath: path, contents: photo) else { throw CocoaError(.fileWriteUnknown) }
            } else {
                let path = folder.appendingPathComponent(String(format: "document %06d.%@", index, kinds[index % 10])).path
                guard FileManager.default.createFile(atPath: path, contents: Data("item \(index)\n".utf8)) else {
                    throw CocoaError(.fileWriteUnknown)
                }
            }
        }
    }

    /// A 640×480 JPEG with gradients, encoded by gdk-pixbuf.
    private static func makeSmallPhoto() throws -> Data {
        let width = 640, height = 480
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for y in 0..<height {
            for x in 0..<width {
                let pixel = pixels + y * stride + x * 3
                pixel[0] = UInt8((x * 255) / width)
                pixel[1] = UInt8((y * 255) / height)
                pixel[2] = UInt8(((x ^ y) & 0x3f) * 4)
            }
        }
        let path = NSTemporaryDirectory() + "dossier-bench-photo-\(getpid()).jpg"
        defer { unlink(path) }
        guard gdk_pixbuf_savev(pixbuf, path, "jpeg", nil, nil, nil) != 0 else { throw CocoaError(.fileWriteUnknown) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Seconds from `start` until the largest window's content area is no longer flat.
    static func waitForGrid(_ display: OpaquePointer, since start: ContinuousClock.Instant) -> Double? {
        while ContinuousClock.now - start < .seconds(60) {
            var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
            if dossier_x11_largest_window(display, &x, &y, &width, &height) == 1, width > 300, height > 200 {
                // Right of a sidebar, below the header bar, above any floating status bar.
                let left = x + Int32(width) * 3 / 10, top = y + Int32(height) * 15 / 100
                let regionWidth = UInt32(Int32(width) * 6 / 10), regionHeight = UInt32(Int32(height) * 45 / 100)
                var spread = 0.0
                var checksum: UInt64 = 0
                if dossier_x11_region(display, left, top, regionWidth, regionHeight, &spread, &checksum) == 1, spread > 150 {
                    return Measure.seconds(ContinuousClock.now - start)
                }
            }
            usleep(4_000)
        }
        return nil
    }

    /// The frame log the window writes: one frame duration in milliseconds a line.
    private static func readFrameLog(_ url: URL) -> [Double] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { Double($0) }
    }

    private static func residentMegabytes(_ pid: Int32, field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            return .nan
        }
        return kilobytes / 1024
    }

    static func stop(_ process: Process) {
        if process.isRunning { process.terminate() }
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        usleep(500_000)
    }

    private static func clearThumbnails() {
        let cache = URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("thumbnails")
        try? FileManager.default.removeItem(at: cache)
    }
}
