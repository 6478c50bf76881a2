import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// A plain-text document, as an app would subclass Document.
final class TextDocument: Document, @unchecked Sendable {
    private let lock = NSLock()

    override init(fileURL: URL) {
        super.init(fileURL: fileURL)
        recents = nil  // never the developer's own recent list; one test gives a private one
    }
    private var storedText = ""
    var failToProduceContents = false

    var text: String {
        get { lock.withLock { storedText } }
        set { lock.withLock { storedText = newValue } }
    }

    override func contents() throws -> Data {
        if failToProduceContents { throw CocoaError(.fileWriteUnknown) }
        return Data(text.utf8)
    }

    override func load(fromContents contents: Data, ofType type: DocumentType) throws {
        text = String(decoding: contents, as: UTF8.self)
    }

    func edit(_ newText: String) {
        text = newText
        updateChangeCount()
    }
}

final class DocumentTests: XCTestCase {
    func testOpenReportsProgressAndCanBeCancelled() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("big.txt", bytes: [UInt8](repeating: 0x61, count: 8 << 20))
        let document = TextDocument(fileURL: file)
        let progress = Progress(totalUnitCount: 0)
        try document.open(progress: progress)
        XCTAssertEqual(progress.totalUnitCount, 8 << 20)
        XCTAssertEqual(progress.completedUnitCount, 8 << 20)
        XCTAssertEqual(document.text.count, 8 << 20)
        XCTAssertEqual(document.documentState, .normal)
        try document.close()

        let cancelled = Progress(totalUnitCount: 0)
        cancelled.cancel()
        let other = TextDocument(fileURL: file)
        XCTAssertThrowsError(try other.open(progress: cancelled)) {
            XCTAssertEqual($0 as? DocumentError, .cancelled(name: "big.txt"))
        }
        XCTAssertEqual(other.documentState, .closed)
    }

    func testEditsAreAutosavedOnceAfterAQuietMoment() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("draft.txt", "v0")
        let document = TextDocument(fileURL: file)
        document.autosaveDelay = .milliseconds(200)
        let saves = Counter()
        document.thumbnailWriter = { _, _ in saves.increment() }
        try document.open()
        // Quick edits: on the document's queue, so no autosave can run between them however
        // slow the machine.
        document.presentedItemOperationQueue.sync {
            document.edit("v1")
            document.edit("v2")
            document.edit("v3")
        }
        XCTAssertTrue(eventually { saves.value == 1 })
        // Saved and nothing unsaved: no autosave is pending, so none can follow.
        XCTAssertEqual(saves.value, 1, "three quick edits, one save")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "v3")
        XCTAssertFalse(document.hasUnsavedChanges)
        try document.close()
    }

    func testCloseSavesUnsavedEdits() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("closing.txt", "before")
        let document = TextDocument(fileURL: file)
        document.autosaveDelay = .seconds(60)
        try document.open()
        document.edit("after")
        try document.close()
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "after")
        XCTAssertEqual(document.documentState, .closed)
    }

    func testAnOutsideChangeReloadsADocumentWithoutEdits() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("watched.txt", "first")
        let document = TextDocument(fileURL: file)
        try document.open()
        try Data("changed by someone else".utf8).write(to: file)
        XCTAssertTrue(eventually { document.text == "changed by someone else" })
        XCTAssertEqual(document.documentState, .normal)
        try document.close()
    }

    func testAnOutsideChangeUnderUnsavedEditsIsAConflictOfferingBothVersions() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("contested.txt", "original")
        let document = TextDocument(fileURL: file)
        document.autosaveDelay = .seconds(60)
        try document.open()
        document.edit("my edit")
        try Data("their edit".utf8).write(to: file)
        XCTAssertTrue(eventually { document.documentState.contains(.inConflict) })
        XCTAssertThrowsError(try document.save(), "nothing is overwritten while in conflict")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "their edit")
        let conflict = try XCTUnwrap(document.conflict)
        XCTAssertEqual(conflict.unsavedContents, Data("my edit".utf8))
        try document.resolveConflict(.keepBoth(copyName: "contested (my copy).txt"))
        XCTAssertEqual(document.text, "their edit")
        XCTAssertEqual(try String(contentsOf: folder.url.appendingPathComponent("contested (my copy).txt"), encoding: .utf8), "my edit")
        XCTAssertEqual(document.documentState, .normal)
        try document.close()
    }

    func testKeepingMineAfterAConflictWritesMyVersion() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("mine.txt", "original")
        let document = TextDocument(fileURL: file)
        document.autosaveDelay = .seconds(60)
        try document.open()
        document.edit("mine")
        try Data("theirs".utf8).write(to: file)
        XCTAssertTrue(eventually { document.documentState.contains(.inConflict) })
        try document.resolveConflict(.keepMine)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "mine")
        XCTAssertEqual(document.documentState, .normal)
        try document.close()
    }

    func testRevertDropsEdits() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("revert.txt", "on disk")
        let document = TextDocument(fileURL: file)
        document.autosaveDelay = .seconds(60)
        try document.open()
        document.edit("unwanted")
        try document.revert()
        XCTAssertEqual(document.text, "on disk")
        XCTAssertFalse(document.hasUnsavedChanges)
        try document.close()
    }

    func testTheDocumentFollowsItsFileWhenMoved() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("old name.txt", "text")
        let document = TextDocument(fileURL: file)
        try document.open()
        let moved = folder.url.appendingPathComponent("new name.txt")
        try FileManager.default.moveItem(at: file, to: moved)
        XCTAssertTrue(eventually { document.fileURL.path == moved.path })
        document.edit("saved at the new place")
        try document.save()
        XCTAssertEqual(try String(contentsOf: moved, encoding: .utf8), "saved at the new place")
        try document.close()
    }

    func testAFailedSaveSetsTheSavingErrorState() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("broken.txt", "x")
        let document = TextDocument(fileURL: file)
        try document.open()
        document.failToProduceContents = true
        document.edit("y")
        XCTAssertThrowsError(try document.save())
        XCTAssertTrue(document.documentState.contains(.savingError))
        document.failToProduceContents = false
        try document.save()
        XCTAssertFalse(document.documentState.contains(.savingError))
        try document.close()
    }

    func testTheThumbnailHookRunsInsideTheCoordinatedSave() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("pictured.txt", "x")
        let document = TextDocument(fileURL: file)
        let lockedDuringHook = Counter()
        document.thumbnailWriter = { data, url in
            // Another thread cannot read the file while the hook runs: the save still holds it.
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                do {
                    try FileCoordinator().coordinate(readingItemAt: url, timeout: .milliseconds(100)) { _ in }
                } catch {
                    lockedDuringHook.increment()
                }
                done.signal()
            }
            done.wait()
            XCTAssertEqual(data, Data("y".utf8))
        }
        try document.open()
        document.edit("y")
        try document.save()
        XCTAssertEqual(lockedDuringHook.value, 1)
        try document.close()
    }
}

