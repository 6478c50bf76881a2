import CX11
import Foundation

/// The browser window on screen, read from outside the same way for Dossier and Nautilus (see
/// `PhotoFolderBenchmark`): its grid's colours, the DAMAGE reports of its frames, and wheel
/// scrolling sent through the X server (xdotool, XTEST) as a mouse would.
final class ScreenWatch {
    static let xdotool = "/usr/bin/xdotool"
    /// Sampled photo pixels of about one thumbnail: fewer is no thumbnail yet.
    static let minimumPhoto: UInt32 = 1500

    private let display: OpaquePointer
    private let shots: String

    struct Region {
        let window: Window
        let x: Int32, y: Int32, width: UInt32, height: UInt32
        var area: Double { Double(width) * Double(height) }
    }

    init(display: OpaquePointer, shots: String) {
        self.display = display
        self.shots = shots
    }

    /// The grid of the largest window: right of a sidebar (28 % of the width), below the header
    /// bar (12 % of the height), clipped to the screen.
    func gridRegion() -> Region? {
        var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
        let window = dossier_x11_largest_window_id(display, &x, &y, &width, &height)
        guard window != 0, width > 300, height > 200 else { return nil }
        let screenWidth = Int32(XDisplayWidth(display, 0)), screenHeight = Int32(XDisplayHeight(display, 0))
        let left = max(0, x + Int32(width) * 28 / 100), top = max(0, y + Int32(height) * 12 / 100)
        let right = min(screenWidth, x + Int32(width) * 98 / 100), bottom = min(screenHeight, y + Int32(height) * 95 / 100)
        guard right - left > 100, bottom - top > 100 else { return nil }
        return Region(window: window, x: left, y: top, width: UInt32(right - left), height: UInt32(bottom - top))
    }

    /// Sampled pixels of the photos' colours and of other colours (placeholders) in `region`.
    func colours(_ region: Region) -> (photo: UInt32, other: UInt32)? {
        var photo: UInt32 = 0, other: UInt32 = 0
        guard dossier_x11_photo_pixels(display, region.x, region.y, region.width, region.height, &photo, &other) == 1 else { return nil }
        return (photo, other)
    }

    /// The photo pixels of the grid from `start` until they stopped changing for 5 s (or
    /// `timeout` seconds passed): (seconds from `start`, sampled photo pixels), sampled several
    /// times a frame so that the moment the photos arrive is not missed.
    func watchFirstScreenful(since start: ContinuousClock.Instant, timeout: Double) -> [(time: Double, photo: UInt32)] {
        var samples: [(time: Double, photo: UInt32)] = []
        while Measure.seconds(ContinuousClock.now - start) < timeout {
            let elapsed = Measure.seconds(ContinuousClock.now - start)
            if let region = gridRegion(), let counts = colours(region) {
                samples.append((elapsed, counts.photo))
                if counts.photo >= Self.minimumPhoto, isSteady(samples, for: 5) { break }
            }
            usleep(10_000)
        }
        screenshot("first")
        return samples
    }

    /// The photo pixels of the grid scrolled back to the top, the pointer away, once every
    /// thumbnail is made: what the first screenful holds when it is done.
    func doneScreenful() -> UInt32? {
        guard let region = gridRegion() else { return nil }
        scrollToTop(region)
        pointAway()
        usleep(1_500_000)
        screenshot("done")
        let counts = (0..<5).compactMap { _ -> UInt32? in
            usleep(50_000)
            return gridRegion().flatMap { colours($0) }?.photo
        }
        return counts.sorted().dropFirst(counts.count / 2).first
    }

    /// The first time `samples` held 97 % of `done` photo pixels.
    static func firstScreenful(_ samples: [(time: Double, photo: UInt32)], done: UInt32) -> Double? {
        samples.first { UInt64($0.photo) * 100 >= UInt64(done) * 97 }?.time
    }

    /// The pointer to the screen's corner, off every window (no cell is hovered).
    func pointAway() {
        _ = try? Measure.run(Self.xdotool, ["mousemove", "\(XDisplayWidth(display, 0) - 1)", "\(XDisplayHeight(display, 0) - 1)"])
    }

    /// True when the photo pixels of the last `seconds` of `samples` stayed within 2 %.
    private func isSteady(_ samples: [(time: Double, photo: UInt32)], for seconds: Double) -> Bool {
        guard let last = samples.last, let first = samples.first, last.time - first.time >= seconds else { return false }
        let recent = samples.reversed().prefix { last.time - $0.time <= seconds }.map(\.photo)
        guard let low = recent.min(), let high = recent.max() else { return false }
        return Double(high - low) <= Double(high) * 0.02
    }

