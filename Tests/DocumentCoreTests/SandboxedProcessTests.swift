import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// A helper Dossier runs for a preview stops when the preview is gone: cancelled, it is killed
/// with everything it started, long before its time runs out.
final class SandboxedProcessTests: XCTestCase {
    /// True when process `pid` has ended (gone, or a zombie nobody has reaped yet).
    private func ended(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    func testACancelledHelperIsStoppedWithWhatItStarted() throws {
        let folder = try TemporaryFolder()
        let marker = folder.url.appendingPathComponent("child.pid")
        // A helper that starts a program of its own (as bwrap starts LibreOffice) and waits.
        let helper = SandboxedProcess(arguments: ["sh", "-c", "sleep 60 & echo $! > '\(marker.path)'; wait"])
        let cancellation = CancellationFlag()
        DispatchQueue.global().async {
            _ = eventually { FileManager.default.fileExists(atPath: marker.path) }
            cancellation.cancel()
        }
        XCTAssertEqual(helper.run(timeout: .seconds(60), cancellation: cancellation), .cancelled)
        let child = try XCTUnwrap(Int32(String(contentsOf: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertTrue(eventually { self.ended(child) }, "the program it started was stopped too")
    }

    func testAHelperNotCancelledRunsToItsEnd() {
        XCTAssertEqual(SandboxedProcess(arguments: ["sh", "-c", "exit 3"]).run(timeout: .seconds(30), cancellation: CancellationFlag()),
                       .exited(3, errors: ""))
    }

    /// Under bubblewrap a helper has no capabilities, even when Dossier runs as root (as in CI),
    /// and can write only its output folder and /tmp: not the sandbox's root, not the input.
    func testAWrappedHelperHasNoCapabilitiesAndWritesOnlyItsOutput() throws {
        try XCTSkipUnless(Sandbox.isAvailable, "bubblewrap is not installed")
        let folder = try TemporaryFolder()
        let input = folder.url.appendingPathComponent("input.txt")
        try Data("untrusted".utf8).write(to: input)
        let output = folder.url.appendingPathComponent("output")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let paths = Sandbox.paths(input: input.path, outputFolder: output.path, outputName: "report")
        let script = """
            grep '^CapEff' /proc/self/status > \(paths.output)
            ( echo x > /planted ) 2>/dev/null && echo root-writable >> \(paths.output)
            ( echo x >> \(paths.input) ) 2>/dev/null && echo input-writable >> \(paths.output)
            echo x > /tmp/scratch && echo tmp-writable >> \(paths.output)
            """
        let command = Sandbox.wrap(["sh", "-c", script], input: input.path, outputFolder: output.path, paths: paths)
        XCTAssertEqual(SandboxedProcess(arguments: command).run(timeout: .seconds(60)), .exited(0, errors: ""))
        let report = try String(contentsOf: output.appendingPathComponent("report"), encoding: .utf8)
        XCTAssertEqual(report, "CapEff:\t0000000000000000\ntmp-writable\n")
        XCTAssertEqual(try String(contentsOf: input, encoding: .utf8), "untrusted")
    }
}
