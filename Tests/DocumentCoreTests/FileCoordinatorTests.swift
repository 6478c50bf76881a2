import DocumentCore
import DossierFixtures
import Foundation
import XCTest

final class FileCoordinatorTests: XCTestCase {
    func testEightProcessesIncrementACounterToExactly8000WithNoTornRead() throws {
        let folder = try TemporaryFolder()
        let counter = try folder.write("counter.txt", "0\n")
        let writers = try (0..<8).map { _ in try ProbeProcess(["counter", counter.path, "1000"]) }
        let readers = try (0..<2).map { _ in try ProbeProcess(["reader", counter.path, "2000"]) }
        for probe in writers + readers {
            XCTAssertEqual(probe.finish(), ["torn 0"])
            XCTAssertEqual(probe.process.terminationStatus, 0)
        }
        XCTAssertEqual(try String(contentsOf: counter, encoding: .utf8), "8000\n")
        // The locks live in the runtime folder, not beside the user's file.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), ["counter.txt"])
    }

    func testWriterKilledMidSaveAlwaysLeavesAWholeVersion() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("document.txt")
        var generator = SystemRandomNumberGenerator()
        for round in 0..<8 {
            let saver = try ProbeProcess(["saver", file.path, "\(round * 100):100"])
            // Let it get some saves done, then kill it wherever it is.
            let wanted = Int.random(in: 1...40, using: &generator)
            var saved = 0
            while saved < wanted, saver.readLine() != nil { saved += 1 }
            usleep(UInt32.random(in: 0...3_000, using: &generator))
            saver.kill()
            let data = try Data(contentsOf: file)
            let text = String(decoding: data, as: UTF8.self)
            let head = text.prefix { $0 != "\n" }
            let version = try XCTUnwrap(Int(head.dropFirst("version ".count)), "round \(round): \(head)")
            XCTAssertEqual(data.count, 256 * 1024, "round \(round)")
            XCTAssertTrue(text.hasSuffix("end \(version)\n"), "round \(round): the version is whole")
            XCTAssertTrue(version >= round * 100 + saved - 1, "round \(round): nothing older than what was reported saved")
        }
    }

    func testAWriterInAnotherProcessExcludesReadersUntilTimeout() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("busy.txt", "x")
        let holder = try ProbeProcess(["hold", file.path, "3"])
        XCTAssertEqual(holder.readLine(), "locked")
        XCTAssertThrowsError(try FileCoordinator().coordinate(readingItemAt: file, timeout: .milliseconds(200)) { _ in }) {
            XCTAssertEqual($0 as? CoordinationError, .timedOut(name: "busy.txt"))
            XCTAssertEqual("\($0)", "'busy.txt' is busy: another program is still using it")
        }
        holder.kill()
        // A killed holder's lock dies with it.
        XCTAssertNoThrow(try FileCoordinator().coordinate(readingItemAt: file, timeout: .seconds(5)) { _ in })
    }

    func testWaitingCanBeCancelled() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("busy.txt", "x")
        let holder = try ProbeProcess(["hold", file.path, "5"])
        defer { holder.kill() }
        XCTAssertEqual(holder.readLine(), "locked")
        let cancellation = CoordinationCancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { cancellation.cancel() }
        XCTAssertThrowsError(try FileCoordinator().coordinate(writingItemAt: file, cancellation: cancellation) { _ in }) {
            XCTAssertEqual($0 as? CoordinationError, .cancelled(name: "busy.txt"))
        }
    }

    func testReadersShareAndAWriterExcludesOtherThreads() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("shared.txt", "x")
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? FileCoordinator().coordinate(readingItemAt: file) { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        XCTAssertNoThrow(try FileCoordinator().coordinate(readingItemAt: file, timeout: .milliseconds(500)) { _ in },
                         "a second reader shares")
        XCTAssertThrowsError(try FileCoordinator().coordinate(writingItemAt: file, timeout: .milliseconds(100)) { _ in },
                             "a writer waits for the reader")
        release.signal()
        XCTAssertNoThrow(try FileCoordinator().coordinate(writingItemAt: file, timeout: .seconds(5)) { _ in })
    }

    func testReadNestedInAWriteOnTheSameThreadDoesNotDeadlock() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("nested.txt", "1")
        let coordinator = FileCoordinator()
        let value = try coordinator.coordinate(writingItemAt: file, timeout: .seconds(5)) { url in
            try SafeSave.write(Data("2".utf8), to: url)
            return try coordinator.coordinate(readingItemAt: url, timeout: .seconds(1)) { url in
                try String(contentsOf: url, encoding: .utf8)
            }
        }
        XCTAssertEqual(value, "2")
        // The lock was released in full afterwards.
        XCTAssertNoThrow(try FileCoordinator().coordinate(writingItemAt: file, timeout: .seconds(1)) { _ in })
    }

    func testTheLockSurvivesAnAtomicRenameSave() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("renamed.txt", "old")
        let before = try XCTUnwrap(FileVersion(at: file))
        let saved = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? FileCoordinator().coordinate(writingItemAt: file) { url in
                try SafeSave.write(Data("new".utf8), to: url)
                saved.signal()
                release.wait()
            }
        }
        saved.wait()
        XCTAssertNotEqual(FileVersion(at: file)?.inode, before.inode, "the save replaced the inode")
        XCTAssertThrowsError(try FileCoordinator().coordinate(readingItemAt: file, timeout: .milliseconds(100)) { _ in },
                             "the new inode is still locked")
        release.signal()
    }

    func testMovesAndPresentersFollowTheItem() throws {
        let folder = try TemporaryFolder()
        let old = try folder.write("before.txt", "x")
        let new = folder.url.appendingPathComponent("after.txt")
        let presenter = RecordingPresenter(old)
        FileCoordinator.addFilePresenter(presenter)
        defer { FileCoordinator.removeFilePresenter(presenter) }
        try FileCoordinator().coordinate(movingItemAt: old, to: new) { from, to in
            try FileManager.default.moveItem(at: from, to: to)
        }
        // Asked to save first, told of the move before the coordinated call returned.
        XCTAssertEqual(presenter.events, ["save", "moved \(new.path)"])
        try FileCoordinator().coordinate(writingItemAt: new) { try SafeSave.write(Data("y".utf8), to: $0) }
        XCTAssertEqual(presenter.events, ["save", "moved \(new.path)", "save", "changed"])
    }

    func testAPresenterSavesBeforeAnotherWriterProceeds() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("draft.txt", "disk")
        let presenter = RecordingPresenter(file)
        // Unowned: the presenter keeps this closure, and a strong capture would keep it forever.
        presenter.onSave = { [unowned presenter] url in
            try FileCoordinator(filePresenter: presenter).coordinate(writingItemAt: url) {
                _ = try SafeSave.write(Data("presenter's unsaved work".utf8), to: $0)
            }
        }
        FileCoordinator.addFilePresenter(presenter)
        defer { FileCoordinator.removeFilePresenter(presenter) }
        let seen = try FileCoordinator().coordinate(writingItemAt: file, timeout: .seconds(5)) { url in
            try String(contentsOf: url, encoding: .utf8)
        }
        XCTAssertEqual(seen, "presenter's unsaved work")
        XCTAssertEqual(presenter.events.first, "save")
    }
}