    /// Four wheel bursts (down, up, down, up) over the grid, clicks coming faster than frames so
    /// that every frame has one to take (GTK takes one per frame); the intervals in ms
    /// between consecutive frames that redrew at least 40 % of the grid, within a burst, read
    /// from the X server's DAMAGE reports (server time, whole ms).
    func scrollFrames() -> (intervals: [Double], redraws: Int) {
        guard let region = gridRegion() else { return ([], 0) }
        var eventBase: Int32 = 0
        let damage = dossier_x11_damage_watch(display, region.window, &eventBase)
        guard damage != 0 else { return ([], 0) }
        defer { dossier_x11_damage_stop(display, damage) }
        pointAtGrid(region)
        var bursts: [(from: UInt, to: UInt)] = []
        var events: [(time: UInt, x: Int32, y: Int32, width: UInt32, height: UInt32)] = []
        func drain() {
            var time: UInt = 0, x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
            while dossier_x11_damage_next(display, eventBase, &time, &x, &y, &width, &height) == 1 {
                events.append((time, x, y, width, height))
            }
        }
        for burst in 0..<4 {
            let from = dossier_x11_server_time(display)
            _ = try? Measure.run(Self.xdotool, ["click", "--repeat", "190", "--delay", "8", burst % 2 == 0 ? "5" : "4"])
            let to = dossier_x11_server_time(display)
            bursts.append((from, to + 50))
            drain()
            usleep(300_000)
            drain()
        }
        // A frame: reports closer together than two frames could be; its extent: the bounding
        // box of their rectangles.
        var frames: [(time: UInt, area: Double)] = []
        var current: (time: UInt, last: UInt, left: Int32, top: Int32, right: Int32, bottom: Int32)?
        func close() {
            if let frame = current {
                frames.append((frame.time, Double(frame.right - frame.left) * Double(frame.bottom - frame.top)))
            }
        }
        for event in events {
            let right = event.x + Int32(event.width), bottom = event.y + Int32(event.height)
            if var frame = current, event.time &- frame.last < 3 {
                frame.last = event.time
                frame.left = min(frame.left, event.x); frame.top = min(frame.top, event.y)
                frame.right = max(frame.right, right); frame.bottom = max(frame.bottom, bottom)
                current = frame
            } else {
                close()
                current = (event.time, event.time, event.x, event.y, right, bottom)
            }
        }
        close()
        let scrolled = frames.filter { $0.area >= region.area * 0.4 }
        var intervals: [Double] = []
        for (previous, next) in zip(scrolled, scrolled.dropFirst()) {
            guard bursts.contains(where: { previous.time >= $0.from && next.time <= $0.to }) else { continue }
            intervals.append(Double(next.time &- previous.time))
        }
        let redraws = frames.filter { frame in bursts.contains { frame.time >= $0.from && frame.time <= $0.to } }.count
        return (intervals, redraws)
    }

    /// Walks down the grid from the top with Page Down (the grid's own keyboard paging), waiting
    /// at each page until it is done (no change for 1 s, at most 15 s), until `done` holds:
    /// seconds from `start` then, or nil after `timeout` seconds.
    func walk(until done: () -> Bool, since start: ContinuousClock.Instant, timeout: Double) -> Double? {
        if let region = gridRegion() { scrollToTop(region) }
        while true {
            if done() { return Measure.seconds(ContinuousClock.now - start) }
            if Measure.seconds(ContinuousClock.now - start) > timeout { return nil }
            let resting = ContinuousClock.now
            var samples: [(time: Double, photo: UInt32)] = []
            while Measure.seconds(ContinuousClock.now - resting) < 15 {
                if done() { return Measure.seconds(ContinuousClock.now - start) }
                guard let region = gridRegion(), let counts = colours(region) else { break }
                samples.append((Measure.seconds(ContinuousClock.now - resting), counts.photo))
                if counts.photo >= Self.minimumPhoto, isSteady(samples, for: 1) { break }
                usleep(100_000)
            }
            _ = try? Measure.run(Self.xdotool, ["key", "Page_Down"])
        }
    }

    /// Back to the top of the grid with the keyboard: a click on the grid (it selects an item
    /// and gives the window the keyboard: a bare X server has no window manager), then Home.
    /// The wheel cannot do it surely: a burst of wheel clicks may fling the view on (kinetic
    /// scrolling), and GTK folds the clicks of one frame into one.
    private func scrollToTop(_ region: Region) {
        pointAtGrid(region)
        _ = try? Measure.run(Self.xdotool, ["click", "1"])
        _ = try? Measure.run(Self.xdotool, ["key", "Home"])
        usleep(1_500_000)
    }

    private func pointAtGrid(_ region: Region) {
        _ = try? Measure.run(Self.xdotool, ["mousemove", "\(region.x + Int32(region.width / 2))", "\(region.y + Int32(region.height / 2))"])
    }

    /// The whole screen to `.build/bench-shots/<shots>-<label>.png`.
    func screenshot(_ label: String) {
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/bench-shots")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try? Measure.run("/usr/bin/import", ["-window", "root", folder.appendingPathComponent("\(shots)-\(label).png").path])
    }
}
