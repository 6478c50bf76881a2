import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// The recent documents in `recently-used.xbel`, shared with GLib, GTK and other programs.
final class RecentDocumentsTests: XCTestCase {
    private var home: TemporaryFolder!
    private var directories: UserDirectories!

    override func setUpWithError() throws {
        home = try TemporaryFolder("dossier-recents")
        directories = UserDirectories(
            home: home.url, configHome: home.url.appendingPathComponent(".config"),
            dataHome: home.url.appendingPathComponent(".local/share"))
    }

    // XCTest keeps every test case object until the run ends: let go of the folder now, so
    // it is removed.
    override func tearDown() {
        home = nil
    }

    /// A list whose searches for moved documents may take their time: they end when they find
    /// the document, and the default budgets are too short for a sanitizer's build.
    private func patientRecents() -> RecentDocuments {
        RecentDocuments(directories: directories, resolveBudget: .seconds(60), listingBudget: .seconds(60))
    }

    private var xbel: String { directories.dataHome.appendingPathComponent("recently-used.xbel").path }

    /// Runs `body` after the GBookmarkFile prelude, with the XBEL path in `sys.argv[1]`.
    private func glib(_ body: String, _ arguments: [String] = []) throws -> String {
        let result = try OtherProgram.python(OtherProgram.bookmarkFilePrelude + "\n" + body, [xbel] + arguments)
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output
    }

    private func path(_ url: URL) -> String { url.resolvingSymlinksInPath().path }
    private func uri(_ url: URL) -> String { URL(fileURLWithPath: path(url)).absoluteString }

    func testRecordedDocumentsAreReadBackByGLibsOwnParser() throws {
        let letter = try home.write("Documents/letter.txt", "Dear Ann")
        let recents = RecentDocuments(directories: directories)
        try recents.record(letter, as: .opened)
        try recents.record(letter, as: .edited)
        let output = try glib("""
            bf = load(sys.argv[1])
            for uri in uris(bf):
                print(uri, mime(bf, uri), app_info(bf, uri, "Dossier"))
            """)
        XCTAssertEqual(output, "\(uri(letter)) text/plain ('dossier \(uri(letter))', 2)\n")
    }

    func testGtkRecentManagerSeesDossiersEntries() throws {
        let photo = try home.write("Pictures/photo.png", bytes: SampleFiles.png)
        try RecentDocuments(directories: directories).record(photo)
        // GtkRecentManager needs no display for reading: it is what GTK file choosers use.
        let result = try OtherProgram.python("""
            import gi
            gi.require_version("Gtk", "4.0")
            from gi.repository import Gtk
            for item in Gtk.RecentManager.get_default().get_items():
                print(item.get_uri(), item.get_mime_type(), item.get_applications(), item.exists())
            """, environment: ["XDG_DATA_HOME": directories.dataHome.path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.output, "\(uri(photo)) image/png ['Dossier'] True\n")
    }

    func testOtherProgramsEntriesAreListedAndKeptIntact() throws {
        let notes = try home.write("notes.md", "# notes")
        let secret = try home.write("secret.txt", "shh")
        _ = try glib("""
            bf = glib.g_bookmark_file_new()
            for path, private in ((sys.argv[2], 0), (sys.argv[3], 1)):
                uri = "file://" + path
                glib.g_bookmark_file_add_application(bf, uri.encode(), b"gedit", b"gedit %u")
                glib.g_bookmark_file_set_mime_type(bf, uri.encode(), b"text/markdown")
                glib.g_bookmark_file_set_is_private(bf, uri.encode(), private)
            save(bf, sys.argv[1])
            """, [path(notes), path(secret)])
        let recents = RecentDocuments(directories: directories)
        let items = try recents.items()
        XCTAssertEqual(items.map(\.uri), [uri(notes)], "another program's private entry is not shown")
        XCTAssertEqual(items.first?.applications, ["gedit"])
        XCTAssertEqual(items.first?.isRecordedByDossier, false)
        let letter = try home.write("letter.txt", "x")
        try recents.record(letter)
        let output = try glib("""
            bf = load(sys.argv[1])
            for uri in sorted(uris(bf)):
                print(uri.rsplit("/", 1)[1], mime(bf, uri), app_info(bf, uri, "gedit"), app_info(bf, uri, "Dossier") is not None)
            """)
        XCTAssertEqual(output, """
            letter.txt text/plain None True
            notes.md text/markdown ('gedit \(uri(notes))', 1) False
            secret.txt text/markdown ('gedit \(uri(secret))', 1) False

            """)
    }

    func testLimitDropsDossiersOldestEntriesOnly() throws {
        let other = try home.write("other.txt", "other")
        _ = try glib("""
            bf = glib.g_bookmark_file_new()
            glib.g_bookmark_file_add_application(bf, b"\(uri(other))", b"gedit", b"gedit %u")
            save(bf, sys.argv[1])
            """)
        let recents = RecentDocuments(directories: directories, limit: 3)
        var files: [URL] = []
        for index in 0..<5 {
            let file = try home.write("doc\(index).txt", "\(index)")
            files.append(file)
            try recents.record(file)
            Thread.sleep(forTimeInterval: 0.002)  // distinct stamps
        }
        let names = Set(try recents.items().map(\.name))
        XCTAssertEqual(names, ["doc2.txt", "doc3.txt", "doc4.txt", "other.txt"])
    }

    func testMovedDocumentIsPointedAtItsNewPlace() throws {
        let report = try home.write("Work/report.txt", "report")
        let recents = patientRecents()
        try recents.record(report)
        let moved = home.url.appendingPathComponent("Archive/report-2024.txt")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: report, to: moved)
        let items = try recents.items()
        XCTAssertEqual(items.map(\.uri), [uri(moved)])
        XCTAssertEqual(items.first?.isMissing, false)
        XCTAssertEqual(try glib("print(uris(load(sys.argv[1])))"), "['\(uri(moved))']\n", "the XBEL href was updated")
        XCTAssertEqual(recents.recentFolders.map(\.path), [path(moved.deletingLastPathComponent())])
    }

