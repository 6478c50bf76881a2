import CGtk
import Foundation
import GObjectSupport
import GtkSupport

/// The browser benchmark's scroll (`DossierBench browser`): with
/// `DOSSIER_BENCH_SCROLL=SECONDS:LOGFILE` in the environment, once the folder is fully listed
/// (`LocationFeed.State.loaded`) and the grid has been painted with its items, the grid's
/// vertical adjustment moves linearly from the top to the end over SECONDS, one step per
/// frame of the grid's frame clock (thumbnails load as cells come into view); the time
/// between consecutive frames, in milliseconds, goes to LOGFILE one number a line when the
/// end is reached (written to LOGFILE.tmp, then renamed, so a reader never sees half).
/// Without the variable nothing happens.
///
/// Waiting for the whole listing means the frames measure scrolling alone: the cost of a
/// frame of cells being bound, measured and drawn with thumbnails arriving. How long the
/// folder takes to list, and how the window paints while it lists, is the benchmark's
/// "launch to first painted grid", measured separately from outside.
@MainActor
final class BenchmarkScroll {
    private let seconds: Double
    private let logPath: String
    private weak var browser: DocumentBrowser?
    private var startTime = 0
    private var lastFrame = 0
    private var paintedOnce = false
    private var frames: [Double] = []

    /// The scroll asked for by `environment`, or nil when not asked (or asked unreadably).
    static func requested(in environment: [String: String] = ProcessInfo.processInfo.environment) -> (seconds: Double, log: String)? {
        guard let value = environment["DOSSIER_BENCH_SCROLL"], let colon = value.firstIndex(of: ":"),
              let seconds = Double(value[..<colon]), seconds > 0 else { return nil }
        let log = String(value[value.index(after: colon)...])
        return log.isEmpty ? nil : (seconds, log)
    }

    private init(browser: DocumentBrowser, seconds: Double, logPath: String) {
        self.browser = browser
        self.seconds = seconds
        self.logPath = logPath
    }

    /// Starts watching `browser`'s grid (the scroll keeps itself alive until it has written its log).
    static func start(on browser: DocumentBrowser, seconds: Double, logPath: String) {
        let scroll = BenchmarkScroll(browser: browser, seconds: seconds, logPath: logPath)
        // The callback holds the scroll until the scroll ends it.
        addTickCallback(to: browser.grid.grid) { _ in scroll.frame() }
    }

    /// One frame of the grid: true while the scroll goes on.
    private func frame() -> Bool {
        guard let browser else { return false }
        let now = g_get_monotonic_time()
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(browser.grid.scrolled))
        let end = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
        if startTime == 0 {
            // Wait for a frame in which the fully listed folder's grid shows items; start at the
            // frame after that one was painted.
            let shown = gtk_widget_get_mapped(browser.grid.grid) != 0 && browser.feed.state == .loaded
                && browser.model.count > 0 && end > 0
            if shown && paintedOnce {
                startTime = now
                lastFrame = now
            } else {
                paintedOnce = shown
            }
            return true
        }
        frames.append(Double(now - lastFrame) / 1000)
        lastFrame = now
        let progress = min(Double(now - startTime) / (seconds * 1_000_000), 1)
        gtk_adjustment_set_value(adjustment, end * progress)
        guard progress >= 1 else { return true }
        writeLog()
        return false
    }

    private func writeLog() {
        let text = frames.map { String(format: "%.3f", $0) }.joined(separator: "\n") + "\n"
        let temporary = logPath + ".tmp"
        do {
            try text.write(toFile: temporary, atomically: false, encoding: .utf8)
            guard rename(temporary, logPath) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            FileHandle.standardError.write(Data("dossier: the benchmark's frame log could not be written to \(logPath): \(error)\n".utf8))
        }
    }
}

extension DocumentBrowser {
    /// For `DossierBench browser` only: when the environment has `DOSSIER_BENCH_SCROLL=SECONDS:LOGFILE`,
    /// scrolls the grid to the end over SECONDS once it is painted and logs each frame's
    /// duration to LOGFILE. Does nothing otherwise.
    public func scrollForBenchmarkIfRequested() {
        guard let request = BenchmarkScroll.requested() else { return }
        BenchmarkScroll.start(on: self, seconds: request.seconds, logPath: request.log)
    }
}
