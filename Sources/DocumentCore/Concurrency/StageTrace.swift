import Foundation
import Glibc

/// An opt-in timeline of a showing's stages across processes: with `DOSSIER_TRACE_STAGES=1`,
/// each `mark` writes `TRACE <ms> <pid> <stage>` on stderr, the time on the monotonic clock
/// every process of the machine shares, so that the bench's, the previewer service's and its
/// decoder workers' lines sort into one timeline (`tools/stage-trace.py` sums them up). Off, a
/// mark costs one check.
package enum StageTrace {
    /// Whether the trace is on (read once, at the first mark).
    package static let isOn: Bool = getenv("DOSSIER_TRACE_STAGES").map { String(cString: $0) == "1" } ?? false

    /// Writes `name` with the time now, when the trace is on.
    package static func mark(_ name: @autoclosure () -> String) {
        guard isOn else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let milliseconds = Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
        let line = "TRACE \(String(format: "%.1f", milliseconds)) \(getpid()) \(name())\n"
        line.utf8CString.withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
