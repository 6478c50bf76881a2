import CGLib
import CImaging
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Thumbnails made ahead for a folder's files (`BackgroundThumbnails`), with a generator of
/// one worker over a cache of the test's own, so the queue's order is the order of work.
final class BackgroundThumbnailsTests: XCTestCase {
    private func uri(_ url: URL) -> String {
        let file = g_file_new_for_path(url.path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let uri = g_file_get_uri(file)!
        defer { g_free(uri) }
        return String(cString: uri)
    }

    private func modified(_ url: URL) -> Int64 {
        var status = stat()
        stat(url.path, &status)
        return Int64(status.st_mtim.tv_sec)
    }

    /// Holds the generator's one worker in a delivery until `release()`: everything asked
    /// meanwhile is queued, in priority order, before any of it runs.
    private final class HeldWorker: @unchecked Sendable {
        private let held = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)

        init(_ generator: ThumbnailGenerator, file: URL) {
            generator.generate(.init(url: file, size: 128, representations: .thumbnail, priority: 1 << 60)) { [self] _ in
                held.signal()
                released.wait()
            }
            XCTAssertEqual(held.wait(timeout: .now() + 60), .success, "the worker holds")
        }

        func release() { released.signal() }
    }

    /// Asks `generator` for a thumbnail below everything else and waits for it: with one worker,
    /// every request queued before it has then run, or was cancelled.
    private func waitForTheQueueToEmpty(_ generator: ThumbnailGenerator, marker: URL) {
        let done = DispatchSemaphore(value: 0)
        generator.generate(.init(url: marker, size: 128, representations: .thumbnail, priority: Int.min)) { _ in done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 300), .success, "the lowest request ran")
        XCTAssertEqual(generator.waitingRequests, 0, "nothing else waits")
    }

    func testOnlyFilesLackingAThumbnailAreQueuedAndFailuresAreRecorded() throws {
        let folder = try TemporaryFolder()
        let png = TestImage.encode(TestImage.gradient(width: 300, height: 200), as: "png")
        let done = try folder.write("done.png", bytes: png)
        let lacking = try folder.write("lacking.png", bytes: png)
        let notes = try folder.write("notes.txt", "Text has a thumbnailer too.\n")
        // A PNG's signature over nonsense (a truncated PNG still gives a partial picture).
        let broken = try folder.write("broken.png", bytes: Array(png.prefix(8)) + (0..<1024).map { UInt8($0 % 256) })
        let unknown = try folder.write("data.bin", bytes: [0, 1, 2, 3])
        let subfolder = folder.url.appendingPathComponent("Subfolder")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
        let cache = ThumbnailCache(root: folder.url.appendingPathComponent(".cache/thumbnails"))
        let generator = ThumbnailGenerator(cache: cache, workers: 1)
        _ = try generator.thumbnail(of: done, size: .normal)

        let pass = BackgroundThumbnails(generator: generator, folder: folder.url, size: 96)
        pass.add([subfolder, done, lacking, notes, broken, unknown])
        XCTAssertTrue(eventually(timeout: 300) { !pass.progress.isLooking && pass.progress.finished == pass.progress.queued })
        XCTAssertEqual(pass.progress.examined, 6)
        XCTAssertEqual(pass.progress.queued, 2, "the PNG without a thumbnail and the broken PNG")
        XCTAssertNotNil(cache.lookup(uri(lacking), modified: modified(lacking), size: .normal))
        XCTAssertNil(cache.lookup(uri(notes), modified: modified(notes), size: .normal), "text is left to its cell")
        XCTAssertTrue(generator.lacksThumbnail(of: notes, fitting: 96), "a cell still gets one")
        XCTAssertTrue(cache.hasFailed(uri(broken), modified: modified(broken)), "the failure is recorded, as for a cell's request")
        XCTAssertNil(cache.lookup(uri(unknown), modified: modified(unknown), size: .normal))

        // Looked at again (the folder opened again), nothing is left to do.
        let again = BackgroundThumbnails(generator: generator, folder: folder.url, size: 96)
        again.add([subfolder, done, lacking, notes, broken, unknown])
        XCTAssertTrue(eventually { !again.progress.isLooking })
        XCTAssertEqual(again.progress.queued, 0)
    }

    func testThumbnailsComeInTheFoldersOrderBelowEveryOtherRequestAndStopAtTheLimit() throws {
        let folder = try TemporaryFolder()
        let png = TestImage.encode(TestImage.gradient(width: 300, height: 200), as: "png")
        let files = try (0..<6).map { try folder.write("photo-\($0).png", bytes: png) }
        let other = try folder.write("other/cell.png", bytes: png)
        let marker = try folder.write("other/marker.png", bytes: png)
        let cache = ThumbnailCache(root: folder.url.appendingPathComponent(".cache/thumbnails"))
        let generator = ThumbnailGenerator(cache: cache, workers: 1)
        let held = HeldWorker(generator, file: try folder.write("other/held.png", bytes: png))

        let pass = BackgroundThumbnails(generator: generator, folder: folder.url, size: 96, limit: 5)
        pass.add(files)
        XCTAssertTrue(eventually { !pass.progress.isLooking })
        XCTAssertEqual(pass.progress.queued, 5, "the limit")
        // A cell's request, asked after the background's, at the lowest priority a cell has.
        let order = SharedValue<[String]>([])
        generator.generate(.init(url: other, size: 96, representations: .thumbnail, priority: -(1 << 40))) { _ in
            order.withLock { $0.append("cell") }
        }
        held.release()
        waitForTheQueueToEmpty(generator, marker: marker)
        XCTAssertEqual(order.withLock { $0 }, ["cell"])
        // The cell's thumbnail was made first, then the folder's in its order; the sixth never.
        let made = try ([other] + files.prefix(5)).map { file -> timespec in
            let location = cache.location(of: uri(file), size: .normal).path
            var status = stat()
            XCTAssertEqual(stat(location, &status), 0, "\(file.lastPathComponent) has its thumbnail")
            return status.st_mtim
        }
        for (earlier, later) in zip(made, made.dropFirst()) {
            XCTAssertTrue((earlier.tv_sec, earlier.tv_nsec) <= (later.tv_sec, later.tv_nsec), "made in the folder's order")
        }
        XCTAssertNil(cache.lookup(uri(files[5]), modified: modified(files[5]), size: .normal), "past the limit")
    }

    func testCancellingDropsEverythingStillQueued() throws {
        let folder = try TemporaryFolder()
        let png = TestImage.encode(TestImage.gradient(width: 300, height: 200), as: "png")
        let files = try (0..<8).map { try folder.write("photo-\($0).png", bytes: png) }
        let cache = ThumbnailCache(root: folder.url.appendingPathComponent(".cache/thumbnails"))
        let generator = ThumbnailGenerator(cache: cache, workers: 1)
        let held = HeldWorker(generator, file: try folder.write("other/held.png", bytes: png))
        let pass = BackgroundThumbnails(generator: generator, folder: folder.url, size: 96)
        pass.add(files)
        XCTAssertTrue(eventually { !pass.progress.isLooking })
        XCTAssertEqual(pass.progress.queued, 8)
        pass.cancel()
        pass.add(files)  // nothing is queued after a cancel
        held.release()
        waitForTheQueueToEmpty(generator, marker: try folder.write("other/marker.png", bytes: png))
        for file in files {
            XCTAssertNil(cache.lookup(uri(file), modified: modified(file), size: .normal), "\(file.lastPathComponent) was dropped")
        }
        XCTAssertEqual(pass.progress.finished, 0)
    }

    /// A background request whose delivery holds its thread until released.
    private final class HeldBackground: @unchecked Sendable {
        let started = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var hasStarted = false
        private var handle: ThumbnailGenerator.Handle?

        init(_ generator: ThumbnailGenerator, file: URL, position: Int) {
            let priority = ThumbnailGenerator.backgroundPriority - position
            handle = generator.generate(.init(url: file, size: 96, representations: .thumbnail, priority: priority)) { [self] _ in
                lock.withLock { hasStarted = true }
                started.signal()
                released.wait()
            }
        }

        var isStarted: Bool { lock.withLock { hasStarted } }
        func release() { released.signal() }
        func cancel() { handle?.cancel() }
    }

    /// Asks `generator` for a cell's thumbnail and waits for it: it runs on a free thread.
    private func cellRequestRuns(_ generator: ThumbnailGenerator, _ file: URL) {
        let done = DispatchSemaphore(value: 0)
        generator.generate(.init(url: file, size: 96, representations: .thumbnail, priority: 0)) { _ in done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success, "a cell's request ran on the free thread")
    }

    func testOneBackgroundThumbnailAtATimeWhileCellsUseTheOtherThreads() throws {
        let folder = try TemporaryFolder()
        let png = TestImage.encode(TestImage.gradient(width: 300, height: 200), as: "png")
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent(".cache/thumbnails")), workers: 2)
        let first = HeldBackground(generator, file: try folder.write("a.png", bytes: png), position: 0)
        let second = HeldBackground(generator, file: try folder.write("b.png", bytes: png), position: 1)
        XCTAssertEqual(first.started.wait(timeout: .now() + 120), .success)
        // The second thread is free: a cell's request runs there, and the second background
        // request, queued before it, has still not started.
        cellRequestRuns(generator, try folder.write("cell.png", bytes: png))
        XCTAssertFalse(second.isStarted, "two background thumbnails at once")
        first.release()
        XCTAssertEqual(second.started.wait(timeout: .now() + 120), .success, "the next one starts when the first is done")
        second.release()
    }

    func testNoBackgroundThumbnailStartsWhileHeld() throws {
        let folder = try TemporaryFolder()
        let png = TestImage.encode(TestImage.gradient(width: 300, height: 200), as: "png")
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent(".cache/thumbnails")), workers: 1)
        generator.holdBackground(for: .seconds(3600))
        let background = HeldBackground(generator, file: try folder.write("a.png", bytes: png), position: 0)
        cellRequestRuns(generator, try folder.write("cell.png", bytes: png))
        XCTAssertFalse(background.isStarted, "held back while the view scrolls")
        XCTAssertEqual(generator.waitingRequests, 1)
        background.cancel()
        // A hold ends by itself (one only grows: a new generator shows the end).
        let later = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent(".cache/thumbnails")), workers: 1)
        later.holdBackground(for: .milliseconds(200))
        let next = HeldBackground(later, file: try folder.write("b.png", bytes: png), position: 0)
        XCTAssertEqual(next.started.wait(timeout: .now() + 120), .success, "the hold ends by itself")
        next.release()
    }

    func testRemoteFoldersAreNeverThumbnailedAhead() throws {
        let folder = try TemporaryFolder()
        XCTAssertTrue(BackgroundThumbnails.isOnThisMachine(folder.url))
        let server = try XCTUnwrap(URL(string: "sftp://127.0.0.1/home/user/Photos"))
        XCTAssertFalse(BackgroundThumbnails.isOnThisMachine(server))
        let fuse = URL(fileURLWithPath: String(cString: g_get_user_runtime_dir()) + "/gvfs/sftp:host=127.0.0.1/home/user/Photos")
        XCTAssertFalse(BackgroundThumbnails.isOnThisMachine(fuse), "GVFS's FUSE folder reaches the server too")

        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent(".cache/thumbnails")), workers: 1)
        let photo = server.appendingPathComponent("photo.jpg")
        XCTAssertFalse(generator.lacksThumbnail(of: photo, fitting: 96), "a remote file is thumbnailed only when shown")
        let pass = BackgroundThumbnails(generator: generator, folder: server, size: 96)
        pass.add([photo, fuse.appendingPathComponent("photo.jpg")])
        XCTAssertTrue(eventually { !pass.progress.isLooking })
        XCTAssertEqual(pass.progress.examined, 0, "not even looked at")
        XCTAssertEqual(pass.progress.queued, 0)
    }
}

/// A value the test's threads share under a lock.
private final class SharedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
