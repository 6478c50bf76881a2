import DossierFixtures
import Foundation
import XCTest

/// `dossier recents` against the XBEL other programs read and write.
final class RecentsCommandTests: XCTestCase {
    private var home: TemporaryFolder!
    private var runner: CommandRunner!
    private var dataHome: URL { home.url.appendingPathComponent(".local/share") }
    private var xbel: String { dataHome.appendingPathComponent("recently-used.xbel").path }

    override func setUpWithError() throws {
        home = try TemporaryFolder("dossier-recents-cli")
        runner = CommandRunner(environment: [
            "HOME": home.url.path,
            "XDG_CONFIG_HOME": home.url.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": dataHome.path,
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

    private func glib(_ body: String, _ arguments: [String] = []) throws -> String {
        let result = try OtherProgram.python(OtherProgram.bookmarkFilePrelude + "\n" + body, [xbel] + arguments)
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output
    }

    func testEntriesWrittenByGLibAppearInDossierRecents() throws {
        try home.write("thesis.odt", "odt")
        _ = try glib("""
            bf = glib.g_bookmark_file_new()
            uri = b"file://" + sys.argv[2].encode()
            glib.g_bookmark_file_add_application(bf, uri, b"LibreOffice", b"soffice %u")
            glib.g_bookmark_file_set_mime_type(bf, uri, b"application/vnd.oasis.opendocument.text")
            save(bf, sys.argv[1])
            """, [path("thesis.odt")])
        let text = try runner.run(["recents"])
        XCTAssertEqual(text.status, 0, text.errors)
        XCTAssertTrue(text.output.hasSuffix("  \(path("thesis.odt"))\n"), text.output)
        let items = try XCTUnwrap(try runner.json(["recents", "--json"]) as? [[String: Any]])
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?["applications"] as? [String], ["LibreOffice"])
        XCTAssertEqual(items.first?["mimeType"] as? String, "application/vnd.oasis.opendocument.text")
        XCTAssertEqual(items.first?["isRecordedByDossier"] as? Bool, false)
        XCTAssertEqual(items.first?["isMissing"] as? Bool, false)
    }

    func testDocumentsAddedByDossierAreReadByGLib() throws {
        try home.write("a.txt", "a")
        try home.write("b.png", bytes: SampleFiles.png)
        let added = try runner.run(["recents", "--add", path("a.txt"), path("b.png")])
        XCTAssertEqual(added.status, 0, added.errors)
        let output = try glib("""
            bf = load(sys.argv[1])
            for uri in sorted(uris(bf)):
                print(uri.rsplit("/", 1)[1], mime(bf, uri), app_info(bf, uri, "Dossier")[1])
            """)
        XCTAssertEqual(output, "a.txt text/plain 1\nb.png image/png 1\n")
    }

    func testMovedDocumentIsFollowedAndADeletedOneShownMissing() throws {
        try home.write("Inbox/keep.txt", "keep")
        try home.write("Inbox/drop.txt", "drop")
        XCTAssertEqual(try runner.run(["recents", "--add", path("Inbox/keep.txt"), path("Inbox/drop.txt")]).status, 0)
        XCTAssertEqual(try OtherProgram.shell("mkdir '\(path("Kept"))' && mv '\(path("Inbox/keep.txt"))' '\(path("Kept/"))'"
                                              + " && rm '\(path("Inbox/drop.txt"))'").status, 0)
        let listing = try runner.run(["recents"])
        XCTAssertEqual(listing.status, 0, listing.errors)
        let lines = listing.output.split(separator: "\n").map { String($0.dropFirst(18)) }.sorted()
        XCTAssertEqual(lines, [path("Inbox/drop.txt") + "  (missing)", path("Kept/keep.txt")])
        XCTAssertTrue(try glib("print(uris(load(sys.argv[1])))").contains("Kept/keep.txt"), "the XBEL followed the move")
        XCTAssertEqual(try runner.run(["recents", "--remove", path("Inbox/drop.txt")]).status, 0)
        XCTAssertEqual(try runner.run(["recents"]).output.split(separator: "\n").count, 1)
    }

    func testOpenedDocumentsJoinTheRecentList() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer", name: "Viewer", types: ["image/png"])
        let png = try fixture.folder.write("opened.png", bytes: SampleFiles.png)
        let opened = try fixture.runner.run(["open", png.path])
        XCTAssertEqual(opened.status, 0, opened.errors)
        let items = try XCTUnwrap(try fixture.runner.json(["recents", "--json"]) as? [[String: Any]])
        XCTAssertEqual(items.map { $0["path"] as? String }, [png.resolvingSymlinksInPath().path])
        XCTAssertEqual(items.first?["isRecordedByDossier"] as? Bool, true)
    }

    func testClearEmptiesTheList() throws {
        try home.write("a.txt", "a")
        XCTAssertEqual(try runner.run(["recents", "--add", path("a.txt")]).status, 0)
        let cleared = try runner.run(["recents", "--clear"])
        XCTAssertEqual(cleared.status, 0, cleared.errors)
        XCTAssertEqual(try runner.run(["recents"]).output, "")
        XCTAssertEqual(try glib("print(uris(load(sys.argv[1])))"), "[]\n")
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try runner.run(["recents", "--add"]).status, 2)
        XCTAssertEqual(try runner.run(["recents", "--clear", "x"]).status, 2)
        XCTAssertEqual(try runner.run(["recents", "--clear", "--add", "x"]).status, 2)
        XCTAssertEqual(try runner.run(["recents", "stray"]).status, 2)
    }
}
