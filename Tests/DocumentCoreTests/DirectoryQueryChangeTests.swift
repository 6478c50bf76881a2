import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Live change sets for changes other processes make: each test changes a watched folder the
/// way a tool or an editor does and checks the change sets a list view would receive, then that
/// replaying them gives exactly a new listing of the folder.
final class DirectoryQueryChangeTests: XCTestCase {
    func testMoveInsideTheFolderIsAMove() throws {
        let (folder, recorder) = try liveFixture(["a.txt", "m.txt", "z.txt"])
        try shell("mv a.txt n.txt", in: folder.url)
        let changes = recorder.changeSets(after: 0)
        XCTAssertEqual(recorder.names, ["m.txt", "n.txt", "z.txt"])
        XCTAssertEqual(changes.flatMap(\.removed), [])
        XCTAssertEqual(changes.flatMap(\.inserted), [])
        XCTAssertEqual(changes.flatMap(\.moved), [QueryChangeSet.Move(from: 0, to: 1)])
        XCTAssertEqual(recorder.snapshot.updatedNames, ["n.txt"])
        try assertMatchesAFreshGathering(recorder, folder)
    }

    func testMovesInAndOutAreInsertionsAndRemovals() throws {
        let (folder, recorder) = try liveFixture(["a.txt", "m.txt"])
        let elsewhere = try TemporaryFolder("dossier-query-elsewhere")
        try elsewhere.write("b.txt", "b")
        try shell("mv m.txt '\(elsewhere.url.path)/' && mv '\(elsewhere.url.path)/b.txt' .", in: folder.url)
        recorder.wait { $0.items.map(\.name) == ["a.txt", "b.txt"] }
        recorder.synchronize()
        XCTAssertEqual(recorder.snapshot.removedNames, ["m.txt"])
        XCTAssertEqual(recorder.snapshot.insertedNames, ["b.txt"])
        try assertMatchesAFreshGathering(recorder, folder)
    }

    func testCopyOverAFileIsAnUpdate() throws {
        let (folder, recorder) = try liveFixture(["a.txt", "b.txt"])
        let other = try TemporaryFolder("dossier-query-elsewhere")
        try other.write("longer.txt", String(repeating: "long ", count: 100))
        try shell("cp '\(other.url.path)/longer.txt' b.txt", in: folder.url)
        _ = recorder.changeSets(after: 0)
        let record = recorder.snapshot
        XCTAssertEqual(Set(record.updatedNames), ["b.txt"])
        XCTAssertEqual(record.removedNames + record.insertedNames, [])
        XCTAssertEqual(recorder.items.last?.size, 500)
        try assertMatchesAFreshGathering(recorder, folder)
    }

    func testSedInPlaceIsAnUpdate() throws {
        let (folder, recorder) = try liveFixture(["a.txt", "b.txt"])
        try shell("sed -i s/a.txt/changed/ a.txt", in: folder.url)
        recorder.wait { $0.updatedNames.contains("a.txt") }
        recorder.synchronize()
        let record = recorder.snapshot
        // sed writes a temporary file beside it and renames it over: a.txt itself never goes.
        XCTAssertFalse(record.removedNames.contains("a.txt"))
        XCTAssertFalse(record.insertedNames.contains("a.txt"))
        XCTAssertEqual(recorder.names, ["a.txt", "b.txt"])
        XCTAssertEqual(recorder.items.first?.size, Int64("changed".utf8.count))
        try assertMatchesAFreshGathering(recorder, folder)
    }

    func testEditorSaveByRenameIsAnUpdate() throws {
        let (folder, recorder) = try liveFixture(["notes.txt", "other.txt"])
        try shell("printf 'saved by an editor' > .notes.txt.swp && mv .notes.txt.swp notes.txt", in: folder.url)
        recorder.wait { $0.updatedNames.contains("notes.txt") }
        recorder.synchronize()
        let record = recorder.snapshot
        XCTAssertEqual(record.removedNames + record.insertedNames, [])
        XCTAssertEqual(record.movedNames, [])
        XCTAssertEqual(recorder.items.first?.size, 18)
        try assertMatchesAFreshGathering(recorder, folder)
    }

