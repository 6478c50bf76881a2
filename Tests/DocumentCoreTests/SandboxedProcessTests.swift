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
        let paths = Sandbox.paths(input: input.rawPath, outputFolder: output.path, outputName: "report")
        let script = """
            grep '^CapEff' /proc/self/status > \(paths.output)
            ( echo x > /planted ) 2>/dev/null && echo root-writable >> \(paths.output)
            ( echo x >> \(paths.input) ) 2>/dev/null && echo input-writable >> \(paths.output)
            echo x > /tmp/scratch && echo tmp-writable >> \(paths.output)
            """
        let command = Sandbox.wrap(["sh", "-c", script], outputFolder: output.path, paths: paths)
        let fd = try XCTUnwrap(FileHandle(forReadingAt: input.rawPath))
        XCTAssertEqual(SandboxedProcess(arguments: command, input: fd.fileDescriptor).run(timeout: .seconds(60)), .exited(0, errors: ""))
        let report = try String(contentsOf: output.appendingPathComponent("report"), encoding: .utf8)
        XCTAssertEqual(report, "CapEff:\t0000000000000000\ntmp-writable\n")
        XCTAssertEqual(try String(contentsOf: input, encoding: .utf8), "untrusted")
    }

    /// The helper reads the file that was opened, on its inherited descriptor: a name that is
    /// not UTF-8 reaches it, and a compressed document keeps its whole extension.
    func testAHelperReadsTheOpenedFileWhateverItsNameAndKeepsACompressedDocumentsExtension() throws {
        let folder = try TemporaryFolder()
        let name: [UInt8] = Array("r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9] + Array(".pdf.gz".utf8)
        let input = FileSystemPath(bytes: folder.url.rawPath.bytes + [UInt8(ascii: "/")] + name)
        let made = input.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        XCTAssertGreaterThanOrEqual(made, 0)
        XCTAssertEqual(write(made, "compressed", 10), 10)
        close(made)
        let output = folder.url.appendingPathComponent("output")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

        let paths = Sandbox.paths(input: input, outputFolder: output.path, outputName: "copy")
        XCTAssertEqual(paths.input, Sandbox.isAvailable ? "/tmp/dossier-input.pdf.gz" : "/proc/self/fd/3")
        let command = Sandbox.wrap(["sh", "-c", #"cat "$0" > "$1""#, paths.input, paths.output], outputFolder: output.path, paths: paths)
        let file = try XCTUnwrap(FileHandle(forReadingAt: input))
        XCTAssertEqual(SandboxedProcess(arguments: command, input: file.fileDescriptor).run(timeout: .seconds(60)), .exited(0, errors: ""))
        XCTAssertEqual(try String(contentsOf: output.appendingPathComponent("copy"), encoding: .utf8), "compressed")
    }

    func testTheInputsExtensionKeepsACompressedDocumentsOwn() {
        XCTAssertEqual(Sandbox.inputExtension(of: "paper.pdf.gz"), "pdf.gz")
        XCTAssertEqual(Sandbox.inputExtension(of: "backup.tar.xz"), "tar.xz")
        XCTAssertEqual(Sandbox.inputExtension(of: "notes.gz"), "gz")
        XCTAssertEqual(Sandbox.inputExtension(of: "photo.JPG"), "JPG")
        XCTAssertEqual(Sandbox.inputExtension(of: "Makefile"), "")
        XCTAssertEqual(Sandbox.inputExtension(of: "odd.pdf one.gz"), "gz", "only a plain word is an extension")
    }
}
