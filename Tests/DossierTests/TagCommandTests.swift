import DossierFixtures
import Foundation
import XCTest

/// `dossier tag` and `dossier favorites`, checked with the tools other programs use.
final class TagCommandTests: XCTestCase {
    private var home: TemporaryFolder!
    private var runner: CommandRunner!

    override func setUpWithError() throws {
        home = try TemporaryFolder("dossier-tag-cli")
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

    private func getfattr(_ relative: String) throws -> String {
        try OtherProgram.run("/usr/bin/getfattr", ["--only-values", "-n", "user.xdg.tags", path(relative)]).output
    }

    func testTagsAddedAreSeenByGetfattrAndListed() throws {
        try home.write("a.txt", "a")
        try home.write("b.txt", "b")
        let added = try runner.run(["tag", "add", "work, urgent", path("a.txt"), path("b.txt")])
        XCTAssertEqual(added.status, 0, added.errors)
        XCTAssertEqual(try getfattr("a.txt"), "work,urgent")
        XCTAssertEqual(try runner.run(["tag", "add", "later,work", path("a.txt")]).status, 0)
        XCTAssertEqual(try getfattr("a.txt"), "work,urgent,later")
        XCTAssertEqual(try runner.run(["tag", "remove", "urgent", path("a.txt")]).status, 0)
        XCTAssertEqual(try runner.run(["tag", "list", path("a.txt")]).output, "work, later\n")
        XCTAssertEqual(try runner.run(["tag", "list", path("a.txt"), path("b.txt")]).output,
                       "\(path("a.txt")): work, later\n\(path("b.txt")): work, urgent\n")
        let json = try XCTUnwrap(try runner.json(["tag", "list", "--json", path("b.txt")]) as? [String: [String]])
        XCTAssertEqual(json, [path("b.txt"): ["work", "urgent"]])
    }

    func testFindListsTaggedFilesInAFolder() throws {
        try home.write("Docs/a.txt", "a")
        try home.write("Docs/sub/b.txt", "b")
        try home.write("Docs/c.txt", "c")
        XCTAssertEqual(try OtherProgram.run("/usr/bin/setfattr", ["-n", "user.xdg.tags", "-v", "red", path("Docs/sub/b.txt")]).status, 0)
        XCTAssertEqual(try runner.run(["tag", "add", "red", path("Docs/a.txt")]).status, 0)
        let found = try runner.run(["tag", "find", "red", path("Docs")])
        XCTAssertEqual(found.status, 0, found.errors)
        XCTAssertEqual(found.output, "\(path("Docs/a.txt"))\n\(path("Docs/sub/b.txt"))\n")
    }

    func testErrorsAreClear() throws {
        try home.write("a.txt", "a")
        let missing = try runner.run(["tag", "list", path("none.txt")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.errors, "dossier: 'none.txt' does not exist\n")
        XCTAssertEqual(try runner.run(["tag", "add", "x"]).status, 2)
        XCTAssertEqual(try runner.run(["tag", "paint", "x", path("a.txt")]).status, 2)
    }

    func testFavoritesRoundTripWithAnotherWriter() throws {
        try home.write("Projects/.keep", "")
        XCTAssertEqual(try runner.run(["favorites", "add", path("Projects"), "My projects"]).status, 0)
        let file = home.url.appendingPathComponent(".config/gtk-3.0/bookmarks")
        let projects = URL(fileURLWithPath: path("Projects")).absoluteString.replacingOccurrences(of: "/$", with: "",
                                                                                                  options: .regularExpression)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "\(projects) My projects\n")
        // Another program adds a line the way GTK does.
        XCTAssertEqual(try OtherProgram.shell("printf 'sftp://server/share\\n' >> '\(file.path)'").status, 0)
        XCTAssertEqual(try runner.run(["favorites"]).output, "My projects\t\(projects)\nsftp://server/share\n")
        XCTAssertEqual(try runner.run(["favorites", "move", "sftp://server/share", "0"]).status, 0)
        XCTAssertEqual(try runner.run(["favorites", "remove", path("Projects")]).status, 0)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "sftp://server/share\n")
        let twice = try runner.run(["favorites", "remove", path("Projects")])
        XCTAssertEqual(twice.status, 1)
        XCTAssertEqual(twice.errors, "dossier: 'Projects' is not a favorite\n")
    }
}
