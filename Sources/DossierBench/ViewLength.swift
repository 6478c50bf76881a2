import Foundation

/// The scrollable length of a browser window's view over time, read through AT-SPI by
/// `tools/bench-view-length.py` (Debian's python3 with pyatspi): the range of the view's
/// vertical scroll bar, which spans every item the view holds, on screen or not. It grows as a
/// listing arrives and stops once the view holds the whole folder; the same reading for
/// Dossier and Nautilus (GTK 4 grid views in scrolled windows, both).
///
/// The reader starts before the app (it connects to the accessibility bus first) and is told
/// the app's process id once it runs.
final class ViewLength {
    static let python = "/usr/bin/python3"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/bench-view-length.py").path

    /// Why the reader cannot run here, or nil when it can.
    static var unavailableReason: String? {
        guard FileManager.default.fileExists(atPath: script) else { return "\(script) is missing" }
        guard (try? Measure.run(python, ["-c", "import pyatspi"], checked: true)) != nil else {
            return "Debian's python3-pyatspi is not installed (tools/install-deps.sh installs it)"
        }
        return nil
    }

    /// Seconds on CLOCK_MONOTONIC, the clock the reader's times are on.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    /// A reader that finds where the view's scroll bar is in the app's tree (a path of child
    /// indices), once its length has kept its value for `still` seconds. A walk of the whole
    /// window: for an untimed launch.
    static func discovering(still: Double, limit: Double) throws -> ViewLength {
        try ViewLength(["discover", String(still), String(limit)])
    }

    /// A reader of the node at `path`, often enough to see each change, until its length has
    /// been non-zero and the same for `still` seconds.
    static func watching(_ path: String, still: Double, limit: Double) throws -> ViewLength {
        try ViewLength(["watch", path, String(still), String(limit)])
    }

    private init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Connected to the accessibility bus: the app may start.
        while !String(decoding: pending, as: UTF8.self).contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            pending += data
        }
    }

    /// Tells the reader which process to read.
    func follow(_ pid: Int32) {
        input.fileHandleForWriting.write(Data("\(pid)\n".utf8))
        try? input.fileHandleForWriting.close()
    }

    /// Waits for the reader's end; its lines after `ready`.
    func finish() -> [String] {
        pending += output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: pending, as: UTF8.self).split(separator: "\n").map(String.init).filter { $0 != "ready" }
    }

    /// What a watching reader saw: the lengths with their times, and whether the length then
    /// stood still (the listing was over) rather than the app ending or the reader running out
    /// of time.
    struct Readings {
        var samples: [(time: Double, length: Double)] = []
        var settled = false
        /// The app ended before its view stood still.
        var appEnded = false

        init(_ lines: [String]) {
            for line in lines {
                let fields = line.split(separator: " ")
                if fields.first == "still" {
                    settled = true
                } else if fields.first == "gone" {
                    appEnded = true
                } else if fields.count == 2, let time = Double(fields[0]), let length = Double(fields[1]) {
                    samples.append((time, length))
                }
            }
        }

        /// The length the view ended with, once it stood still.
        var final: Double? { settled ? samples.last?.length : nil }

        /// When the view first held its final length, on the reader's clock.
        var reachedFinal: Double? {
            guard let final, final > 0 else { return nil }
            return samples.first { $0.length == final }?.time
        }
    }
}