extension DocumentTests {
    func testADocumentOnAReadOnlyFileSystemHasEditingDisabled() throws {
        // A read-only tmpfs: only root may mount one; elsewhere the test cannot make the case.
        let folder = try TemporaryFolder()
        let mountPoint = folder.url.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard mount("tmpfs", mountPoint.path, "tmpfs", 0, nil) == 0 else {
            throw XCTSkip("mounting a tmpfs needs root")
        }
        defer { umount2(mountPoint.path, Int32(MNT_DETACH)) }
        try Data("read only".utf8).write(to: mountPoint.appendingPathComponent("fixed.txt"))
        XCTAssertEqual(mount("none", mountPoint.path, nil, UInt(MS_REMOUNT | MS_RDONLY), nil), 0)
        let document = TextDocument(fileURL: mountPoint.appendingPathComponent("fixed.txt"))
        try document.open()
        XCTAssertTrue(document.documentState.contains(.editingDisabled))
        XCTAssertEqual(document.text, "read only")
        document.edit("changed")
        XCTAssertThrowsError(try document.save()) {
            XCTAssertEqual("\($0)", "'fixed.txt' could not be saved: it is read-only")
        }
        FileCoordinator.removeFilePresenter(document)
    }
}

extension DocumentTests {
    func testOpeningCreatingAndEditingAreRecordedInRecents() throws {
        let folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home")
        let recents = RecentDocuments(directories: UserDirectories(
            home: home, configHome: home.appendingPathComponent(".config"), dataHome: home.appendingPathComponent(".local/share")))
        let existing = try folder.write("existing.txt", "old")
        let document = TextDocument(fileURL: existing)
        document.recents = recents
        try document.open()
        document.edit("new")
        try document.save()
        try document.close()
        let created = TextDocument(fileURL: folder.url.appendingPathComponent("created.txt"))
        created.recents = recents
        created.edit("brand new")
        try created.save()
        XCTAssertTrue(eventually {
            let names = Set(((try? recents.items()) ?? []).map(\.name))
            return names.isSuperset(of: ["existing.txt", "created.txt"])
        }, "both documents are in the recent list")
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