    func testAnotherProgramsEntryIsFollowedOnceListed() throws {
        let song = try home.write("Music/song.ogg", "OggS")
        _ = try glib("""
            bf = glib.g_bookmark_file_new()
            uri = b"file://" + sys.argv[2].encode()
            glib.g_bookmark_file_add_application(bf, uri, b"Rhythmbox", b"rhythmbox %u")
            save(bf, sys.argv[1])
            """, [path(song)])
        let recents = patientRecents()
        XCTAssertEqual(try recents.items().map(\.uri), [uri(song)])
        let moved = home.url.appendingPathComponent("Music/Favourites/song.ogg")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: song, to: moved)
        let items = try recents.items()
        XCTAssertEqual(items.map(\.uri), [uri(moved)])
        XCTAssertEqual(items.first?.applications, ["Rhythmbox"], "still Rhythmbox's entry")
        XCTAssertEqual(try glib("bf = load(sys.argv[1]); print([(u, app_info(bf, u, 'Rhythmbox')[1]) for u in uris(bf)])"),
                       "[('\(uri(moved))', 1)]\n")
    }

    func testDeletedDocumentIsListedAsMissingUntilRemoved() throws {
        let draft = try home.write("draft.txt", "draft")
        let recents = RecentDocuments(directories: directories, resolveBudget: .milliseconds(50))
        try recents.record(draft)
        try FileManager.default.removeItem(at: draft)
        XCTAssertEqual(try recents.items().map(\.isMissing), [true])
        XCTAssertEqual(try recents.items().map(\.isMissing), [true], "still listed")
        try recents.remove(path(draft))
        XCTAssertEqual(try recents.items(), [])
    }

    func testClearEmptiesTheWholeListAsGNOMEDoes() throws {
        let mine = try home.write("mine.txt", "mine")
        let theirs = try home.write("theirs.txt", "theirs")
        _ = try glib("""
            bf = glib.g_bookmark_file_new()
            glib.g_bookmark_file_add_application(bf, b"\(uri(theirs))", b"gedit", b"gedit %u")
            save(bf, sys.argv[1])
            """)
        let recents = RecentDocuments(directories: directories)
        try recents.record(mine)
        XCTAssertEqual(try recents.items().count, 2)
        try recents.clear()
        XCTAssertEqual(try recents.items(), [])
        XCTAssertEqual(try glib("print(uris(load(sys.argv[1])))"), "[]\n")
    }

    func testTrackingUpdatesTheListWhenADocumentMoves() throws {
        let memo = try home.write("memo.txt", "memo")
        let recents = RecentDocuments(directories: directories)
        try recents.record(memo)
        try recents.startTracking()
        defer { recents.stopTracking() }
        let renamed = home.url.appendingPathComponent("memo (sent).txt")
        let result = try OtherProgram.run("/bin/mv", [memo.path, renamed.path])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(eventually {
            (try? self.glib("print(uris(load(sys.argv[1])))")) == "['\(self.uri(renamed))']\n"
        }, "the XBEL followed the rename without a listing")
    }
}
