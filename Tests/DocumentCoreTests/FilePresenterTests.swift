import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Records what a presenter is told, as short strings.
final class RecordingPresenter: FilePresenter, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var url: URL
    let presentedItemOperationQueue = DispatchQueue(label: "test.presenter")
    var onSave: ((URL) throws -> Void)?

    init(_ url: URL) { self.url = url }

    var presentedItemURL: URL? { lock.withLock { url } }
    var events: [String] { lock.withLock { recorded } }

    private func record(_ event: String) { lock.withLock { recorded.append(event) } }

    func presentedItemDidChange() { record("changed") }
    func presentedItem(didMoveTo url: URL) {
        lock.withLock { self.url = url }
        record("moved \(url.path)")
    }
    func accommodatePresentedItemDeletion() throws { record("will delete") }
    func presentedItemWasDeleted() { record("deleted") }
    func savePresentedItemChanges() throws {
        record("save")
        if let onSave, let url = presentedItemURL { try onSave(url) }
    }
    func presentedSubitemDidAppear(at url: URL) { record("appeared \(url.lastPathComponent)") }
    func presentedSubitemDidChange(at url: URL) { record("changed \(url.lastPathComponent)") }
    func presentedSubitem(at oldURL: URL, didMoveTo newURL: URL) {
        record("moved \(oldURL.lastPathComponent) → \(newURL.lastPathComponent)")
    }
    func accommodatePresentedSubitemDeletion(at url: URL) throws { record("will delete \(url.lastPathComponent)") }
    func presentedSubitemWasDeleted(at url: URL) { record("deleted \(url.lastPathComponent)") }

    /// Checks that the events so far are `expected`, once every change made before the call
    /// has been delivered (the coordinator's barrier: nothing made earlier can come later).
    func expect(_ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(FileCoordinator.deliverPendingChanges(), "the watcher answered", file: file, line: line)
        XCTAssertEqual(events, expected, file: file, line: line)
        lock.withLock { recorded.removeAll() }
    }
}

/// Runs a shell command, as another program changing files would.
private func shell(_ command: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    try? process.run()
    process.waitUntilExit()
}

final class FilePresenterTests: XCTestCase {
    func testEveryOutsideChangeToAnItemReachesItsPresenter() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("notes.txt", "alpha\n")
        let other = try folder.write("other.txt", "beta\n")
        let presenter = RecordingPresenter(file)
        FileCoordinator.addFilePresenter(presenter)
        defer { FileCoordinator.removeFilePresenter(presenter) }
        let path = file.path

