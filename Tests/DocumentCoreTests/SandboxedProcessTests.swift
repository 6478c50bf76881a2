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
}
