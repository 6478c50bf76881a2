import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// `dossier bookmark create` in one process, the file moved by `mv` (Dossier not running),
/// `dossier bookmark resolve` in another: a bookmark survives a restart.
final class BookmarkCommandTests: XCTestCase {
    private var home: TemporaryFolder!
    private var runner: CommandRunner!

    override func setUpWithError() throws {
        home = try TemporaryFolder("dossier-bookmark-cli")
        runner = CommandRunner(environment: [
            "HOME": home.url.path,
            "XDG_CONFIG_HOME": home.url.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.url.appendingPathComponent(".local/share").path,
        ])
    }

    // XCTest keeps every test case object until the run ends: let go of the folder now, so
    // it is removed.
    override func tearDown() {
        home = nil
        runner = nil
    }

    private func path(_ relative: String) -> String {
        home.url.resolvingSymlinksInPath().appendingPathComponent(relative).path
    }

    private func create(_ relative: String) throws -> String {
        let result = try runner.run(["bookmark", "create", path(relative)])
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Resolves with a generous search budget (these tests are about finding, not speed: a
    /// loaded CI machine must not turn a find into a miss), unless the test gives its own.
    private func resolve(_ data: String, _ extra: [String] = []) throws -> CommandRunner.Result {
        try runner.run(["bookmark", "resolve"] + (extra.isEmpty ? ["--budget", "10000"] : extra) + [data])
    }

    private func sh(_ command: String) throws {
        let result = try OtherProgram.shell(command)
        XCTAssertEqual(result.status, 0, result.errors)
    }

    func testUnmovedFileResolvesToItsPath() throws {
        try home.write("Documents/cv.txt", "cv")
        let data = try create("Documents/cv.txt")
        XCTAssertTrue(Data(base64Encoded: data)?.starts(with: Array("DOSSIER-BOOKMARK".utf8)) == true, data)
        let result = try resolve(data)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.output, path("Documents/cv.txt") + "\n")
    }

    func testRenamedFileResolvesAfterRestart() throws {
        try home.write("Documents/cv.txt", "cv")
        let data = try create("Documents/cv.txt")
        try sh("mv '\(path("Documents/cv.txt"))' '\(path("Documents/cv-2024.txt"))'")
        XCTAssertEqual(try resolve(data).output, path("Documents/cv-2024.txt") + " stale\n")
    }

    func testFileMovedToAnotherFolderResolvesAfterRestart() throws {
        try home.write("Downloads/scan.pdf", "%PDF")
        try home.write("Documents/Taxes/2023/old.pdf", "%PDF")
        let data = try create("Downloads/scan.pdf")
        try sh("mkdir -p '\(path("Documents/Taxes/2024"))' && mv '\(path("Downloads/scan.pdf"))' '\(path("Documents/Taxes/2024/"))'")
        XCTAssertEqual(try resolve(data).output, path("Documents/Taxes/2024/scan.pdf") + " stale\n")
    }

    func testAtomicSaveByAnotherProgramResolvesToThePathAsStale() throws {
        try home.write("notes.txt", "version one")
        let data = try create("notes.txt")
        // sed -i writes a new file and renames it over the old one: a new inode, same path.
        try sh("sed -i 's/one/two/' '\(path("notes.txt"))'")
        let result = try resolve(data)
        XCTAssertEqual(result.output, path("notes.txt") + " stale\n")
        let fresh = try create("notes.txt")
        XCTAssertEqual(try resolve(fresh).output, path("notes.txt") + "\n")
    }

    func testMovedParentFolderResolvesAfterRestart() throws {
        try home.write("Projects/website/index.html", "<html>")
        let data = try create("Projects/website/index.html")
        try sh("mkdir -p '\(path("Archive"))' && mv '\(path("Projects/website"))' '\(path("Archive/website-2023"))'")
        XCTAssertEqual(try resolve(data).output, path("Archive/website-2023/index.html") + " stale\n")
    }

    func testDeletedFileFailsWithTheNotFoundError() throws {
        try home.write("tmp.txt", "x")
        let data = try create("tmp.txt")
        try sh("rm '\(path("tmp.txt"))'")
        let result = try resolve(data, ["--budget", "50"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.output, "")
        XCTAssertTrue(result.errors.contains("'tmp.txt' could not be found: it was deleted, or moved somewhere Dossier did not look"),
                      result.errors)
    }

    func testCorruptDataFailsWithTheCorruptError() throws {
        try home.write("a.txt", "a")
        let data = try create("a.txt")
        var bytes = [UInt8](try XCTUnwrap(Data(base64Encoded: data)))
        bytes[bytes.count - 10] ^= 0xff
        let result = try resolve(Data(bytes).base64EncodedString())
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.errors, "dossier: The bookmark data is damaged and cannot be read (its checksum does not match)\n")
        let garbage = try resolve("hello")
        XCTAssertEqual(garbage.status, 1)
        XCTAssertTrue(garbage.errors.contains("damaged"), garbage.errors)
    }

    func testBookmarkOnAnUnmountedVolumeFailsNamingTheVolume() throws {
        // A bookmark as a USB stick's file would have it, forged from a real one.
        try home.write("a.txt", "a")
        var bookmark = try Bookmark(base64Encoded: try create("a.txt"))
        bookmark.path = "/media/ann/HOLIDAYS/photos/beach.jpg"
        bookmark.volume = Volume(uuid: "7A3C-11F0", label: nil, mountPoint: "/media/ann/HOLIDAYS", fileSystemType: "vfat", device: 0)
        let unnamed = try resolve(bookmark.base64EncodedString())
        XCTAssertEqual(unnamed.status, 1)
        XCTAssertEqual(unnamed.errors,
                       "dossier: 'beach.jpg' is on the volume '7A3C-11F0', which is not mounted: connect or mount it, then try again\n")
        bookmark.volume.label = "HOLIDAYS"
        let labelled = try resolve(bookmark.base64EncodedString())
        XCTAssertTrue(labelled.errors.contains("on the volume 'HOLIDAYS', which is not mounted"), labelled.errors)
    }

    func testUnreadableFoldersAreSkippedBySearch() throws {
        // Root reads everything: the search runs as nobody then, with a copy of the binary.
        var other = runner!
        let user: String? = getuid() == 0 ? "65534" : nil
        if user != nil {
            other.program = path("dossier")
            try FileManager.default.copyItem(atPath: CommandRunner.binary, toPath: other.program)
        }
        try home.write("a/doc.txt", "doc")
        try home.write("b/c/keep.txt", "keep")
        try home.write("locked/inner/secret.txt", "secret")
        let created = try other.run(["bookmark", "create", path("a/doc.txt")], as: user)
        XCTAssertEqual(created.status, 0, created.errors)
        try sh("mv '\(path("a/doc.txt"))' '\(path("b/c/doc.txt"))' && chmod 000 '\(path("locked"))' && touch '\(path("locked"))'")
        defer { chmod(path("locked"), 0o755) }
        let resolved = try other.run(["bookmark", "resolve", created.output.trimmingCharacters(in: .newlines)], as: user)
        XCTAssertEqual(resolved.status, 0, resolved.errors)
        XCTAssertEqual(resolved.output, path("b/c/doc.txt") + " stale\n")
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try runner.run(["bookmark"]).status, 2)
        XCTAssertEqual(try runner.run(["bookmark", "frob", "x"]).status, 2)
        XCTAssertEqual(try runner.run(["bookmark", "resolve", "--budget", "soon", "x"]).status, 2)
        let missing = try runner.run(["bookmark", "create", path("nothing.txt")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("A bookmark to 'nothing.txt' could not be made"), missing.errors)
    }
}
