import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// GTK's bookmarks file, shared with GNOME Files and file choosers.
final class FavoritesTests: XCTestCase {
    private var config: TemporaryFolder!
    private var file: URL { config.url.appendingPathComponent("gtk-3.0/bookmarks") }

    override func setUpWithError() throws {
        config = try TemporaryFolder("dossier-favorites")
    }

    // XCTest keeps every test case object until the run ends: let go of the folder now, so
    // it is removed.
    override func tearDown() {
        config = nil
    }

    private func favorites() -> Favorites {
        Favorites(directories: UserDirectories(home: config.url, configHome: config.url, dataHome: config.url))
    }

    private var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    func testLinesAreReadWithLabelsAndUnknownLinesKept() throws {
        try config.write("gtk-3.0/bookmarks", """
            file:///home/ann/Projects
            file:///home/ann/Music%20Library My music
            this line is not a bookmark

            sftp://server/srv/share Server share
            """ + "\n")
        let list = favorites()
        XCTAssertEqual(try list.items(), [
            Favorite(uri: "file:///home/ann/Projects"),
            Favorite(uri: "file:///home/ann/Music%20Library", label: "My music"),
            Favorite(uri: "sftp://server/srv/share", label: "Server share"),
        ])
        XCTAssertEqual(try list.items().map(\.displayName), ["Projects", "My music", "Server share"])
        try list.add("/home/ann/Downloads")
        XCTAssertEqual(text, """
            file:///home/ann/Projects
            file:///home/ann/Music%20Library My music
            this line is not a bookmark

            sftp://server/srv/share Server share
            file:///home/ann/Downloads
            """ + "\n")
    }

    /// Lines are split on the byte "\n", as GTK splits them, not on the Character "\n", which
    /// "\r\n" is not: a file with Windows line ends would be one line, one favorite whose label
    /// holds every other line.
    func testWindowsLineEndsEndLinesToo() throws {
        try config.write("gtk-3.0/bookmarks", "file:///home/ann/Projects\r\nfile:///srv/share Share\r\nnot a bookmark\r\n")
        let list = favorites()
        XCTAssertEqual(try list.items(), [
            Favorite(uri: "file:///home/ann/Projects"),
            Favorite(uri: "file:///srv/share", label: "Share"),
        ])
        try list.add("file:///tmp")
        XCTAssertEqual(text, "file:///home/ann/Projects\nfile:///srv/share Share\nnot a bookmark\r\nfile:///tmp\n",
                       "favorites are written back with plain line ends, other lines as they were")
    }

    /// Every "\r" of a line ending in "\r\r\n" is dropped: a label left ending in "\r" would
    /// lose it when the file is written back, so the favorite would change every time it is
    /// saved. The same holds for a URI ending in "\r" before an empty label.
    func testEveryCarriageReturnAtALinesEndIsDropped() throws {
        try config.write("gtk-3.0/bookmarks", "file:///srv/share Share\r\r\nfile:///srv/music\r\r\nfile:///srv/film\r \r\n")
        let list = favorites()
        let expected = [Favorite(uri: "file:///srv/share", label: "Share"), Favorite(uri: "file:///srv/music"),
                        Favorite(uri: "file:///srv/film")]
        XCTAssertEqual(try list.items(), expected)
        try list.add("file:///tmp")
        XCTAssertEqual(try favorites().items(), expected + [Favorite(uri: "file:///tmp")], "written back, they read the same")
    }

    func testAddRemoveRenameAndMove() throws {
        let list = favorites()
        try list.add("file:///a")
        try list.add("file:///b", label: "Bee")
        try list.add("file:///c")
        try list.add("file:///first", at: 0)
        XCTAssertEqual(try list.items().map(\.uri), ["file:///first", "file:///a", "file:///b", "file:///c"])
        try list.move("file:///c", to: 1)
        XCTAssertEqual(try list.items().map(\.uri), ["file:///first", "file:///c", "file:///a", "file:///b"])
        try list.move("file:///first", to: 99)
        XCTAssertEqual(try list.items().map(\.uri), ["file:///c", "file:///a", "file:///b", "file:///first"])
        try list.rename("file:///b", to: "Bees")
        try list.rename("file:///a", to: "Ay")
        try list.rename("file:///a", to: nil)
        try list.remove("file:///c")
        XCTAssertEqual(text, "file:///a\nfile:///b Bees\nfile:///first\n")
        XCTAssertThrowsError(try list.add("file:///a")) { error in
            XCTAssertEqual(error as? FavoritesError, .alreadyFavorite(name: "a"))
        }
        XCTAssertThrowsError(try list.remove("file:///zzz")) { error in
            XCTAssertEqual("\(error)", "'zzz' is not a favorite")
        }
        XCTAssertThrowsError(try list.add("not a location"))
    }

    func testAnotherProgramsChangeIsReloadedAndObserversHear() throws {
        try config.write("gtk-3.0/bookmarks", "file:///one One\n")
        let list = favorites()
        list.startWatching()
        defer { list.stopWatching() }
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var lists: [[Favorite]] = []
        }
        let seen = Seen()
        let token = list.addObserver { favorites in seen.lock.withLock { seen.lists.append(favorites) } }
        defer { token.cancel() }
        // GLib writes it as GTK does: a temporary file renamed over the old one.
        let result = try OtherProgram.python("""
            import sys
            from gi.repository import GLib
            GLib.file_set_contents(sys.argv[1], b"file:///one One\\nfile:///two Two\\n")
            """, [file.path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(eventually { seen.lock.withLock { seen.lists.count } >= 1 })
        XCTAssertEqual(seen.lock.withLock { seen.lists.last }, [Favorite(uri: "file:///one", label: "One"),
                                                                 Favorite(uri: "file:///two", label: "Two")])
        XCTAssertEqual(try list.items().count, 2)
        // And a shell appending in place.
        XCTAssertEqual(try OtherProgram.shell("echo 'file:///three' >> '\(file.path)'").status, 0)
        XCTAssertTrue(eventually { seen.lock.withLock { seen.lists.last?.count } == 3 })
        // Dossier's own change reaches observers too, and keeps the other writers' lines.
        try list.remove("file:///one")
        XCTAssertEqual(seen.lock.withLock { seen.lists.last?.map(\.uri) }, ["file:///two", "file:///three"])
        XCTAssertEqual(text, "file:///two Two\nfile:///three\n")
    }
}