    func testRemovalAndTouch() throws {
        let (folder, recorder) = try liveFixture(["a.txt", "b.txt", "c.txt"])
        try shell("rm b.txt", in: folder.url)
        recorder.wait { $0.removedNames == ["b.txt"] }
        XCTAssertEqual(recorder.snapshot.changeSets.last?.removed, [1])

        try shell("touch -d 2001-02-03 c.txt && touch d.txt", in: folder.url)
        recorder.wait { $0.updatedNames.contains("c.txt") && $0.insertedNames == ["d.txt"] }
        recorder.synchronize()
        XCTAssertEqual(recorder.names, ["a.txt", "c.txt", "d.txt"])
        let touched = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("c.txt").path)
        XCTAssertEqual(recorder.items[1].modified, touched[.modificationDate] as? Date)
        try assertMatchesAFreshGathering(recorder, folder)
    }

    func testMovesInDateOrderFollowTheNewDate() throws {
        let folder = try TemporaryFolder("dossier-query")
        for (index, name) in ["old.txt", "middle.txt", "new.txt"].enumerated() {
            let file = try folder.write(name, name)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(index) * 1e6)], ofItemAtPath: file.path)
        }
        let recorder = QueryRecorder(folder.url, options: QueryOptions(sortKey: .dateModified))
        recorder.waitUntilGathered()
        XCTAssertEqual(recorder.names, ["old.txt", "middle.txt", "new.txt"])
        try shell("touch old.txt", in: folder.url)  // now the newest
        let changes = recorder.changeSets(after: 0)
        XCTAssertEqual(recorder.names, ["middle.txt", "new.txt", "old.txt"])
        XCTAssertEqual(changes.flatMap(\.moved), [QueryChangeSet.Move(from: 0, to: 2)])
        try assertMatchesAFreshGathering(recorder, folder, options: QueryOptions(sortKey: .dateModified))
    }

    func testBurstOfCreatesIsCoalesced() throws {
        let (folder, recorder) = try liveFixture(["existing.txt"])
        let started = ContinuousClock.now
        try shell("seq 1000 | sed 's/^/burst/' | xargs touch", in: folder.url)
        let burst = ContinuousClock.now - started
        recorder.wait { $0.items.count == 1001 }
        recorder.synchronize()
        let record = recorder.snapshot
        XCTAssertEqual(record.insertedNames.count, 1000)
        // At most one change set per coalescing interval while the burst lasted (however long
        // a loaded machine made it: a bound from the design, not from a measured speed), one
        // for the interval open when it ended, and one for the barrier's flush.
        let interval = QueryOptions().coalescingInterval
        let allowed = Int(burst / interval) + 2
        XCTAssertLessThanOrEqual(record.changeSets.count, min(allowed, 999), "1,000 creates in \(burst)")
        try assertMatchesAFreshGathering(recorder, folder)
    }

    func testSynchronizeDeliversWhatWasMadeBeforeIt() throws {
        let folder = try TemporaryFolder("dossier-query")
        try folder.write("a.txt", "a")
        // Changes would otherwise wait two minutes: only the barrier can deliver them sooner.
        let recorder = QueryRecorder(folder.url, options: QueryOptions(coalescingInterval: .seconds(120)))
        recorder.synchronize()  // during the gathering: after it
        XCTAssertEqual(recorder.snapshot.reloads, [.gathered])
        try shell("touch b.txt && rm a.txt", in: folder.url)
        recorder.synchronize()
        XCTAssertEqual(recorder.names, ["b.txt"])
        XCTAssertEqual(recorder.snapshot.changeSets.count, 1, "one change set for both")
        recorder.synchronize()
        XCTAssertEqual(recorder.snapshot.changeSets.count, 1, "nothing more, and nothing twice")
        recorder.query.stop()
        recorder.synchronize()  // a stopped query answers at once
    }

    func testNoteChangeDeliversWithoutWaitingForInotify() throws {
        let folder = try TemporaryFolder("dossier-query")
        try folder.write("a.txt", "a")
        // Changes seen by inotify would wait two minutes: only noteChange can deliver sooner.
        let recorder = QueryRecorder(folder.url, options: QueryOptions(coalescingInterval: .seconds(120)))
        recorder.waitUntilGathered()
        let file = try folder.write("coordinated.txt", "written through the coordinator")
        DirectoryQuery.noteChange(at: file)
        recorder.wait(timeout: 60) { $0.insertedNames == ["coordinated.txt"] }
        XCTAssertEqual(recorder.names, ["a.txt", "coordinated.txt"])

        try folder.write("a.txt", "rewritten")
        DirectoryQuery.noteChange(at: folder.url.appendingPathComponent("a.txt"))
        recorder.wait(timeout: 60) { $0.updatedNames.contains("a.txt") }
        XCTAssertEqual(recorder.items.first?.size, 9)
    }

    func testCoordinatedChangesInThisProcessShowUpAtOnce() throws {
        let folder = try TemporaryFolder("dossier-query")
        try folder.write("a.txt", "a")
        // Only the coordinator's note can deliver before the two-minute coalescing interval.
        let recorder = QueryRecorder(folder.url, options: QueryOptions(coalescingInterval: .seconds(120)))
        recorder.waitUntilGathered()
        let created = folder.url.appendingPathComponent("saved.txt")
        try FileCoordinator().coordinate(writingItemAt: created) { _ = try SafeSave.write(Data("new".utf8), to: $0) }
        recorder.wait(timeout: 60) { $0.insertedNames == ["saved.txt"] }
        let operations = FileOperations(trash: Trash(dataHome: folder.url.appendingPathComponent(".data"), mounts: .only([])))
        _ = try operations.rename(created, to: "renamed.txt")
        recorder.wait(timeout: 60) { record in record.items.map(\.name) == ["a.txt", "renamed.txt"] }
        XCTAssertEqual(recorder.names, ["a.txt", "renamed.txt"])
    }
}
