import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// DirectoryQuery over real folders, changed by real processes (`mv`, `cp`, `sed -i`, …).
final class DirectoryQueryTests: XCTestCase {
    // MARK: Gathering

    func testBatchesArriveAndTogetherEqualTheFolder() throws {
        let folder = try TemporaryFolder("dossier-query")
        let names = (0..<5000).map { "file\($0).\(["txt", "pdf", "png"][$0 % 3])" }
        createFiles(names, in: folder.url)
        let recorder = QueryRecorder(folder.url)
        recorder.waitUntilGathered()
        let record = recorder.snapshot
        XCTAssertGreaterThan(record.batches.count, 1)
        for batch in record.batches {
            XCTAssertEqual(batch.map(\.name), batch.map(\.name).sorted(by: NaturalSort.areInIncreasingOrder))
        }
        let batched = record.batches.flatMap { $0 }.map(\.name)
        XCTAssertEqual(batched.count, names.count)
        XCTAssertEqual(Set(batched), Set(names))
        XCTAssertEqual(record.items.map(\.name), names.sorted(by: NaturalSort.areInIncreasingOrder))
        XCTAssertEqual(record.items.first?.name, "file0.txt")
        XCTAssertEqual(record.items.first?.type, .plainText)
        XCTAssertEqual(record.items.first { $0.name == "file1.pdf" }?.type, .pdf)
    }

    func testItemsDescribeWhatIsOnDisk() throws {
        let folder = try TemporaryFolder("dossier-query")
        try folder.write("notes.txt", "hello")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Pictures"), withIntermediateDirectories: false)
        XCTAssertEqual(symlink("notes.txt", folder.url.appendingPathComponent("link.txt").path), 0)
        XCTAssertEqual(symlink("missing", folder.url.appendingPathComponent("broken").path), 0)
        let date = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: folder.url.appendingPathComponent("notes.txt").path)

