import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// Bookmarks made and resolved in this process, with real files moved by `rename(2)`.
final class BookmarkTests: XCTestCase {
    /// For searches that must find the item: they return as soon as they do, so only a failure
    /// waits this long (a sanitizer's build walking a busy /tmp is slow).
    private let findingBudget: Duration = .seconds(60)

    private func canonical(_ url: URL) -> String { url.resolvingSymlinksInPath().path }

    private func move(_ from: URL, _ to: URL) throws {
        try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
        XCTAssertEqual(rename(from.path, to.path), 0, String(cString: strerror(errno)))
    }

    func testUnmovedFileResolvesToItsPathAndIsNotStale() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("notes/plan.txt", "plan")
        let bookmark = try Bookmark(url: file)
        XCTAssertEqual(bookmark.path, canonical(file))
        XCTAssertEqual(bookmark.kind, .file)
        XCTAssertEqual(bookmark.size, 4)
        let resolution = try bookmark.resolve(options: .init(budget: findingBudget))
        XCTAssertEqual(resolution.path, canonical(file))
        XCTAssertFalse(resolution.isStale)
    }

    func testRenamedFileIsFoundAndStale() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("notes/plan.txt", "plan")
        let bookmark = try Bookmark(url: file)
        let renamed = folder.url.appendingPathComponent("notes/plan (final).txt")
        try move(file, renamed)
        let resolution = try bookmark.resolve(options: .init(budget: findingBudget))
        XCTAssertEqual(resolution.path, canonical(renamed))
        XCTAssertTrue(resolution.isStale)
    }

    func testFileMovedToAnotherFolderIsFound() throws {
        let folder = try TemporaryFolder()
        try folder.write("a/other.txt", "x")
        try folder.write("b/c/other.txt", "y")
        let file = try folder.write("a/report.txt", "report")
        let bookmark = try Bookmark(url: file)
        let moved = folder.url.appendingPathComponent("b/c/d/report-v2.txt")
        try move(file, moved)
        let resolution = try bookmark.resolve(options: .init(budget: findingBudget))
        XCTAssertEqual(resolution.path, canonical(moved))
        XCTAssertTrue(resolution.isStale)
    }

    func testAtomicSaveAtTheSamePathResolvesThereAsStale() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("doc.txt", "first")
        let bookmark = try Bookmark(url: file)
        try SafeSave.write(Data("second, saved by rename".utf8), to: file)
        XCTAssertNotEqual(FileIdentity(path: file.path)?.inode, bookmark.inode, "the save replaced the inode")
        let resolution = try bookmark.resolve(options: .init(budget: findingBudget))
        XCTAssertEqual(resolution.path, canonical(file))
        XCTAssertTrue(resolution.isStale)
        let fresh = try Bookmark(url: resolution.url)
        XCTAssertFalse(try fresh.resolve().isStale)
    }

    func testMovedParentFolderIsFollowed() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("projects/alpha/src/main.txt", "main")
        let bookmark = try Bookmark(url: file)
        XCTAssertEqual(bookmark.folderInodes.count, bookmark.path.split(separator: "/").count - 1)
        let parent = folder.url.appendingPathComponent("projects/alpha")
        let archived = folder.url.appendingPathComponent("archive/2024/alpha-old")
        try move(parent, archived)
        let resolution = try bookmark.resolve(options: .init(budget: findingBudget))
        XCTAssertEqual(resolution.path, canonical(archived.appendingPathComponent("src/main.txt")))
        XCTAssertTrue(resolution.isStale)
    }

    func testFolderBookmarkFollowsARename() throws {
        let folder = try TemporaryFolder()
        try folder.write("photos/2023/a.jpg", "jpg")
        let photos = folder.url.appendingPathComponent("photos/2023")
        let bookmark = try Bookmark(url: photos)
        XCTAssertEqual(bookmark.kind, .folder)
        let renamed = folder.url.appendingPathComponent("photos/2023 holidays")
        try move(photos, renamed)
        XCTAssertEqual(try bookmark.resolve(options: .init(budget: findingBudget)).path, canonical(renamed))
    }

    func testSearchReturnsTheRealPathNotOneThroughASymbolicLink() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("inbox/letter.txt", "dear")
        try folder.write("filed/2024/keep.txt", "x")
        XCTAssertEqual(symlink(folder.url.appendingPathComponent("filed/2024").path,
                               folder.url.appendingPathComponent("inbox/shortcut").path), 0)
        let bookmark = try Bookmark(url: file)
        let moved = folder.url.appendingPathComponent("filed/2024/letter.txt")
        try move(file, moved)
        XCTAssertEqual(try bookmark.resolve(options: .init(budget: findingBudget)).path, canonical(moved))
    }

    func testDeletedFileIsReportedNotFound() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("gone.txt", "bye")
        let bookmark = try Bookmark(url: file)
        try FileManager.default.removeItem(at: file)
        XCTAssertThrowsError(try bookmark.resolve(options: .init(budget: .milliseconds(50)))) { error in
            XCTAssertEqual(error as? BookmarkError, .notFound(name: "gone.txt", lastPath: canonical(file)))
            XCTAssertTrue("\(error)".contains("'gone.txt' could not be found"), "\(error)")
        }
    }

    func testAZeroBudgetChecksThePathOnly() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a/f.txt", "f")
        let bookmark = try Bookmark(url: file)
        XCTAssertFalse(try bookmark.resolve(options: .init(budget: .zero)).isStale)
        try move(file, folder.url.appendingPathComponent("a/g.txt"))
        XCTAssertThrowsError(try bookmark.resolve(options: .init(budget: .zero)))
    }

    func testBookmarkToAMissingFileCannotBeMade() throws {
        let folder = try TemporaryFolder()
        XCTAssertThrowsError(try Bookmark(url: folder.url.appendingPathComponent("nothing.txt"))) { error in
            guard case .cannotCreate(let name, _) = error as? BookmarkError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "nothing.txt")
        }
        XCTAssertThrowsError(try Bookmark(url: URL(string: "sftp://host/file.txt")!)) { error in
            XCTAssertEqual(error as? BookmarkError, .notLocal(location: "sftp://host/file.txt"))
        }
    }

    func testUserFoldersAreSearchedBeforeTheWholeVolume() throws {
        // A document filed away into ~/Documents: found through the user folders, with the
        // home folder itself far from the document's old folder.
        let home = try TemporaryFolder("dossier-home")
        let elsewhere = try TemporaryFolder("dossier-elsewhere")
        try home.write(".config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/Papers\"\nXDG_MUSIC_DIR=\"$HOME/\"\n")
        try home.write("Papers/readme.txt", "x")
        let file = try elsewhere.write("deep/down/here/taxes.txt", "taxes")
        let bookmark = try Bookmark(url: file)
        let filed = home.url.appendingPathComponent("Papers/taxes.txt")
        try move(file, filed)
        let directories = UserDirectories(environment: ["HOME": home.url.path])
        XCTAssertEqual(directories.userFolders.map(\.path), [home.url.appendingPathComponent("Papers").path])
        let resolution = try bookmark.resolve(options: .init(budget: findingBudget, userDirectories: directories))
        XCTAssertEqual(resolution.path, canonical(filed))
    }
}
