import DossierFixtures
import Foundation
import XCTest

/// `dossier ls` as a user or a script runs it.
final class LsCommandTests: XCTestCase {
    private let runner = CommandRunner()

    private func fixture() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("dossier-ls")
        try folder.write("file10.txt", "ten")
        try folder.write("file2.txt", "two!")
        try folder.write("File1.md", "# one")
        try folder.write("big.pdf", String(repeating: "x", count: 2048))
        try folder.write(".secret", "s")
        try folder.write("listed.png", "p")
        try folder.write(".hidden", "listed.png\n")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Photos"), withIntermediateDirectories: false)
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.url.appendingPathComponent("file10.txt").path)
        return folder
    }

    private func names(_ output: String) -> [String] {
        output.split(separator: "\n").map { line in
            // kind, size, date, time, then the name (which may hold spaces)
            guard let time = line.range(of: #"\d\d:\d\d  "#, options: .regularExpression) else { return "" }
            return String(line[time.upperBound...])
        }
    }

    func testListsFoldersFirstInNaturalOrderWithoutHiddenItems() throws {
        let folder = try fixture()
        let result = try runner.run(["ls", folder.url.path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(names(result.output), ["Photos", "big.pdf", "File1.md", "file2.txt", "file10.txt"])
        let lines = result.output.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix("d "), String(lines[0]))
        XCTAssertTrue(lines[1].hasPrefix("- 2048  "), String(lines[1]))
        XCTAssertTrue(lines[4].contains("2001-09-"), String(lines[4]))  // file10.txt's old date
    }

    func testSortKeysAndReverse() throws {
        let folder = try fixture()
        let path = folder.url.path
        XCTAssertEqual(names(try runner.run(["ls", "--sort", "size", path]).output), ["Photos", "file10.txt", "file2.txt", "File1.md", "big.pdf"])
        XCTAssertEqual(names(try runner.run(["ls", "--sort", "size", "--reverse", path]).output), ["Photos", "big.pdf", "File1.md", "file2.txt", "file10.txt"])
        XCTAssertEqual(names(try runner.run(["ls", "--sort", "date", path]).output).prefix(2), ["Photos", "file10.txt"])
        XCTAssertEqual(names(try runner.run(["ls", "--reverse", path]).output), ["Photos", "file10.txt", "file2.txt", "File1.md", "big.pdf"])
        let kind = try runner.run(["ls", "--sort", "kind", path])
        XCTAssertEqual(kind.status, 0, kind.errors)
        XCTAssertEqual(Set(names(kind.output)), ["Photos", "big.pdf", "File1.md", "file2.txt", "file10.txt"])
    }

    func testAllShowsHiddenItems() throws {
        let folder = try fixture()
        let result = try runner.run(["ls", "--all", folder.url.path])
        XCTAssertEqual(names(result.output), ["Photos", ".hidden", ".secret", "big.pdf", "File1.md", "file2.txt", "file10.txt", "listed.png"])
    }

    func testJSONOutput() throws {
        let folder = try fixture()
        let entries = try XCTUnwrap(try runner.json(["ls", "--json", "--all", folder.url.path]) as? [[String: Any]])
        XCTAssertEqual(entries.count, 8)
        let photos = entries[0]
        XCTAssertEqual(photos["name"] as? String, "Photos")
        XCTAssertEqual(photos["kind"] as? String, "folder")
        XCTAssertEqual(photos["type"] as? String, "inode/directory")
        let pdf = try XCTUnwrap(entries.first { $0["name"] as? String == "big.pdf" })
        XCTAssertEqual(pdf["type"] as? String, "application/pdf")
        XCTAssertEqual(pdf["size"] as? Int, 2048)
        XCTAssertEqual(pdf["hidden"] as? Bool, false)
        XCTAssertEqual(pdf["path"] as? String, folder.url.appendingPathComponent("big.pdf").path)
        XCTAssertNotNil(pdf["modified"] as? String)
        let listed = try XCTUnwrap(entries.first { $0["name"] as? String == "listed.png" })
        XCTAssertEqual(listed["hidden"] as? Bool, true)
    }

    func testErrorsAreClearAndUsageErrorsExitWithTwo() throws {
        let folder = try fixture()
        let missing = try runner.run(["ls", folder.url.appendingPathComponent("nowhere").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.errors, "dossier: 'nowhere' does not exist\n")
        let file = try runner.run(["ls", folder.url.appendingPathComponent("big.pdf").path])
        XCTAssertEqual(file.status, 1)
        XCTAssertTrue(file.errors.contains("'big.pdf' is not a folder"), file.errors)
        let sort = try runner.run(["ls", "--sort", "colour", folder.url.path])
        XCTAssertEqual(sort.status, 2)
        XCTAssertTrue(sort.errors.contains("Unknown sort 'colour'"), sort.errors)
        let remote = try runner.run(["ls", "sftp://example.org/home"])
        XCTAssertEqual(remote.status, 1)
        // Listed through GIO: not mounted here (RemoteLocationTests list mounted servers).
        XCTAssertTrue(remote.errors.contains("not connected") || remote.errors.contains("could not be listed"), remote.errors)
        let uri = try runner.run(["ls", folder.url.absoluteString])
        XCTAssertEqual(uri.status, 0, uri.errors)
        let help = try runner.run(["--help"])
        XCTAssertTrue(help.output.contains("  ls "), help.output)
    }

    func testUnreadableFolderIsPermissionDenied() throws {
        let folder = try TemporaryFolder("dossier-ls")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.path)
        let closed = folder.url.appendingPathComponent("closed")
        try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // Root reads every folder: run as nobody then, from a copy of the binary nobody can reach.
        var other = runner
        if getuid() == 0 {
            other.program = folder.url.appendingPathComponent("dossier").path
            try FileManager.default.copyItem(atPath: CommandRunner.binary, toPath: other.program)
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: closed.path)
        }
        defer { chmod(closed.path, 0o700) }
        let result = try other.run(["ls", closed.path], as: getuid() == 0 ? "65534" : nil)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("The folder 'closed' could not be opened: permission denied"), result.errors)
    }
}