        let items = try DirectoryQuery.gather(folder: folder.url)
        XCTAssertEqual(items.map(\.name), ["Pictures", "broken", "link.txt", "notes.txt"])
        let notes = try XCTUnwrap(items.last)
        XCTAssertEqual(notes.size, 5)
        XCTAssertEqual(notes.modified, date)
        XCTAssertEqual(notes.type, .plainText)
        XCTAssertFalse(notes.isDirectory || notes.isSymlink || notes.isHidden)
        XCTAssertEqual(notes.url, folder.url.appendingPathComponent("notes.txt").standardizedFileURL)
        XCTAssertEqual(items[0].type, .folder)
        XCTAssertTrue(items[0].isDirectory)
        XCTAssertTrue(items[2].isSymlink)
        XCTAssertEqual(items[2].size, 5)  // the target's
        XCTAssertEqual(items[1].type, .symbolicLink)
        XCTAssertTrue(items[1].isSymlink)
    }

    func testNamesEqualAsSwiftStringsAreStillTwoItems() throws {
        let folder = try TemporaryFolder("dossier-query")
        createFiles(["caf\u{E9}.txt", "cafe\u{301}.txt"], in: folder.url)  // composed and decomposed é
        let recorder = QueryRecorder(folder.url)
        recorder.waitUntilGathered()
        XCTAssertEqual(recorder.items.count, 2)
        try shell("rm caf\u{E9}.txt", in: folder.url)
        recorder.wait { $0.items.count == 1 }
        XCTAssertEqual(recorder.items.first.map { Array($0.name.utf8) }, Array("cafe\u{301}.txt".utf8))
    }

    func testSettledQueryMatchesFindOnAFolderThatChangedWhileGathering() throws {
        let folder = try TemporaryFolder("dossier-query-churn")
        createFiles((0..<20_000).map { "seed\($0).dat" }, in: folder.url)
        let recorder = QueryRecorder(folder.url, options: QueryOptions(showsHidden: true))
        let churning = DispatchGroup()
        let url = folder.url
        churning.enter()
        Thread.detachNewThread {
            // Creates, deletes and renames until well after the gathering finished. While the
            // query gathers, the changes keep pace with it: at most one per two items it has
            // delivered, after a first thousand. Unpaced, a slow build (a sanitizer's) made new
            // files faster than the query read them, and the gathering chased them for minutes.
            var step = 0
            var after = 0
            while after < 300 {
                let (isGathered, delivered) = recorder.read { record in
                    (record.reloads.contains(.gathered) || record.failure != nil, record.batches.reduce(0) { $0 + $1.count })
                }
                if !isGathered && step >= 1_000 + delivered / 2 {
                    usleep(1_000)
                    continue
                }
                createFiles(["new\(step).txt"], in: url)
                if step % 2 == 0 { unlink(url.appendingPathComponent("seed\(step * 7 % 20_000).dat").path) }
                if step % 3 == 0 {
                    rename(url.appendingPathComponent("new\(step).txt").path, url.appendingPathComponent("moved\(step).txt").path)
                }
                step += 1
                if isGathered { after += 1 }
            }
            churning.leave()
        }
        // Deadlines for a sanitizer's build on a busy machine; a normal build takes seconds.
        recorder.waitUntilGathered(timeout: 180)
        XCTAssertEqual(churning.wait(timeout: .now() + 60), .success)

        // Once the changes stop, the query settles on exactly what find sees.
        let find = try output(of: "/usr/bin/find", [folder.url.path, "-maxdepth", "1", "-mindepth", "1", "-printf", "%f\\n"])
        let found = Set(find.split(separator: "\n").map(String.init))
        recorder.wait(timeout: 180) { record in
            record.items.count == found.count && Set(record.items.map(\.name)) == found
        }
        let listed = Set(recorder.names)
        XCTAssertEqual(recorder.items.count, listed.count, "no duplicates")
        XCTAssertEqual(listed.subtracting(found).sorted().prefix(10), [], "listed but gone")
        XCTAssertEqual(found.subtracting(listed).sorted().prefix(10), [], "there but not listed")
        recorder.synchronize()
        XCTAssertEqual(recorder.items, try DirectoryQuery.gather(folder: folder.url, options: QueryOptions(showsHidden: true)))
    }

    // MARK: Sorting

    func testEachSortOrder() throws {
        let folder = try sortFixture()
        func names(_ options: QueryOptions) throws -> [String] {
            try DirectoryQuery.gather(folder: folder.url, options: options).map(\.name)
        }
        XCTAssertEqual(try names(QueryOptions()), ["Adir", "zdir", "a2.png", "a10.pdf", "b.txt"])
        XCTAssertEqual(try names(QueryOptions(ascending: false)), ["zdir", "Adir", "b.txt", "a10.pdf", "a2.png"])
        XCTAssertEqual(try names(QueryOptions(sortKey: .dateModified)), ["zdir", "Adir", "b.txt", "a2.png", "a10.pdf"])
        XCTAssertEqual(try names(QueryOptions(sortKey: .dateModified, ascending: false)), ["Adir", "zdir", "a10.pdf", "a2.png", "b.txt"])
        XCTAssertEqual(try names(QueryOptions(sortKey: .size)), ["Adir", "zdir", "a10.pdf", "b.txt", "a2.png"])
        XCTAssertEqual(try names(QueryOptions(sortKey: .size, ascending: false)), ["zdir", "Adir", "a2.png", "b.txt", "a10.pdf"])
        let byKind = ["a2.png", "a10.pdf", "b.txt"].sorted {
            NaturalSort.areInIncreasingOrder(DocumentType(fileName: $0).localizedDescription, DocumentType(fileName: $1).localizedDescription)
        }
        XCTAssertEqual(try names(QueryOptions(sortKey: .kind)), ["Adir", "zdir"] + byKind)
    }

    func testFoldersFirstCanBeTurnedOff() throws {
        let folder = try sortFixture()
        let mixed = try DirectoryQuery.gather(folder: folder.url, options: QueryOptions(foldersFirst: false)).map(\.name)
        XCTAssertEqual(mixed, ["a2.png", "a10.pdf", "Adir", "b.txt", "zdir"])
        let bySize = try DirectoryQuery.gather(folder: folder.url, options: QueryOptions(sortKey: .size, foldersFirst: false))
        XCTAssertEqual(bySize.map(\.name), ["Adir", "zdir", "a10.pdf", "b.txt", "a2.png"])  // folders count as 0 bytes
    }

    func testChangingTheSortDeliversAReloadInTheNewOrder() throws {
        let folder = try sortFixture()
        let recorder = QueryRecorder(folder.url)
        recorder.waitUntilGathered()
        recorder.query.setOptions(QueryOptions(sortKey: .size, ascending: false))
        recorder.wait { $0.reloads.contains(.optionsChanged) }
        XCTAssertEqual(recorder.names, ["zdir", "Adir", "a2.png", "b.txt", "a10.pdf"])
    }

    // MARK: Hidden files

    func testHiddenFilesAndTheDotHiddenFile() throws {
        let folder = try TemporaryFolder("dossier-query")
        for name in [".dotfile", "listed.txt", "shown.txt", "backup.txt"] { try folder.write(name, "x") }
        try folder.write(".hidden", "listed.txt\nbackup.txt\n")
        let recorder = QueryRecorder(folder.url)
        recorder.waitUntilGathered()
        XCTAssertEqual(recorder.names, ["shown.txt"])

        // Taking a name out of .hidden shows the file.
        try shell("printf 'backup.txt\\n' > .hidden", in: folder.url)
        recorder.wait { $0.items.map(\.name) == ["listed.txt", "shown.txt"] }
        XCTAssertEqual(recorder.snapshot.insertedNames, ["listed.txt"])

        recorder.query.setOptions(QueryOptions(showsHidden: true))
        recorder.wait { $0.reloads.contains(.optionsChanged) }
        XCTAssertEqual(recorder.names, [".dotfile", ".hidden", "backup.txt", "listed.txt", "shown.txt"])
        XCTAssertEqual(recorder.items.filter(\.isHidden).map(\.name), [".dotfile", ".hidden", "backup.txt"])
    }

    // MARK: Errors

    func testMissingFolderAndFileAreErrors() throws {
        let folder = try TemporaryFolder("dossier-query")
        let missing = QueryRecorder(folder.url.appendingPathComponent("nowhere"))
        missing.wait { $0.failure != nil }
        XCTAssertEqual(missing.snapshot.failure, .notFound(name: "nowhere"))
        XCTAssertEqual(missing.snapshot.failure?.description, "'nowhere' does not exist")

        let file = try folder.write("plain.txt", "x")
        XCTAssertThrowsError(try DirectoryQuery.gather(folder: file)) { error in
            XCTAssertEqual(error as? DirectoryQueryError, .notAFolder(name: "plain.txt"))
            XCTAssertEqual("\(error)", "'plain.txt' is not a folder")
        }
    }

    func testUnmountedRemoteLocationIsAClearError() throws {
        // Listed through GIO: with GVFS in the session, "not mounted"; without it (a chroot of
        // make test-distros), GIO's own "not supported". Either way an error, at once.
        let remote = try XCTUnwrap(URL(string: "sftp://example.org/home/me"))
        XCTAssertThrowsError(try DirectoryQuery.gather(folder: remote)) { error in
            switch error as? DirectoryQueryError {
            case .notMounted(let location): XCTAssertEqual(location, "sftp://example.org/home/me")
            case .failed(let name, _): XCTAssertEqual(name, "me")
            default: XCTFail("unexpected \(error)")
            }
        }
    }

    func testUnreadableFolderIsPermissionDenied() throws {
        try XCTSkipIf(getuid() == 0, "root reads every folder; LsCommandTests checks this as another user")
        let folder = try TemporaryFolder("dossier-query")
        let closed = folder.url.appendingPathComponent("closed")
        try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: false, attributes: [.posixPermissions: 0])
        defer { chmod(closed.path, 0o700) }
        XCTAssertThrowsError(try DirectoryQuery.gather(folder: closed)) { error in
            XCTAssertEqual(error as? DirectoryQueryError, .permissionDenied(name: "closed"))
        }
    }

    func testDeletingTheFolderEndsTheQuery() throws {
        let parent = try TemporaryFolder("dossier-query")
        let folder = parent.url.appendingPathComponent("doomed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        createFiles(["a", "b"], in: folder)
        let recorder = QueryRecorder(folder)
        recorder.waitUntilGathered()
        try shell("rm -rf doomed", in: parent.url)
        recorder.wait { $0.failure != nil }
        XCTAssertEqual(recorder.snapshot.failure, .folderGone(name: "doomed"))
        XCTAssertEqual(recorder.snapshot.failure?.description, "The folder 'doomed' was deleted or moved away")
    }

    // MARK: Recursive, stream, main actor

    func testRecursiveQueryWithAPredicateFollowsTheTree() throws {
        let folder = try TemporaryFolder("dossier-query")
        for path in ["top.pdf", "top.txt", "docs/report.pdf", "docs/readme.txt", "docs/old/notes.pdf", ".git/objects/x.pdf"] {
            try folder.write(path, "x")
        }
        let options = QueryOptions(recursive: true, predicate: QueryPredicate(types: [.pdf]))
        let recorder = QueryRecorder(folder.url, options: options)
        recorder.waitUntilGathered()
        XCTAssertEqual(recorder.items.map(\.relativePath), ["docs/old/notes.pdf", "docs/report.pdf", "top.pdf"])

        try shell("mkdir -p new/deep && printf x > new/deep/found.pdf && mv docs archive", in: folder.url)
        recorder.wait { Set($0.items.map(\.relativePath)) == ["archive/old/notes.pdf", "archive/report.pdf", "new/deep/found.pdf", "top.pdf"] }
        recorder.synchronize()
        try assertMatchesAFreshGathering(recorder, folder, options: options)

        let search = try DirectoryQuery.gather(folder: folder.url, options: QueryOptions(recursive: true, predicate: QueryPredicate(nameContains: "REPORT")))
        XCTAssertEqual(search.map(\.relativePath), ["archive/report.pdf"])
    }

    func testEventsAsAnAsyncStream() async throws {
        let folder = try TemporaryFolder("dossier-query")
        createFiles(["b", "a", "c"], in: folder.url)
        let query = DirectoryQuery(folder: folder.url)
        var gathered: [String] = []
        for await event in query.events() {
            if case .reload(let items, .gathered) = event {
                gathered = items.map(\.name)
                break
            }
        }
        XCTAssertEqual(gathered, ["a", "b", "c"])
    }

    func testHandlerOnTheMainActor() throws {
        let folder = try TemporaryFolder("dossier-query")
        createFiles(["one"], in: folder.url)
        let gathered = expectation(description: "gathered on the main actor")
        let query = DirectoryQuery(folder: folder.url)
        query.start(onMainActor: { event in
            XCTAssertTrue(Thread.isMainThread)
            if case .reload = event { gathered.fulfill() }
        })
        wait(for: [gathered], timeout: 60)
        query.stop()
    }

    // MARK: Fixtures

    /// Folders Adir and zdir, files a2.png (2000 bytes, 2002), a10.pdf (10 bytes, 2003), b.txt (300 bytes, 2001).
    private func sortFixture() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("dossier-query-sort")
        let files: [(String, Int, Int)] = [("a2.png", 2000, 2002), ("a10.pdf", 10, 2003), ("b.txt", 300, 2001)]
        for (name, size, year) in files {
            let url = try folder.write(name, String(repeating: "x", count: size))
            try setYear(year, of: url)
        }
        for (name, year) in [("Adir", 2005), ("zdir", 2004)] {
            let url = folder.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try setYear(year, of: url)
        }
        return folder
    }

    private func setYear(_ year: Int, of url: URL) throws {
        let date = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: .gmt, year: year, month: 6, day: 1).date
        try FileManager.default.setAttributes([.modificationDate: try XCTUnwrap(date)], ofItemAtPath: url.path)
    }
}
