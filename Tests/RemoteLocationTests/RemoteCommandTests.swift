import DossierFixtures
import Foundation
import XCTest

/// `dossier ls` and `dossier info` take a remote location's URI, as Files' address bar does,
/// once its server is mounted.
final class RemoteCommandTests: XCTestCase {
    func testLsListsAMountedSFTPFolder() throws {
        let server = try mountedServer(.sftp)
        defer { server.stop() }
        try server.folder.write("notes.txt", "hello")
        try server.folder.write("Drafts/a.md", "# a")
        let result = try runDossier(["ls", server.rootURI])
        XCTAssertEqual(result.status, 0, result.errors)
        let lines = result.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.output)
        XCTAssertTrue(lines[0].hasPrefix("d ") && lines[0].hasSuffix("  Drafts"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("- 5  ") && lines[1].hasSuffix("  notes.txt"), lines[1])
    }

    func testLsJSONGivesEachRemoteItemItsURI() throws {
        let server = try mountedServer(.dav)
        defer { server.stop() }
        try server.folder.write("Q1 report.pdf", "%PDF-1.4")
        let result = try runDossier(["ls", "--json", server.rootURI])
        XCTAssertEqual(result.status, 0, result.errors)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?["name"] as? String, "Q1 report.pdf")
        XCTAssertEqual(entries.first?["path"] as? String, server.uri("Q1 report.pdf"))
        XCTAssertEqual(entries.first?["size"] as? Int, 8)
        XCTAssertEqual(entries.first?["type"] as? String, "application/pdf")
    }

    func testLsOfAnUnmountedServerSaysToConnect() throws {
        let server = try startedServer(.smb)
        defer { server.stop() }
        let result = try runDossier(["ls", server.rootURI])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("not connected"), result.errors)
    }

    func testInfoDescribesARemoteFile() throws {
        let server = try mountedServer(.sftp)
        defer { server.stop() }
        try server.folder.write("report.pdf", bytes: Array("%PDF-1.4\n%%EOF\n".utf8))
        let result = try runDossier(["info", "--json", server.uri("report.pdf")])
        XCTAssertEqual(result.status, 0, result.errors)
        let reports = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let report = try XCTUnwrap(reports.first)
        XCTAssertEqual(report["uri"] as? String, server.uri("report.pdf"))
        XCTAssertEqual(report["name"] as? String, "report.pdf")
        XCTAssertEqual(report["kind"] as? String, "regular")
        XCTAssertEqual(report["type"] as? String, "application/pdf")
        XCTAssertEqual(report["size"] as? Int, 15)
        XCTAssertNil(report["error"])
    }

    func testInfoOfAMissingRemoteFileIsAnError() throws {
        let server = try mountedServer(.smb)
        defer { server.stop() }
        let result = try runDossier(["info", server.uri("nothing-here.pdf")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("nothing-here.pdf"), result.errors)
    }

    // MARK: Helpers

    private func startedServer(_ kind: RemoteServer.Kind) throws -> RemoteServer {
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
        return try RemoteServer.start(kind)
    }

    private func mountedServer(_ kind: RemoteServer.Kind) throws -> RemoteServer {
        let server = try startedServer(kind)
        try server.mount()
        return server
    }
}

/// Runs the real `dossier` binary (`$DOSSIER_BINARY`, set by `make test`, or the one beside the
/// test bundle) in this session, so it sees the session's GVFS mounts.
func runDossier(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let binary = ProcessInfo.processInfo.environment["DOSSIER_BINARY"].flatMap { $0.isEmpty ? nil : $0 }
        ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("dossier").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    nonisolated(unsafe) var errorData = Data()
    let reading = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        errorData = errors.fileHandleForReading.readDataToEndOfFile()
        reading.signal()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    reading.wait()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}
