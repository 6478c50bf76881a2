import Foundation

/// Timing helpers: medians of repeated runs on the monotonic clock.
enum Measure {
    /// Runs `body` `rounds` times and returns the median duration in seconds.
    static func median(rounds: Int, _ body: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Runs a program to completion, returning its standard output; when `checked`, a non-zero
    /// exit status throws `CommandFailed`.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], checked: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard !checked || process.terminationStatus == 0 else {
            throw CommandFailed(command: ([program] + arguments).joined(separator: " "), status: process.terminationStatus)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A command that exited with a non-zero status.
    struct CommandFailed: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        var description: String { "`\(command)` exited with status \(status)" }
    }

    static func rate(_ count: Int, _ seconds: Double) -> String {
        String(format: "%10.0f files/s", Double(count) / seconds)
    }

    /// The middle value of `values` (the upper one of an even count); NaN when there are none.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        return values.sorted()[values.count / 2]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
