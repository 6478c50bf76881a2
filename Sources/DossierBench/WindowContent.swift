import CX11
import Foundation

/// The content of the one window on a bare X screen, read from outside: when it is there (see
/// `PreviewerInput.Readiness`) and when the window is gone. The same reading times Dossier's and
/// Sushi's showings and the floor (a bare libadwaita window's first frame).
struct WindowContent {
    let display: OpaquePointer
    /// Where to save a picture of the screen at the moment content was detected, if anywhere.
    let screenshots: URL?
    /// The longest one showing may take before it counts as failed.
    static let patience: Duration = .seconds(30)
    /// How long content must stand still to count: more than a spinner's frame, and more than
    /// the in-between states previewers pass through (Sushi's web view first shows a blank
    /// square in a corner, which can stand still for a while under load).
    static let stillness: Duration = .milliseconds(500)

    /// Seconds from `start` until the content is on screen, or nil if it never came within
    /// `patience`. `name` names the screenshot, if one is kept.
    ///
    /// The window is read when the X server reports that something was drawn into it (DAMAGE),
    /// and at regular but sparse intervals otherwise: reading a region of the screen costs CPU
    /// (the bench's own and the X server's), which a warm showing, brief on two cores, would
    /// otherwise share with the previewer it measures.
    func waitForContent(since start: ContinuousClock.Instant, readiness: PreviewerInput.Readiness, name: String) -> Double? {
        let clock = ContinuousClock()
        var stableSince: ContinuousClock.Instant?
        var lastChecksum: UInt64 = 0
        var shownAt: Double?
        var watched: (window: Window, damage: Damage, eventBase: Int32)?
        defer { if let watched { dossier_x11_damage_stop(display, watched.damage) } }
        var lastRead: ContinuousClock.Instant?
        while clock.now - start < Self.patience {
            guard let region = window(middle: readiness != .steadyEverywhere) else {
                usleep(4_000)
                continue
            }
            if watched?.window != region.window {
                if let old = watched { dossier_x11_damage_stop(display, old.damage) }
                var eventBase: Int32 = 0
                let damage = dossier_x11_damage_watch(display, region.window, &eventBase)
                watched = damage == 0 ? nil : (region.window, damage, eventBase)
                lastRead = nil
            }
            // Drawn into since the last reading (or no DAMAGE to tell): read it again.
            let drawn = watched.map { dossier_x11_damage_drain(display, $0.eventBase) > 0 } ?? true
            let now = clock.now
            if drawn || lastRead.map({ now - $0 >= .milliseconds(250) }) ?? true {
                var spread = 0.0
                var checksum: UInt64 = 0
                guard dossier_x11_region(display, region.x, region.y, region.width, region.height, &spread, &checksum) == 1 else {
                    usleep(4_000)
                    continue
                }
                lastRead = now
                switch readiness {
                case .firstFrame:
                    // testsrc2's colour bars: a spread in the thousands; the window around them, a
                    // spinner or controls on a flat background, stays far below.
                    if spread > 1000 { shownAt = Measure.seconds(now - start) }
                case .steady, .steadyEverywhere:
                    if !(spread > 150 && checksum == lastChecksum) { stableSince = spread > 150 ? now : nil }
                }
                lastChecksum = checksum
            }
            if shownAt == nil, let since = stableSince, clock.now - since >= Self.stillness {
                shownAt = Measure.seconds(since - start)
            }
            if shownAt != nil { break }
            if watched != nil {
                // Until something is drawn, the stillness is reached, or a regular reading is due.
                var wait = 250
                if let since = stableSince {
                    wait = min(wait, max(1, Int(((Self.stillness - (clock.now - since)) / .milliseconds(1)).rounded(.up))))
                }
                _ = dossier_x11_wait_for_event(display, Int32(wait))
            } else {
                usleep(4_000)
            }
        }
        // When nothing came, the screen at the end of the patience: to check that nothing was there.
        if let screenshots { keepScreenshot(screenshots.appendingPathComponent(name + (shownAt == nil ? "-none" : "") + ".png")) }
        return shownAt
    }

    /// Waits until no window is on screen (at most 10 s), and a little more.
    func waitUntilGone() {
        let clock = ContinuousClock()
        let closing = clock.now
        while clock.now - closing < .seconds(10), window(middle: true) != nil {
            usleep(10_000)
        }
        usleep(150_000)
    }

    /// The largest window on screen (under a bare X server, the previewer's) below its header
    /// bar; or its middle: 60% of its width, 50% of its height. Mostly the middle: a PDF's page
    /// sidebar fills in after the page, and an overlay scrollbar fades out a second after a text
    /// shows; neither is the content, and both would keep the window changing.
    private func window(middle: Bool) -> (window: Window, x: Int32, y: Int32, width: UInt32, height: UInt32)? {
        var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
        let found = dossier_x11_largest_window_id(display, &x, &y, &width, &height)
        guard found != 0 else { return nil }
        let screenWidth = Int32(XDisplayWidth(display, 0)), screenHeight = Int32(XDisplayHeight(display, 0))
        let w = Int32(width), h = Int32(height)
        var left = x + 4, top = y + 50, right = x + w - 4, bottom = y + h - 4
        if middle { left = x + w / 5; top = y + 60 + h / 5; right = x + w * 4 / 5; bottom = y + h * 7 / 10 }
        left = max(left, 0); top = max(top, 0); right = min(right, screenWidth); bottom = min(bottom, screenHeight)
        guard right - left > 20, bottom - top > 20 else { return nil }
        return (found, left, top, UInt32(right - left), UInt32(bottom - top))
    }

    /// The whole screen as ImageMagick's `import` reads it, to look at what was detected.
    private func keepScreenshot(_ url: URL) {
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try? Measure.run("/usr/bin/import", ["-window", "root", url.path])
    }
}
