import DossierFixtures
import Foundation
import XCTest

/// `dossier trash` and `dossier restore` as a user runs them, with a private
/// `XDG_DATA_HOME` and `DOSSIER_TRASH_VOLUMES` so that no real trash folder is ever touched.
final class TrashCommandTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var runner = CommandRunner()
    private var dataHome: URL { folder.url.appendingPathComponent("data") }
    private var homeTrash: URL { dataHome.appendingPathComponent("Trash") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("dossier-trash-cli")
        runner.environment["XDG_DATA_HOME"] = dataHome.path
        runner.environment["DOSSIER_TRASH_VOLUMES"] = ""
    }

    override func tearDown() {
        folder = nil
    }

    private func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    func testHelpListsTheTrashCommands() throws {
        let help = try runner.run(["--help"])
        for line in ["  trash PATH…", "  trash --list [--json]", "  trash --empty", "  restore NAME…"] {
            XCTAssertTrue(help.output.contains(line), help.output)
        }
    }

    func testTrashSaysWhereEachItemWentAndReportsMissingOnes() throws {
        let a = try folder.write("work/a.txt", "a")
        let b = try folder.write("work/My Folder/b.txt", "b").deletingLastPathComponent()
        let missing = folder.url.appendingPathComponent("work/missing.txt")
        let result = try runner.run(["trash", a.path, missing.path, b.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.output,
            "Moved “\(a.path)” to the Trash as \(homeTrash.path)/files/a.txt\n"
                + "Moved “\(b.path)” to the Trash as \(homeTrash.path)/files/My Folder\n")
        XCTAssertEqual(result.errors, "dossier: “missing.txt” could not be moved to the Trash: it does not exist\n")
        XCTAssertFalse(exists(a) || exists(b))
        XCTAssertTrue(exists(homeTrash.appendingPathComponent("files/My Folder/b.txt")))
        let record = try String(contentsOf: homeTrash.appendingPathComponent("info/My Folder.trashinfo"), encoding: .utf8)
        XCTAssertTrue(record.hasPrefix("[Trash Info]\nPath=\(folder.url.path)/work/My%20Folder\nDeletionDate="), record)
    }

    func testListShowsNameDateAndOriginalPathAsTextAndJSON() throws {
        let empty = try runner.run(["trash", "--list"])
        XCTAssertEqual(empty.status, 0, empty.errors)
        XCTAssertEqual(empty.output, "The Trash is empty.\n")

        let first = try folder.write("one/same.txt", "1")
        let second = try folder.write("two/same.txt", "2")
        XCTAssertEqual(try runner.run(["trash", first.path, second.path]).status, 0)
        let list = try runner.run(["trash", "--list"])
        XCTAssertEqual(list.status, 0, list.errors)
        let rows = list.output.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        XCTAssertEqual(rows.map(\.count), [3, 3])
        XCTAssertEqual(Set(rows.map { $0[0] + " " + $0[2] }), ["same.txt \(first.path)", "same.2.txt \(second.path)"])
        XCTAssertNotNil(rows.first?[1].range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"#, options: .regularExpression))

        let json = try XCTUnwrap(try runner.json(["trash", "--list", "--json"]) as? [String: Any])
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        XCTAssertEqual(Set(items.compactMap { $0["name"] as? String }), ["same.txt", "same.2.txt"])
        let item = try XCTUnwrap(items.first { $0["name"] as? String == "same.2.txt" })
        XCTAssertEqual(item["originalPath"] as? String, second.path)
        XCTAssertEqual(item["trashPath"] as? String, homeTrash.path + "/files/same.2.txt")
        XCTAssertEqual(item["trashFolder"] as? String, homeTrash.path)
        XCTAssertNotNil(item["deletionDate"] as? String)
        XCTAssertEqual((json["problems"] as? [Any])?.count, 0)
    }

    func testListReportsADamagedRecordAndStillListsTheRest() throws {
        XCTAssertEqual(try runner.run(["trash", try folder.write("work/good.txt", "g").path]).status, 0)
        try Data("garbage".utf8).write(to: homeTrash.appendingPathComponent("files/bad"))
        try Data("garbage".utf8).write(to: homeTrash.appendingPathComponent("info/bad.trashinfo"))
        let list = try runner.run(["trash", "--list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.output.hasPrefix("good.txt\t"), list.output)
        XCTAssertTrue(list.errors.contains("bad.trashinfo” is damaged: it has no [Trash Info] group"), list.errors)
    }

    func testRestorePutsTheNamedItemBackAndRefusesToReplace() throws {
        let file = try folder.write("work/deep/report.txt", "report")
        XCTAssertEqual(try runner.run(["trash", file.path]).status, 0)
        try FileManager.default.removeItem(at: file.deletingLastPathComponent())
        let restored = try runner.run(["restore", "report.txt"])
        XCTAssertEqual(restored.status, 0, restored.errors)
        XCTAssertEqual(restored.output, "Restored “report.txt” to \(file.path)\n")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "report")

        XCTAssertEqual(try runner.run(["trash", file.path]).status, 0)
        try folder.write("work/deep/report.txt", "newer")
        let conflict = try runner.run(["restore", "report.txt"])
        XCTAssertEqual(conflict.status, 1)
        XCTAssertTrue(conflict.errors.contains("“report.txt” could not be restored: an item with that name already exists"), conflict.errors)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "newer")

        let unknown = try runner.run(["restore", "nothing.txt"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.errors, "dossier: Nothing named “nothing.txt” is in the Trash\n")
    }

    func testRestoreRefusesANameThatFitsSeveralItems() throws {
        // A second trash folder, on a "volume" listed through DOSSIER_TRASH_VOLUMES, holding an
        // item of the same name as one in the home trash.
        let volume = folder.url.appendingPathComponent("volume")
        let other = volume.appendingPathComponent(".Trash-\(getuid())")
        try folder.write("volume/.Trash-\(getuid())/files/same.txt", "volume")
        try folder.write("volume/.Trash-\(getuid())/info/same.txt.trashinfo", "[Trash Info]\nPath=same.txt\nDeletionDate=2024-05-01T12:00:00\n")
        var both = runner
        both.environment["DOSSIER_TRASH_VOLUMES"] = volume.path
        XCTAssertEqual(try both.run(["trash", try folder.write("work/same.txt", "home").path]).status, 0)

        let ambiguous = try both.run(["restore", "same.txt"])
        XCTAssertEqual(ambiguous.status, 1)
        XCTAssertTrue(ambiguous.errors.contains("“same.txt” matches several items in the Trash; name one by its path in the Trash:"), ambiguous.errors)
        XCTAssertTrue(ambiguous.errors.contains(other.path + "/files/same.txt"), ambiguous.errors)
        XCTAssertTrue(ambiguous.errors.contains(homeTrash.path + "/files/same.txt"), ambiguous.errors)

        let chosen = try both.run(["restore", other.path + "/files/same.txt"])
        XCTAssertEqual(chosen.status, 0, chosen.errors)
        XCTAssertEqual(try String(contentsOf: volume.appendingPathComponent("same.txt"), encoding: .utf8), "volume")
    }

    func testEmptyDeletesEverything() throws {
        let tree = try folder.write("work/Tree/inner/file.txt", "x").deletingLastPathComponent().deletingLastPathComponent()
        let outside = try folder.write("outside/keep.txt", "keep")
        try FileManager.default.createSymbolicLink(
            atPath: tree.appendingPathComponent("out").path, withDestinationPath: outside.deletingLastPathComponent().path)
        XCTAssertEqual(try runner.run(["trash", tree.path, try folder.write("work/a.txt", "a").path]).status, 0)
        let emptied = try runner.run(["trash", "--empty"])
        XCTAssertEqual(emptied.status, 0, emptied.errors)
        XCTAssertEqual(emptied.output, "Deleted 2 items from the Trash\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: homeTrash.appendingPathComponent("files").path), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: homeTrash.appendingPathComponent("info").path), [])
        XCTAssertTrue(exists(outside))
        XCTAssertEqual(try runner.run(["trash", "--list"]).output, "The Trash is empty.\n")
    }

    func testAnOrdinaryUserTrashesAndEmptiesReadOnlyFolders() throws {
        // Root may write anywhere, which hides permission handling: run as nobody then, with
        // a copy of the binary nobody can reach.
        let user: String? = getuid() == 0 ? "65534" : nil
        var plain = runner
        if user != nil {
            plain.program = folder.url.appendingPathComponent("dossier").path
            try FileManager.default.copyItem(atPath: CommandRunner.binary, toPath: plain.program)
        }
        let cache = try folder.write("work/Cache/pkg/mod.go", "package mod").deletingLastPathComponent().deletingLastPathComponent()
        if user != nil {
            XCTAssertEqual(chown(folder.url.path, 65534, 65534), 0)
            for path in try FileManager.default.subpathsOfDirectory(atPath: folder.url.path) {
                lchown(folder.url.appendingPathComponent(path).path, 65534, 65534)
            }
        }
        chmod(cache.appendingPathComponent("pkg").path, 0o555)
        chmod(cache.path, 0o555)

        let trashed = try plain.run(["trash", cache.path], as: user)
        XCTAssertEqual(trashed.status, 0, trashed.errors)
        var status = stat()
        XCTAssertEqual(lstat(homeTrash.appendingPathComponent("files/Cache").path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o555, "the folder's own mode is kept")
        let emptied = try plain.run(["trash", "--empty"], as: user)
        XCTAssertEqual(emptied.status, 0, emptied.errors)
        XCTAssertFalse(exists(homeTrash.appendingPathComponent("files/Cache")))
    }

    func testUsageErrors() throws {
        for arguments in [["trash"], ["restore"], ["trash", "--list", "a.txt"], ["trash", "--list", "--empty"],
                          ["trash", "--json", "a.txt"], ["trash", "--colour"]] {
            let result = try runner.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.errors)")
            XCTAssertFalse(result.errors.isEmpty)
        }
    }
}
