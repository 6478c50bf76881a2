import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// The GIO path of the file operations (what remote locations use), run on local files
/// through GIO's own calls: copies that take their name only when whole, cancelling, moves,
/// deletes. The same code against real servers is in `RemoteLocationTests`.
final class GIOTransferTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("dossier-gio")
    }

    override func tearDown() {
        folder = nil
    }

    private func url(_ name: String, isFolder: Bool = false) -> URL {
        folder.url.appendingPathComponent(name, isDirectory: isFolder)
    }

    private func names(in url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    func testCopyOfAFileArrivesWholeUnderItsNameWithNothingElseLeft() throws {
        let source = try folder.write("report.txt", String(repeating: "line\n", count: 10_000))
        try FileManager.default.createDirectory(at: url("to"), withIntermediateDirectories: false)
        let progress = Progress(totalUnitCount: 0)
        try GIOTransfer(kind: .copy, progress: progress).copy(source, to: url("to/report.txt"))
        XCTAssertEqual(try Data(contentsOf: url("to/report.txt")), try Data(contentsOf: source))
        XCTAssertEqual(names(in: url("to")), ["report.txt"], "no part file is left behind")
        XCTAssertEqual(progress.completedUnitCount, progress.totalUnitCount)
        XCTAssertEqual(progress.totalUnitCount, 50_001, "one unit a byte and one for the item")
    }

    func testCopyOfAFolderCopiesWhatItHolds() throws {
        try FileManager.default.createDirectory(at: url("tree/inner", isFolder: true), withIntermediateDirectories: true)
        _ = try folder.write("tree/a.txt", "a")
        _ = try folder.write("tree/inner/b.txt", "bb")
        try GIOTransfer(kind: .copy, progress: nil).copy(url("tree", isFolder: true), to: url("copy", isFolder: true))
        XCTAssertEqual(names(in: url("copy")), ["a.txt", "inner"])
        XCTAssertEqual(try String(contentsOf: url("copy/inner/b.txt"), encoding: .utf8), "bb")
        XCTAssertEqual(names(in: folder.url), ["copy", "tree"])
    }

    func testCancelledLargeCopyLeavesNothingUnderAnyName() throws {
        let source = url("large.bin")
        XCTAssertTrue(FileManager.default.createFile(atPath: source.path, contents: nil))
        let handle = try FileHandle(forWritingTo: source)
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        try FileManager.default.createDirectory(at: url("to"), withIntermediateDirectories: false)
        let progress = CancellingProgress(after: 1)
        XCTAssertThrowsError(try GIOTransfer(kind: .copy, progress: progress).copy(source, to: url("to/large.bin"))) { error in
            XCTAssertEqual(error as? FileOperationError, .cancelled(.copy, name: "large.bin"))
        }
        XCTAssertEqual(names(in: url("to")), [], "neither the whole name nor a part is left")
    }

    func testCopyNeverReplacesAnItem() throws {
        let source = try folder.write("a.txt", "new")
        let existing = try folder.write("b.txt", "old")
        XCTAssertThrowsError(try GIOTransfer(kind: .copy, progress: nil).copy(source, to: existing)) { error in
            XCTAssertEqual(error as? FileOperationError, .alreadyExists(.copy, name: "a.txt", existing: "b.txt", isFolder: false))
        }
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "old")
    }

    func testFolderCannotBeCopiedIntoItself() throws {
        try FileManager.default.createDirectory(at: url("tree"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try GIOTransfer(kind: .copy, progress: nil).copy(url("tree", isFolder: true), to: url("tree/tree"))) {
            XCTAssertEqual($0 as? FileOperationError, .intoItself(.copy, name: "tree"))
        }
    }

    func testMoveAndDeleteThroughGIO() throws {
        try FileManager.default.createDirectory(at: url("tree/inner"), withIntermediateDirectories: true)
        _ = try folder.write("tree/inner/b.txt", "bb")
        try GIOTransfer(kind: .move, progress: nil).move(url("tree", isFolder: true), to: url("moved", isFolder: true))
        XCTAssertEqual(names(in: folder.url), ["moved"])
        XCTAssertEqual(try String(contentsOf: url("moved/inner/b.txt"), encoding: .utf8), "bb")
        let progress = Progress(totalUnitCount: 0)
        try GIOTransfer(kind: .delete, progress: progress).delete(url("moved", isFolder: true))
        XCTAssertEqual(names(in: folder.url), [])
        XCTAssertEqual(progress.completedUnitCount, 3, "one unit an item")
    }

    func testPartNamesAreHiddenAndFitANameLimit() {
        let long = String(repeating: "é", count: 127) + ".pdf"
        let part = GIOTransfer.partName(for: long)
        XCTAssertTrue(part.hasPrefix("."))
        XCTAssertLessThanOrEqual(part.utf8.count, 255)
        XCTAssertNotEqual(GIOTransfer.partName(for: "a"), "a")
    }

    func testAServerNameThatIsNoNameIsRefused() {
        let item = GIOItem(URL(string: "sftp://127.0.0.1/home/me/")!)
        XCTAssertThrowsError(try item.child("..", isFolder: true, .copy))
        XCTAssertThrowsError(try item.child("a/b", isFolder: false, .copy))
        XCTAssertEqual(try? item.child("a b", isFolder: false, .copy).url.absoluteString, "sftp://127.0.0.1/home/me/a%20b")
    }

    func testLocalOnlyFeaturesRefuseRemoteItemsWithTypedErrors() {
        let remote = URL(string: "sftp://127.0.0.1:2222/home/me/report.pdf")!
        XCTAssertThrowsError(try TagStore(fallbackURL: nil).tags(of: remote)) {
            XCTAssertEqual($0 as? TagError, .notLocal(name: "report.pdf"))
        }
        XCTAssertThrowsError(try TagStore(fallbackURL: nil).setTags(["a"], of: remote)) {
            XCTAssertEqual($0 as? TagError, .notLocal(name: "report.pdf"))
            XCTAssertTrue("\($0)".contains("only files on this computer"), "\($0)")
        }
        XCTAssertThrowsError(try FileCoordinator().coordinate(readingItemAt: remote) { _ in }) {
            XCTAssertEqual($0 as? CoordinationError, .notLocal(location: remote.absoluteString))
        }
        XCTAssertThrowsError(try Bookmark(url: remote)) {
            XCTAssertEqual($0 as? BookmarkError, .notLocal(location: remote.absoluteString))
        }
    }

    func testOperationsOnAnUnreachableLocationEndOnAnError() {
        // Nothing is mounted at this address: GIO says so, and the operation reports it.
        let remote = URL(string: "sftp://127.0.0.1:9/nowhere/a.txt")!
        XCTAssertThrowsError(try FileOperations().rename(remote, to: "b.txt")) { error in
            guard let error = error as? FileOperationError else { return XCTFail("\(error)") }
            XCTAssertTrue(error.description.contains("a.txt"), error.description)
        }
    }
}
