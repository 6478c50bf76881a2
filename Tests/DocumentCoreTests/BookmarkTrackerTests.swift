import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Bookmarks kept current while the process runs, through presenters.
final class BookmarkTrackerTests: XCTestCase {
    private final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [BookmarkTracker.Event] = []
        func record(_ event: BookmarkTracker.Event) { lock.withLock { recorded.append(event) } }
        var events: [BookmarkTracker.Event] { lock.withLock { recorded } }
    }

    private func mv(_ from: URL, _ to: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mv")
        process.arguments = [from.path, to.path]
        try? process.run()
        process.waitUntilExit()
    }

    private func movedPath(_ event: BookmarkTracker.Event?) -> String? {
        if case .moved(_, _, let bookmark) = event { return bookmark.path }
        return nil
    }

    func testRenameByAnotherProgramUpdatesTheBookmarkAtOnce() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("draft.txt", "draft")
        let recorder = Recorder()
        let tracker = BookmarkTracker { recorder.record($0) }
        tracker.track(try Bookmark(url: file), as: "draft")
        let renamed = folder.url.appendingPathComponent("final.txt")
        mv(file, renamed)
        XCTAssertTrue(eventually { !recorder.events.isEmpty })
        XCTAssertEqual(movedPath(recorder.events.first), renamed.resolvingSymlinksInPath().path)
        XCTAssertEqual(tracker.bookmark(for: "draft")?.path, renamed.resolvingSymlinksInPath().path)
        XCTAssertFalse(try XCTUnwrap(tracker.bookmark(for: "draft")).resolve().isStale, "a fresh bookmark")
    }

    func testCoordinatedMoveIsReportedBeforeItReturns() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a/item.txt", "item")
        let recorder = Recorder()
        let tracker = BookmarkTracker { recorder.record($0) }
        tracker.track(try Bookmark(url: file), as: "item")
        let destination = folder.url.appendingPathComponent("b/item.txt")
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileCoordinator().coordinate(movingItemAt: file, to: destination) { from, to in
            try FileManager.default.moveItem(at: from, to: to)
        }
        XCTAssertEqual(movedPath(recorder.events.first), destination.resolvingSymlinksInPath().path)
    }

    func testMoveOutOfTheWatchedFolderIsFollowedBySearching() throws {
        // inotify sees only the item leaving its folder (an unpaired move): the tracker searches.
        let folder = try TemporaryFolder()
        let file = try folder.write("inbox/bill.txt", "bill")
        try folder.write("paid/2024/.keep", "")
        let recorder = Recorder()
        // The search ends when it finds the file; the budget only bounds a failure.
        let tracker = BookmarkTracker(options: .init(budget: .seconds(60))) { recorder.record($0) }
        tracker.track(try Bookmark(url: file), as: "bill")
        let filed = folder.url.appendingPathComponent("paid/2024/bill.txt")
        mv(file, filed)
        XCTAssertTrue(eventually { !recorder.events.isEmpty })
        XCTAssertEqual(movedPath(recorder.events.first), filed.resolvingSymlinksInPath().path)
        // And it keeps following from there.
        let again = folder.url.appendingPathComponent("paid/2024/bill (paid).txt")
        mv(filed, again)
        XCTAssertTrue(eventually { recorder.events.count >= 2 })
        XCTAssertEqual(movedPath(recorder.events.last), again.resolvingSymlinksInPath().path)
    }

    func testDeletedItemIsReportedMissing() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("temp.txt", "temp")
        let recorder = Recorder()
        let tracker = BookmarkTracker(options: .init(budget: .milliseconds(50))) { recorder.record($0) }
        tracker.track(try Bookmark(url: file), as: "temp")
        try FileManager.default.removeItem(at: file)
        XCTAssertTrue(eventually { !recorder.events.isEmpty })
        XCTAssertEqual(recorder.events, [.missing(key: "temp")])
        XCTAssertNil(tracker.bookmark(for: "temp"))
    }
}
