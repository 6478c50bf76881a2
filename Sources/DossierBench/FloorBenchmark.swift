import CX11
import Foundation

/// The floor under a previewer's cold showing on this stack: a bare libadwaita window
/// (`tools/bench-floor.c`, an AdwApplicationWindow with a label) from exec to its label on screen,
/// read off the screen as a showing is (`WindowContent`). Built here with the stack's gcc and
/// libadwaita. GL and Vulkan off as Dossier's service turns them off (the floor), and with GTK's
/// defaults for comparison. The aim: Dossier's cold showing ≤ 1.2× the floor.
///
/// `DossierBench floor` prints it alone; the previewer bench measures it in each of its passes
/// and prints Dossier's cold showings against it.
enum FloorBenchmark {
    static let aim = 1.2

    /// The floor program's two settings: the aim's (GL off, as Dossier's service runs) and GTK's own.
    enum Setting: String, CaseIterable {
        case glOff = "GL and Vulkan off"
        case gtkDefaults = "GTK's defaults"

        var arguments: [String] { self == .glOff ? [] : ["--gtk-defaults"] }
    }

    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil else {
            print("Floor: skipped, needs a display (make bench-distros starts one)")
            return
        }
        guard let display = XOpenDisplay(nil) else {
            print("Floor: skipped, the display cannot be reached")
            return
        }
        defer { XCloseDisplay(display) }
        dossier_x11_tolerate_errors()
        let rounds = PreviewerBenchmark.Rounds(environment["DOSSIER_BENCH_ROUNDS"])
        let screenshots = environment["DOSSIER_BENCH_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
        let floor = try Floor(content: WindowContent(display: display, screenshots: screenshots))
        print("Floor: \(floor.description)")
        print("  \(rounds.passes) passes of \(rounds.cold) starts per setting; at start: \(PreviewerReport.machineState())")
        var medians: [Setting: [Double]] = [:]
        for _ in 0..<rounds.passes {
            for setting in Setting.allCases {
                medians[setting, default: []].append(floor.median(setting, starts: rounds.cold))
            }
        }
        for setting in Setting.allCases {
            print("  " + PreviewerReport.pad(floor.label(setting), 48) + PreviewerReport.milliseconds(medians[setting] ?? []) + " ms")
        }
        print("  at end:   \(PreviewerReport.machineState())")
    }

    /// The floor program, built for this stack.
    struct Floor {
        let program: URL
        /// "GTK 4.18.6, libadwaita 1.7.6", as pkg-config names the libraries it was built with.
        let versions: String
        /// How the program turns GL off on this stack (as Dossier's service: CGtk's compat.h).
        let glOff: String
        let content: WindowContent

        /// Builds `tools/bench-floor.c` next to this executable with gcc and pkg-config's
        /// libadwaita-1 flags.
        init(content: WindowContent) throws {
            self.content = content
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("tools/bench-floor.c")
            program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("bench-floor")
            let flags = try Measure.run("/usr/bin/pkg-config", ["--cflags", "--libs", "libadwaita-1"], checked: true)
            try Measure.run("/usr/bin/gcc", ["-O2", "-o", program.path, source.path]
                            + flags.split(whereSeparator: \.isWhitespace).map(String.init), checked: true)
            let gtk = try Measure.run("/usr/bin/pkg-config", ["--modversion", "gtk4"], checked: true).trimmingCharacters(in: .whitespacesAndNewlines)
            let adwaita = try Measure.run("/usr/bin/pkg-config", ["--modversion", "libadwaita-1"], checked: true)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            versions = "GTK \(gtk), libadwaita \(adwaita)"
            let minor = gtk.split(separator: ".").dropFirst().first.flatMap { Int($0) } ?? 0
            glOff = minor >= 16 ? "GDK_DISABLE=gl,vulkan" : "GDK_DEBUG=gl-disable"
        }

        /// The setting as the report names it.
        func label(_ setting: Setting) -> String {
            setting == .glOff ? "\(setting.rawValue) (\(glOff))" : setting.rawValue
        }

        var description: String {
            "a bare libadwaita window (tools/bench-floor.c, built with \(versions)), exec to its label on screen"
        }

        /// The median of `starts` starts' times (NaN when none showed).
        func median(_ setting: Setting, starts: Int) -> Double {
            Measure.median((0..<starts).compactMap { _ in time(setting) })
        }

        /// One start: seconds from exec until the label stands on screen (nil if it never came);
        /// then the program is ended and its window waited out.
        func time(_ setting: Setting) -> Double? {
            let process = Process()
            process.executableURL = program
            process.arguments = setting.arguments
            let start = ContinuousClock.now
            guard (try? process.run()) != nil else { return nil }
            let shownAt = content.waitForContent(since: start, readiness: .steady, name: "floor-\(setting)")
            process.terminate()
            process.waitUntilExit()
            content.waitUntilGone()
            return shownAt
        }
    }
}