        shell("echo more >> '\(path)'")
        presenter.expect(["changed"])
        shell("cp '\(other.path)' '\(path)'")
        presenter.expect(["changed"])
        shell("sed -i s/beta/gamma/ '\(path)'")
        presenter.expect(["changed"])
        // An editor's save: write a temporary file, rename it over the original.
        shell("printf 'saved\\n' > '\(folder.url.path)/.notes.txt.swp' && mv '\(folder.url.path)/.notes.txt.swp' '\(path)'")
        presenter.expect(["changed"])
        shell("touch '\(path)'")
        presenter.expect(["changed"])
        let moved = folder.url.appendingPathComponent("renamed.txt")
        shell("mv '\(path)' '\(moved.path)'")
        presenter.expect(["moved \(moved.path)"])
        shell("rm '\(moved.path)'")
        presenter.expect(["deleted"])
    }

    func testEveryOutsideChangeInAFolderReachesItsPresenter() throws {
        let folder = try TemporaryFolder()
        let existing = try folder.write("existing.txt", "alpha\n")
        let presenter = RecordingPresenter(folder.url)
        FileCoordinator.addFilePresenter(presenter)
        defer { FileCoordinator.removeFilePresenter(presenter) }
        let root = folder.url.path

        // The new file and the new content are made in a folder nobody watches and moved in, each
        // in one rename. Made in place (touch, sed -i), they take several system calls, which on
        // a loaded machine can straddle the watcher's coalescing window: the presenter then rightly
        // hears "appeared new.txt" and then "changed new.txt" (or sed's temporary file come and
        // go). The mv, rm and mkdir below are one call each.
        let stagingFolder = try TemporaryFolder()
        let staging = stagingFolder.url.path
        shell("touch '\(staging)/new.txt' && mv '\(staging)/new.txt' '\(root)/new.txt'")
        presenter.expect(["appeared new.txt"])
        shell("mv '\(root)/new.txt' '\(root)/renamed.txt'")
        presenter.expect(["moved new.txt → renamed.txt"])
        shell("sed s/alpha/beta/ '\(existing.path)' > '\(staging)/next.txt' && mv '\(staging)/next.txt' '\(existing.path)'")
        presenter.expect(["changed existing.txt"])
        shell("rm '\(root)/renamed.txt'")
        presenter.expect(["deleted renamed.txt"])
        shell("mkdir '\(root)/sub'")
        presenter.expect(["appeared sub"])
    }

    func testCoordinatedChangesArriveBeforeTheCallReturnsAndOnlyOnce() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("doc.txt", "1")
        let itemPresenter = RecordingPresenter(file)
        let folderPresenter = RecordingPresenter(folder.url)
        FileCoordinator.addFilePresenter(itemPresenter)
        FileCoordinator.addFilePresenter(folderPresenter)
        defer {
            FileCoordinator.removeFilePresenter(itemPresenter)
            FileCoordinator.removeFilePresenter(folderPresenter)
        }
        try FileCoordinator().coordinate(writingItemAt: file) { try SafeSave.write(Data("2".utf8), to: $0) }
        XCTAssertEqual(itemPresenter.events, ["save", "changed"], "delivered before coordinate returned")
        XCTAssertEqual(folderPresenter.events, ["changed doc.txt"])
        // The inotify echo of the same change is not delivered a second time.
        itemPresenter.expect(["save", "changed"])
        folderPresenter.expect(["changed doc.txt"])

        let created = folder.url.appendingPathComponent("created.txt")
        try FileCoordinator().coordinate(writingItemAt: created) { try SafeSave.write(Data("new".utf8), to: $0, expecting: .absent) }
        XCTAssertEqual(folderPresenter.events, ["appeared created.txt"])
        try FileCoordinator().coordinate(deletingItemAt: created) { try FileManager.default.removeItem(at: $0) }
        folderPresenter.expect(["appeared created.txt", "will delete created.txt", "deleted created.txt"])
    }

    func testAPresenterIsNotToldAboutItsOwnChanges() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("mine.txt", "1")
        let presenter = RecordingPresenter(file)
        FileCoordinator.addFilePresenter(presenter)
        defer { FileCoordinator.removeFilePresenter(presenter) }
        try FileCoordinator(filePresenter: presenter).coordinate(writingItemAt: file) {
            try SafeSave.write(Data("2".utf8), to: $0)
        }
        presenter.expect([])
    }

    func testABurstOfOutsideChangesIsCoalesced() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("log.txt", "")
        let presenter = RecordingPresenter(file)
        FileCoordinator.addFilePresenter(presenter)
        defer { FileCoordinator.removeFilePresenter(presenter) }
        let started = ContinuousClock.now
        shell("for i in $(seq 1 200); do echo $i >> '\(file.path)'; done")
        let burst = ContinuousClock.now - started
        XCTAssertTrue(FileCoordinator.deliverPendingChanges())
        XCTAssertTrue(presenter.events.allSatisfy { $0 == "changed" }, "\(presenter.events)")
        // At most one delivery per coalescing window while the burst lasted (however long a loaded
        // machine made it), one for the window open when it ended, one for the barrier's.
        let allowed = Int(burst / .milliseconds(50)) + 2
        XCTAssertGreaterThan(presenter.events.count, 0)
        XCTAssertLessThanOrEqual(presenter.events.count, min(allowed, 199), "200 appends in \(burst)")
    }
}

final class CoordinatedFileOperationTests: XCTestCase {
    func testFileOperationsTellPresentersBeforeTheyReturn() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("draft.txt", "x")
        let itemPresenter = RecordingPresenter(file)
        let folderPresenter = RecordingPresenter(folder.url)
        FileCoordinator.addFilePresenter(itemPresenter)
        FileCoordinator.addFilePresenter(folderPresenter)
        defer {
            FileCoordinator.removeFilePresenter(itemPresenter)
            FileCoordinator.removeFilePresenter(folderPresenter)
        }
        // The Trash lives outside the watched folder: made inside it, its own folders arrived
        // as outside changes ("appeared data") among the coordinated notices.
        let home = try TemporaryFolder()
        let operations = FileOperations(trash: Trash(dataHome: home.url.appendingPathComponent("data"), mounts: .only([])))
        let renamed = try operations.rename(file, to: "final.txt")
        XCTAssertEqual(itemPresenter.events, ["save", "moved \(folder.url.appendingPathComponent("final.txt").path)"])
        XCTAssertEqual(folderPresenter.events, ["moved draft.txt → final.txt"])
        guard case .renamed(_, let newURL) = renamed else { return XCTFail("\(renamed)") }
        _ = try operations.duplicate(newURL)
        XCTAssertEqual(folderPresenter.events.last, "appeared final (copy).txt")
        _ = try operations.moveToTrash(newURL)
        XCTAssertEqual(itemPresenter.events.suffix(2), ["will delete", "deleted"])
        XCTAssertEqual(folderPresenter.events.suffix(2), ["will delete final.txt", "deleted final.txt"])
    }
}
