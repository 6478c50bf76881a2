import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// The Trash as the freedesktop.org Trash specification 1.0 describes it, on real files in
/// a temporary folder with its own data home: the real Trash is never touched.
final class TrashTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var dataHome: URL { folder.url.appendingPathComponent("data") }
    private var homeTrash: URL { dataHome.appendingPathComponent("Trash") }
    private var trash: Trash { Trash(dataHome: dataHome, mounts: .only([])) }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("dossier-trash")
    }

    override func tearDown() {
        folder = nil
    }

    private func record(_ name: String, in trashFolder: URL? = nil) throws -> [String] {
        let url = (trashFolder ?? homeTrash).appendingPathComponent("info/\(name).trashinfo")
        return try XCTUnwrap(Inspect.text(url), "no record \(url.path)").components(separatedBy: "\n")
    }

    // MARK: The record

    func testTrashedFileGetsARecordAsTheSpecificationDescribes() throws {
        let file = try folder.write("work/notes.txt", "hello")
        let before = Date()
        let item = try trash.trash(file)
        let after = Date()

        XCTAssertFalse(Inspect.exists(file))
        XCTAssertEqual(Inspect.text(homeTrash.appendingPathComponent("files/notes.txt")), "hello")
        XCTAssertEqual(item.name, "notes.txt")
        XCTAssertEqual(item.originalPath, file.path)
        XCTAssertEqual(item.url.path, homeTrash.appendingPathComponent("files/notes.txt").path)
        XCTAssertTrue(item.trash.isHomeTrash)

        let lines = try record("notes.txt")
        XCTAssertEqual(lines.first, "[Trash Info]")
        XCTAssertEqual(lines.filter { $0.hasPrefix("Path=") }, ["Path=" + file.path])
        let date = try XCTUnwrap(lines.first { $0.hasPrefix("DeletionDate=") }).dropFirst("DeletionDate=".count)
        XCTAssertNotNil(date.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"#, options: .regularExpression), String(date))
        // Local time, no zone: the same text the C library makes for "now".
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        formatter.timeZone = .current
        let written = try XCTUnwrap(formatter.date(from: String(date)))
        // Whole seconds: between the second the call began in and the moment it returned.
        XCTAssertTrue(written >= before.addingTimeInterval(-1) && written <= after, "\(written) not in \(before)…\(after)")
        XCTAssertEqual(item.deletionDate, written)
    }

    func testRecordEscapesSpacesUnicodeAndPercentButNotSlashes() throws {
        let file = try folder.write("my work/50% off – café #1.txt", "x")
        try trash.trash(file)
        let path = try XCTUnwrap(try record("50% off – café #1.txt").first { $0.hasPrefix("Path=") })
        let folderPath = folder.url.path
        XCTAssertEqual(path, "Path=\(folderPath)/my%20work/50%25%20off%20%E2%80%93%20caf%C3%A9%20%231.txt")
        XCTAssertEqual(trash.contents().items.first?.originalPath, file.path)
    }

    func testCollidingNamesAreNumberedAndExistingRecordsAreNeverOverwritten() throws {
        var names: [String] = []
        for index in 1...3 {
            names.append(try trash.trash(try folder.write("work/a.txt", "\(index)")).name)
        }
        for _ in 1...2 {
            names.append(try trash.trash(try folder.write("work/archive.tar.gz", "gz")).name)
        }
        XCTAssertEqual(names, ["a.txt", "a.2.txt", "a.3.txt", "archive.tar.gz", "archive.2.tar.gz"])
        XCTAssertEqual(Inspect.text(homeTrash.appendingPathComponent("files/a.2.txt")), "2")

        // Another program's record for "b.txt" (its item still on the way): O_EXCL keeps it.
        let foreign = homeTrash.appendingPathComponent("info/b.txt.trashinfo")
        try Data("[Trash Info]\nPath=/elsewhere/b.txt\nDeletionDate=2020-01-01T00:00:00\n".utf8).write(to: foreign)
        XCTAssertEqual(try trash.trash(try folder.write("work/b.txt", "b")).name, "b.2.txt")
        XCTAssertEqual(Inspect.text(foreign), "[Trash Info]\nPath=/elsewhere/b.txt\nDeletionDate=2020-01-01T00:00:00\n")

        // A leftover item without a record is not replaced either.
        try Data("leftover".utf8).write(to: homeTrash.appendingPathComponent("files/c.txt"))
        XCTAssertEqual(try trash.trash(try folder.write("work/c.txt", "c")).name, "c.2.txt")
        XCTAssertEqual(Inspect.text(homeTrash.appendingPathComponent("files/c.txt")), "leftover")
        XCTAssertFalse(Inspect.exists(homeTrash.appendingPathComponent("info/c.txt.trashinfo")))
    }

    func testFoldersAndLinksAreTrashedAsThemselves() throws {
        let tree = try folder.write("work/Project/src/main.c", "int main;").deletingLastPathComponent().deletingLastPathComponent()
        let target = try folder.write("work/target.txt", "target")
        let link = folder.url.appendingPathComponent("work/link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.txt")

        let folderItem = try trash.trash(tree)
        let linkItem = try trash.trash(link)
        XCTAssertEqual(Inspect.text(folderItem.url.appendingPathComponent("src/main.c")), "int main;")
        XCTAssertEqual(Inspect.linkTarget(linkItem.url), "target.txt")
        XCTAssertEqual(Inspect.text(target), "target", "the link's target stays")

        // directorysizes: "SIZE MTIME NAME" for the trashed folder.
        let sizes = try XCTUnwrap(Inspect.text(homeTrash.appendingPathComponent("directorysizes")))
        let fields = sizes.split(separator: "\n").first?.split(separator: " ") ?? []
        XCTAssertEqual(fields.count, 3)
        XCTAssertEqual(fields.last, "Project")
        XCTAssertGreaterThan(Int(fields.first ?? "") ?? 0, 0)
        XCTAssertEqual(Int(fields.dropFirst().first ?? ""), Inspect.modified(folderItem.infoURL))
    }

    func testMissingItemsTheTrashAndItsContentsAreRefused() throws {
        XCTAssertThrowsError(try trash.trash(folder.url.appendingPathComponent("missing.txt"))) { error in
            XCTAssertEqual(error as? TrashError, .notFound(name: "missing.txt"))
            XCTAssertEqual("\(error)", "“missing.txt” could not be moved to the Trash: it does not exist")
        }
        let item = try trash.trash(try folder.write("work/a.txt", "a"))
        XCTAssertThrowsError(try trash.trash(item.url)) { error in
            XCTAssertEqual(error as? TrashError, .alreadyInTrash(name: "a.txt"))
        }
        XCTAssertThrowsError(try trash.trash(homeTrash)) { error in
            XCTAssertEqual(error as? TrashError, .containsTrash(name: "Trash"))
        }
        XCTAssertThrowsError(try trash.trash(dataHome)) { error in
            XCTAssertEqual(error as? TrashError, .containsTrash(name: "data"))
        }
        XCTAssertThrowsError(try trash.trash(URL(string: "sftp://host/file.txt")!)) { error in
            XCTAssertEqual(error as? TrashError, .notLocal(name: "file.txt"))
        }
    }

    func testADataHomeReachedThroughALinkStillKnowsItsOwnTrash() throws {
        let real = folder.url.appendingPathComponent("real-data")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let linked = folder.url.appendingPathComponent("linked-data")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: real.path)
        let throughLink = Trash(dataHome: linked, mounts: .only([]))
        let item = try throughLink.trash(try folder.write("work/a.txt", "a"))
        XCTAssertEqual(Inspect.text(real.appendingPathComponent("Trash/files/a.txt")), "a")
        XCTAssertThrowsError(try throughLink.trash(real.appendingPathComponent("Trash/files/a.txt"))) { error in
            XCTAssertEqual(error as? TrashError, .alreadyInTrash(name: "a.txt"))
        }
        XCTAssertEqual(throughLink.contents().items, [item])
    }

    func testItemsGIOTrashedAreListedAndRestored() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gio") else { throw XCTSkip("no /usr/bin/gio") }
        let file = try folder.write("work/by gio 50%.txt", "gio")
        let gio = Process()
        gio.executableURL = URL(fileURLWithPath: "/usr/bin/gio")
        gio.arguments = ["trash", file.path]
        gio.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": dataHome.path]) { $1 }
        try gio.run()
        gio.waitUntilExit()
        XCTAssertEqual(gio.terminationStatus, 0)

        // Our own record for an item of the same name says the same thing, byte for byte.
        let ours = try trash.trash(try folder.write("work/by gio 50%.txt", "ours"))
        XCTAssertEqual(ours.name, "by gio 50%.2.txt")
        XCTAssertEqual(try record("by gio 50%.txt").first { $0.hasPrefix("Path=") },
                       try record("by gio 50%.2.txt").first { $0.hasPrefix("Path=") })

        let listed = try XCTUnwrap(trash.contents().items.first { $0.name == "by gio 50%.txt" })
        XCTAssertEqual(listed.originalPath, file.path)
        XCTAssertLessThanOrEqual(abs(try XCTUnwrap(listed.deletionDate).timeIntervalSinceNow), 60)
        try trash.restore(listed)
        XCTAssertEqual(Inspect.text(file), "gio")
    }

    // MARK: Restore

    func testRestorePutsTheItemBackAndRemovesItsRecord() throws {
        let file = try folder.write("work/report.txt", "report")
        let item = try trash.trash(file)
        XCTAssertEqual(try trash.restore(item), file)
        XCTAssertEqual(Inspect.text(file), "report")
        XCTAssertFalse(Inspect.exists(item.url))
        XCTAssertFalse(Inspect.exists(item.infoURL))
        XCTAssertTrue(trash.contents().isEmpty)
        XCTAssertThrowsError(try trash.restore(item)) { error in
            XCTAssertEqual(error as? TrashError, .notInTrash(name: "report.txt"))
        }
    }

    func testRestoreRecreatesARemovedParentFolder() throws {
        let file = try folder.write("work/deep/er/report.txt", "report")
        let item = try trash.trash(file)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("work/deep"))
        try trash.restore(item)
        XCTAssertEqual(Inspect.text(file), "report")
    }

    func testRestoreNeverReplacesWhatIsNowThere() throws {
        let file = try folder.write("work/report.txt", "old")
        let item = try trash.trash(file)
        try folder.write("work/report.txt", "new")
        XCTAssertThrowsError(try trash.restore(item)) { error in
            XCTAssertEqual(error as? TrashError, .restoreConflict(name: "report.txt", folder: file.deletingLastPathComponent().path))
            XCTAssertEqual(
                "\(error)",
                "“report.txt” could not be restored: an item with that name already exists in “\(file.deletingLastPathComponent().path)”. Rename or move it, then try again.")
        }
        XCTAssertEqual(Inspect.text(file), "new")
        XCTAssertEqual(Inspect.text(item.url), "old")
        XCTAssertEqual(trash.contents().items, [item])
    }

    func testRestoreByNameAsListedAndAmbiguousNamesAreRefused() throws {
        let first = try trash.trash(try folder.write("one/same.txt", "1"))
        let second = try trash.trash(try folder.write("two/same.txt", "2"))
        XCTAssertEqual([first.name, second.name], ["same.txt", "same.2.txt"])
        // The exact name in the Trash wins over the original name both share.
        XCTAssertEqual(try trash.item(named: "same.2.txt"), second)
        XCTAssertEqual(try trash.item(named: "same.txt"), first)
        XCTAssertEqual(try trash.item(named: second.originalPath), second)

        // A second trash holding "same.txt" too: now the name is ambiguous.
        let volume = folder.url.appendingPathComponent("volume")
        let two = Trash(dataHome: dataHome, mounts: .simulated([volume]))
        let third = try two.trash(try folder.write("volume/same.txt", "3"))
        XCTAssertThrowsError(try two.item(named: "same.txt")) { error in
            guard case .ambiguous(_, let candidates)? = error as? TrashError else { return XCTFail("\(error)") }
            XCTAssertEqual(Set(candidates), [first.url.path, third.url.path])
        }
        XCTAssertEqual(try two.restore(named: third.url.path).restoredTo.path, third.originalPath)
        XCTAssertThrowsError(try two.item(named: "nothing.txt")) { error in
            XCTAssertEqual(error as? TrashError, .noSuchItem(name: "nothing.txt"))
        }
    }

    // MARK: Listing

    func testListingReportsDamagedAndOrphanedRecordsWithoutFailing() throws {
        let good = try trash.trash(try folder.write("work/good.txt", "good"))
        let files = homeTrash.appendingPathComponent("files")
        let info = homeTrash.appendingPathComponent("info")
        let damaged = [
            "nogroup": "Path=/x/nogroup\nDeletionDate=2020-01-01T00:00:00\n",
            "nopath": "[Trash Info]\nDeletionDate=2020-01-01T00:00:00\n",
            "badescape": "[Trash Info]\nPath=/x/%zz\nDeletionDate=2020-01-01T00:00:00\n",
            "binary": "\u{0}\u{1}\u{2}",
        ]
        for (name, text) in damaged {
            try Data(text.utf8).write(to: files.appendingPathComponent(name))
            try Data(text.utf8).write(to: info.appendingPathComponent(name + ".trashinfo"))
        }
        // A record with a bad date still lists (the date is unknown), and a relative path in
        // the home trash is read from the data home.
        try Data("x".utf8).write(to: files.appendingPathComponent("undated"))
        try Data("[Trash Info]\nPath=rel/undated\nDeletionDate=yesterday\n".utf8)
            .write(to: info.appendingPathComponent("undated.trashinfo"))
        try Data("[Trash Info]\nPath=/x/gone\nDeletionDate=2020-01-01T00:00:00\n".utf8)
            .write(to: info.appendingPathComponent("gone.trashinfo"))
        try Data("stray".utf8).write(to: files.appendingPathComponent("stray"))

        let contents = trash.contents()
        XCTAssertEqual(contents.items.map(\.name), ["good.txt", "undated"])
        XCTAssertEqual(contents.items.first, good)
        let undated = try XCTUnwrap(contents.items.last)
        XCTAssertNil(undated.deletionDate)
        XCTAssertEqual(undated.originalPath, dataHome.appendingPathComponent("rel/undated").path)

        var malformed: Set<String> = []
        var missingItems: [String] = []
        var missingRecords: [String] = []
        for problem in contents.problems {
            switch problem {
            case .malformedInfo(let url, _): malformed.insert(url.lastPathComponent)
            case .missingItem(let url): missingItems.append(url.lastPathComponent)
            case .missingInfo(let url): missingRecords.append(url.lastPathComponent)
            case .unreadable(let url, let reason): XCTFail("\(url.path): \(reason)")
            }
            XCTAssertFalse(problem.description.isEmpty)
        }
        XCTAssertEqual(malformed, Set(damaged.keys.map { $0 + ".trashinfo" }))
        XCTAssertEqual(missingItems, ["gone.trashinfo"])
        XCTAssertEqual(missingRecords, ["stray"])
    }

    // MARK: Delete and empty

    func testDeleteRemovesTheItemAndItsRecord() throws {
        let keep = try trash.trash(try folder.write("work/keep.txt", "keep"))
        let item = try trash.trash(try folder.write("work/Folder/inner/file.txt", "x").deletingLastPathComponent().deletingLastPathComponent())
        try trash.delete(item)
        XCTAssertFalse(Inspect.exists(item.url))
        XCTAssertFalse(Inspect.exists(item.infoURL))
        XCTAssertEqual(trash.contents().items, [keep])
        XCTAssertEqual(Inspect.text(homeTrash.appendingPathComponent("directorysizes")) ?? "", "")
    }

    func testDeletingNeverFollowsLinksOutOfTheTrash() throws {
        let outside = try folder.write("precious/data.txt", "keep me")
        let tree = try folder.write("work/Tree/file.txt", "x").deletingLastPathComponent()
        try FileManager.default.createSymbolicLink(
            atPath: tree.appendingPathComponent("to-precious").path, withDestinationPath: outside.deletingLastPathComponent().path)
        try FileManager.default.createSymbolicLink(
            atPath: tree.appendingPathComponent("to-file").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("loop").path, withDestinationPath: "loop")
        let item = try trash.trash(tree)
        try trash.delete(item)
        XCTAssertFalse(Inspect.exists(item.url))
        XCTAssertEqual(Inspect.text(outside), "keep me")
    }

    func testDeletingAReadOnlyFolderInTheTrash() throws {
        let tree = try folder.write("work/Cache/pkg/file.go", "package x").deletingLastPathComponent().deletingLastPathComponent()
        chmod(tree.appendingPathComponent("pkg").path, 0o555)
        chmod(tree.path, 0o555)
        let item = try trash.trash(tree)
        try trash.delete(item)
        XCTAssertFalse(Inspect.exists(item.url))
    }

    func testEmptyDeletesEverythingInEveryTrash() throws {
        let volume = folder.url.appendingPathComponent("volume")
        let both = Trash(dataHome: dataHome, mounts: .simulated([volume]))
        try both.trash(try folder.write("work/a.txt", "a"))
        try both.trash(try folder.write("work/Folder/b.txt", "b").deletingLastPathComponent())
        let elsewhere = try both.trash(try folder.write("volume/c.txt", "c"))
        XCTAssertFalse(elsewhere.trash.isHomeTrash)
        XCTAssertEqual(both.contents().items.count, 3)
        let progress = Progress(totalUnitCount: 0)
        XCTAssertEqual(try both.empty(progress: progress), 3)
        XCTAssertTrue(both.contents().isEmpty)
        XCTAssertTrue(both.contents().problems.isEmpty)
        XCTAssertEqual(progress.completedUnitCount, progress.totalUnitCount)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: homeTrash.appendingPathComponent("files").path), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: homeTrash.appendingPathComponent("info").path), [])
        XCTAssertEqual(try both.empty(), 0)
    }
}
