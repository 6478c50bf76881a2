import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// "All files tagged X", built by scanning and kept current through folder presenters.
final class TagIndexTests: XCTestCase {
    private func setfattr(_ value: String, _ url: URL) throws {
        XCTAssertEqual(try OtherProgram.run("/usr/bin/setfattr", ["-n", "user.xdg.tags", "-v", value, url.path]).status, 0)
    }

    private func paths(_ urls: [URL]) -> [String] { urls.map(\.path) }

    func testScanFindsTaggedFilesInSubfoldersButNotHiddenOnes() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.resolvingSymlinksInPath()
        try setfattr("work", try folder.write("a.txt", "a"))
        try setfattr("home,work", try folder.write("sub/deeper/b.txt", "b"))
        try setfattr("work", try folder.write(".hidden/c.txt", "c"))
        try folder.write("untagged.txt", "u")
        let index = TagIndex(folders: [folder.url], store: TagStore(fallbackURL: nil))
        index.scan()
        XCTAssertEqual(paths(index.files(taggedWith: "work")), [root.path + "/a.txt", root.path + "/sub/deeper/b.txt"])
        XCTAssertEqual(index.tagCounts, ["work": 2, "home": 1])
    }

    func testIndexFollowsTagsWrittenMovesAndDeletions() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.resolvingSymlinksInPath().path
        let report = try folder.write("report.txt", "r")
        try setfattr("urgent", report)
        let store = TagStore(fallbackURL: nil)
        let index = TagIndex(folders: [folder.url], store: store)
        let scanned = expectation(description: "scanned")
        index.start { scanned.fulfill() }
        defer { index.stop() }
        wait(for: [scanned], timeout: 60)
        XCTAssertEqual(paths(index.files(taggedWith: "urgent")), [root + "/report.txt"])

        // Another program tags a file: inotify's IN_ATTRIB.
        let memo = try folder.write("memo.txt", "m")
        try setfattr("urgent", memo)
        XCTAssertTrue(eventually { index.files(taggedWith: "urgent").count == 2 })

        // Dossier's own write is reported before it returns (a coordinated write).
        try store.remove(["urgent"], from: memo)
        XCTAssertEqual(paths(index.files(taggedWith: "urgent")), [root + "/report.txt"])

        // A move within the folders, into a new subfolder, and out of them.
        try FileManager.default.createDirectory(atPath: root + "/done", withIntermediateDirectories: true)
        XCTAssertEqual(rename(root + "/report.txt", root + "/done/report.txt"), 0)
        XCTAssertTrue(eventually { self.paths(index.files(taggedWith: "urgent")) == [root + "/done/report.txt"] })
        let elsewhere = try TemporaryFolder()
        XCTAssertEqual(rename(root + "/done", elsewhere.url.path + "/done"), 0)
        XCTAssertTrue(eventually { index.files(taggedWith: "urgent").isEmpty })

        // A new folder with a tagged file in it, then the file deleted.
        let fresh = try folder.write("inbox/new.txt", "n")
        try setfattr("urgent", fresh)
        XCTAssertTrue(eventually { self.paths(index.files(taggedWith: "urgent")) == [root + "/inbox/new.txt"] })
        try FileManager.default.removeItem(at: fresh)
        XCTAssertTrue(eventually { index.files(taggedWith: "urgent").isEmpty })
    }
}
