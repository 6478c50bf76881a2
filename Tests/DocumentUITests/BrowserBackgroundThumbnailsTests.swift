import CGLib
import CGtk
import CImaging
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The rest of a folder thumbnailed in the background, in a real window under the test's Xvfb:
/// a folder larger than the cells GtkGridView keeps bound, each test with a generator and a
/// cache of its own (so the cache starts empty, and one worker makes the order of work the
/// queue's).
final class BrowserBackgroundThumbnailsTests: XCTestCase {
    /// More photos than GTK 4.8's grid binds cells for (about 32 rows of the columns that fit).
    private static let count = 600

    override func setUp() async throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil,
                          "no display: UI tests run under `make test`, which starts Xvfb")
    }

    /// A folder of `count` small PNGs, each its own colour, named so the view's order is theirs.
    private static func photoFolder(_ folder: TemporaryFolder) throws -> [URL] {
        try (0..<Self.count).map { index in
            let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 160, 120)!
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            gdk_pixbuf_fill(pixbuf, guint32(truncatingIfNeeded: (index * 2_654_435_761) & 0xffff_ff00 | 0xff))
            var buffer: UnsafeMutablePointer<gchar>?
            var length: gsize = 0
            var keys: [UnsafeMutablePointer<CChar>?] = [nil], values: [UnsafeMutablePointer<CChar>?] = [nil]
            XCTAssertNotEqual(gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &length, "png", &keys, &values, nil), 0)
            defer { g_free(buffer) }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buffer!).assumingMemoryBound(to: UInt8.self), count: Int(length)))
            return try folder.write(String(format: "photo-%04d.png", index), bytes: bytes)
        }
    }

    private static func uri(_ url: URL) -> String {
        let file = g_file_new_for_path(url.path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let uri = g_file_get_uri(file)!
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// The files among `files` with a valid 128-pixel thumbnail in `cache` (the grid's 96 px).
    private static func thumbnailed(_ files: [URL], in cache: ThumbnailCache) -> [URL] {
        files.filter { file in
            var status = stat()
            guard stat(file.path, &status) == 0 else { return false }
            return cache.lookup(Self.uri(file), modified: Int64(status.st_mtim.tv_sec), size: .normal) != nil
        }
    }

    /// When `file`'s thumbnail was written.
    private static func madeAt(_ file: URL, in cache: ThumbnailCache) -> timespec {
        var status = stat()
        XCTAssertEqual(stat(cache.location(of: Self.uri(file), size: .normal).path, &status), 0, "\(file.lastPathComponent) has its thumbnail")
        return status.st_mtim
    }

    /// Holds the generator's one worker in a delivery until `release()`: everything asked
    /// meanwhile is queued, in priority order, before any of it runs.
    private final class HeldWorker: @unchecked Sendable {
        private let lock = NSLock()
        private var isHeld = false
        private let released = DispatchSemaphore(value: 0)

        init(_ generator: ThumbnailGenerator, file: URL, priority: Int = 1 << 60) {
            generator.generate(.init(url: file, size: 96, representations: .thumbnail, priority: priority)) { [self] _ in
                lock.withLock { isHeld = true }
                released.wait()
            }
        }

        var held: Bool { lock.withLock { isHeld } }
        func release() { released.signal() }
    }

    /// Asks `generator` for a thumbnail below everything else and waits for it: with one worker,
    /// every request queued before it has then run or was cancelled, and nothing waits.
    @MainActor
    private static func waitForTheQueueToEmpty(_ generator: ThumbnailGenerator, marker: URL) {
        let done = HeldWorkerMark()
        generator.generate(.init(url: marker, size: 96, representations: .thumbnail, priority: Int.min)) { _ in done.reach() }
        XCTAssertTrue(spin(timeout: 300) { done.reached }, "the lowest request ran")
        XCTAssertEqual(generator.waitingRequests, 0, "nothing else waits")
    }

    func testEveryThumbnailOfTheFolderEndsInTheCacheWithoutScrolling() throws {
        let folder = try TemporaryFolder("background-thumbnails")
        let photos = try Self.photoFolder(folder)
        let cacheFolder = try TemporaryFolder("background-thumbnails-cache")
        let cache = ThumbnailCache(root: cacheFolder.url.appendingPathComponent("thumbnails"))
        let generator = ThumbnailGenerator(cache: cache)
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            let window = BrowserTestWindow(location: .folder(url), thumbnails: generator)
            let browser = window.browser
            defer { window.close() }
            XCTAssertTrue(spin { browser.model.count == Self.count })
            XCTAssertTrue(spin { !browser.grid.boundItems.isEmpty })
            XCTAssertLessThan(browser.grid.boundItems.count, Self.count, "the grid binds cells for part of the folder only")
            XCTAssertTrue(spin(timeout: 600) { Self.thumbnailed(photos, in: cache).count == Self.count },
                          "\(Self.thumbnailed(photos, in: cache).count) of \(Self.count) thumbnails")
            XCTAssertEqual(browser.scrollOffsets.first, 0, "the grid was never scrolled")
            let progress = try XCTUnwrap(browser.folderThumbnails.pass?.progress)
            XCTAssertGreaterThan(progress.queued, Self.count - browser.grid.boundItems.count - 1,
                                 "the cells' own requests did not cover the folder")
            XCTAssertTrue(spin { window.thumbnailsShown(browser) > 20 }, "the screenful shows its thumbnails")
            window.screenshot("background-thumbnails-1-top")
        }
    }

    func testACellScrolledIntoViewIsServedBeforeTheRestOfTheFolder() throws {
        let folder = try TemporaryFolder("background-thumbnails")
        let photos = try Self.photoFolder(folder)
        let cacheFolder = try TemporaryFolder("background-thumbnails-cache")
        let cache = ThumbnailCache(root: cacheFolder.url.appendingPathComponent("thumbnails"))
        let generator = ThumbnailGenerator(cache: cache, workers: 1)
        let held = HeldWorker(generator, file: try cacheFolder.write("held.png", bytes: Array(try Data(contentsOf: photos[0]))))
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            XCTAssertTrue(spin { held.held })
            let window = BrowserTestWindow(location: .folder(url), thumbnails: generator)
            let browser = window.browser
            defer { window.close() }
            // Every photo is queued in the background behind the first screenful's requests.
            XCTAssertTrue(spin { browser.model.count == Self.count })
            XCTAssertTrue(spin { browser.folderThumbnails.pass.map { !$0.progress.isLooking } ?? false })
            XCTAssertEqual(browser.folderThumbnails.pass?.progress.queued, Self.count)
            let boundAtTop = Set(browser.grid.boundItems.map(\.key))

            // The user goes to the end: its cells ask after the whole background queue.
            browser.reveal(Self.count - 1)
            let last = photos[Self.count - 1]
            XCTAssertTrue(spin { browser.grid.cell(showing: last) != nil && browser.grid.requests.isIdle }, "the last cells asked")
            let boundAtEnd = Set(browser.grid.boundItems.map(\.key))
            held.release()
            XCTAssertTrue(spin(timeout: 600) { Self.thumbnailed(photos, in: cache).count == Self.count },
                          "\(Self.thumbnailed(photos, in: cache).count) of \(Self.count) thumbnails")
            XCTAssertTrue(spin { browser.grid.cell(showing: last)?.hasThumbnail == true }, "the last cell shows its thumbnail")
            window.screenshot("background-thumbnails-2-end")

            // The photos no cell showed were made by the background only, after the last cell's.
            let unseen = photos.filter { !boundAtTop.contains($0.path) && !boundAtEnd.contains($0.path) }
            XCTAssertFalse(unseen.isEmpty, "some photos were never in a cell")
            let lastMade = Self.madeAt(last, in: cache)
            for photo in unseen {
                let made = Self.madeAt(photo, in: cache)
                XCTAssertTrue((lastMade.tv_sec, lastMade.tv_nsec) < (made.tv_sec, made.tv_nsec),
                              "\(photo.lastPathComponent) came after the cell scrolled into view")
            }
        }
    }

    func testScrollingHoldsTheBackgroundBackUntilTheViewIsStill() throws {
        let folder = try TemporaryFolder("background-thumbnails")
        let photos = try Self.photoFolder(folder)
        let cacheFolder = try TemporaryFolder("background-thumbnails-cache")
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: cacheFolder.url.appendingPathComponent("thumbnails")), workers: 1)
        let held = HeldWorker(generator, file: try cacheFolder.write("held.png", bytes: Array(try Data(contentsOf: photos[0]))))
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            XCTAssertTrue(spin { held.held })
            let window = BrowserTestWindow(location: .folder(url), thumbnails: generator)
            let browser = window.browser
            defer {
                window.close()
                held.release()
            }
            XCTAssertTrue(spin { browser.model.count == Self.count })
            XCTAssertTrue(spin { browser.folderThumbnails.pass.map { !$0.progress.isLooking } ?? false })
            XCTAssertFalse(generator.isHoldingBackground, "nothing scrolled yet")
            browser.folderThumbnails.stillness = .seconds(5)  // so that a loaded machine still sees the hold
            let adjustment = try XCTUnwrap(gtk_scrolled_window_get_vadjustment(OpaquePointer(browser.grid.scrolled)))
            XCTAssertTrue(spin { gtk_adjustment_get_upper(adjustment) > gtk_adjustment_get_page_size(adjustment) * 2 })
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_page_size(adjustment))
            XCTAssertTrue(generator.isHoldingBackground, "the view moved: the background waits")
            XCTAssertTrue(spin { !generator.isHoldingBackground }, "still again, it goes on")
        }
    }

    func testATextFileIsLeftToItsCell() throws {
        let folder = try TemporaryFolder("background-thumbnails-text")
        let notes = try folder.write("notes.txt", bytes: Array("A text file: its cell shows it.\n".utf8))
        let cacheFolder = try TemporaryFolder("background-thumbnails-cache")
        let cache = ThumbnailCache(root: cacheFolder.url.appendingPathComponent("thumbnails"))
        let generator = ThumbnailGenerator(cache: cache, workers: 1)
        // The one worker held: the cell's request waits, so the pass finds the text file still
        // lacking its thumbnail and leaves it by its type, not because the cell made it first.
        let held = HeldWorker(generator, file: try cacheFolder.write("held.txt", bytes: Array("held\n".utf8)))
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            XCTAssertTrue(spin { held.held })
            let window = BrowserTestWindow(location: .folder(url), thumbnails: generator)
            defer {
                window.close()
                held.release()
            }
            let browser = window.browser
            XCTAssertTrue(spin { browser.folderThumbnails.pass.map { !$0.progress.isLooking } ?? false })
            XCTAssertEqual(browser.folderThumbnails.pass?.progress.examined, 1)
            XCTAssertEqual(browser.folderThumbnails.pass?.progress.queued, 0, "no background thumbnail for text")
            XCTAssertTrue(Self.thumbnailed([notes], in: cache).isEmpty, "the cell's request still waits")
            held.release()
            XCTAssertTrue(spin { Self.thumbnailed([notes], in: cache) == [notes] }, "its cell on screen asked for it")
        }
    }

    func testLeavingTheFolderOrClosingTheWindowStopsTheBackground() throws {
        let folder = try TemporaryFolder("background-thumbnails")
        let photos = try Self.photoFolder(folder)
        let elsewhere = try TemporaryFolder("background-thumbnails-elsewhere")
        let cacheFolder = try TemporaryFolder("background-thumbnails-cache")
        let cache = ThumbnailCache(root: cacheFolder.url.appendingPathComponent("thumbnails"))
        let generator = ThumbnailGenerator(cache: cache, workers: 1)
        let image = Array(try Data(contentsOf: photos[0]))
        let held = HeldWorker(generator, file: try cacheFolder.write("held.png", bytes: image))
        try MainActor.assumeIsolated { [url = folder.url] in
            guard TestDisplay.initialize() else { throw XCTSkip("GTK could not open the display") }
            XCTAssertTrue(spin { held.held })
            let window = BrowserTestWindow(location: .folder(url), thumbnails: generator)
            let browser = window.browser
            var isOpen = true
            defer { if isOpen { window.close() } }
            XCTAssertTrue(spin { browser.model.count == Self.count })
            XCTAssertTrue(spin { browser.folderThumbnails.pass.map { !$0.progress.isLooking } ?? false })
            let pass = try XCTUnwrap(browser.folderThumbnails.pass)

            // The worker stops again a hundred photos into the background.
            let stop = HeldWorker(generator, file: try cacheFolder.write("stop.png", bytes: image),
                                  priority: ThumbnailGenerator.backgroundPriority - 100)
            held.release()
            XCTAssertTrue(spin(timeout: 600) { stop.held }, "the background reached its hundredth photo")
            let before = Self.thumbnailed(photos, in: cache)
            XCTAssertGreaterThanOrEqual(before.count, 100)
            XCTAssertLessThan(before.count, Self.count)
            XCTAssertGreaterThan(pass.progress.finished, 0, "the background made some")

            // Leaving the folder: what the background had queued is dropped.
            browser.go(to: .folder(elsewhere.url))
            XCTAssertTrue(spin { browser.model.count == 0 && browser.grid.boundItems.isEmpty })
            XCTAssertNil(browser.folderThumbnails.pass)
            stop.release()
            Self.waitForTheQueueToEmpty(generator, marker: try cacheFolder.write("marker-1.png", bytes: image))
            XCTAssertEqual(Self.thumbnailed(photos, in: cache), before, "no thumbnail was made after leaving")

            // Back in the folder, the background starts again; closing the window stops it.
            let heldAgain = HeldWorker(generator, file: try cacheFolder.write("held-again.png", bytes: image))
            XCTAssertTrue(spin { heldAgain.held })
            browser.goBack()
            XCTAssertTrue(spin { browser.model.count == Self.count })
            XCTAssertTrue(spin { browser.folderThumbnails.pass.map { !$0.progress.isLooking } ?? false })
            XCTAssertEqual(browser.folderThumbnails.pass?.progress.queued, Self.count - before.count, "only what lacks one")
            window.close()
            isOpen = false
            XCTAssertNil(browser.folderThumbnails.pass, "stopped with the window")
            heldAgain.release()
            Self.waitForTheQueueToEmpty(generator, marker: try cacheFolder.write("marker-2.png", bytes: image))
            // The cells shown again had theirs already: nothing at all was made.
            XCTAssertEqual(Self.thumbnailed(photos, in: cache), before, "no thumbnail was made after the window closed")
        }
    }
}

/// Set from a generator thread, read on the main thread.
private final class HeldWorkerMark: @unchecked Sendable {
    private let lock = NSLock()
    private var isReached = false
    var reached: Bool { lock.withLock { isReached } }
    func reach() { lock.withLock { isReached = true } }
}
