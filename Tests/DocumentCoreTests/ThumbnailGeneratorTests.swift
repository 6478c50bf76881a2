import CGLib
import CImaging
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Collects what a request delivers, from generator threads.
private final class Deliveries: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private var pictures: [ThumbnailPicture] = []

    func record(_ result: Result<ThumbnailGenerator.Representation, ThumbnailError>, tag: String = "") {
        lock.withLock {
            switch result {
            case .success(.icon): items.append(tag + "icon")
            case .success(.lowQuality(let picture)):
                items.append(tag + "low")
                pictures.append(picture)
            case .success(.thumbnail(let thumbnail)): items.append(tag + "thumbnail \(thumbnail.origin.rawValue)")
            case .failure(let error): items.append(tag + "failed \(error)")
            }
        }
    }

    var all: [String] { lock.withLock { items } }
    var lowQuality: [ThumbnailPicture] { lock.withLock { pictures } }
}

final class ThumbnailGeneratorTests: XCTestCase {
    func testIconFirstThenTheQuickPictureThenTheThumbnail() throws {
        let folder = try TemporaryFolder()
        let embedded = TestImage.encode(TestImage.gradient(width: 160, height: 120), as: "jpeg")
        let photo = try folder.write("camera.jpg", bytes: EXIF.inserting(
            into: TestImage.encode(TestImage.gradient(width: 1600, height: 1200), as: "jpeg"), orientation: 1, thumbnail: embedded))
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        let deliveries = Deliveries()
        generator.generate(.init(url: photo, size: 128, scale: 2)) { deliveries.record($0) }
        XCTAssertEqual(deliveries.all, ["icon"], "the icon comes before generate returns")
        XCTAssertTrue(eventually { deliveries.all.count == 3 })
        XCTAssertEqual(deliveries.all, ["icon", "low", "thumbnail generated"])
        // The quick picture is the camera's own 160×120 thumbnail (it fits the 256 pixels asked).
        let quick = deliveries.lowQuality[0]
        XCTAssertEqual([quick.width, quick.height], [160, 120])

        // Asked again at a larger size, the cached smaller one is the quick picture.
        let again = Deliveries()
        generator.generate(.init(url: photo, size: 512)) { again.record($0) }
        XCTAssertTrue(eventually { again.all.count == 3 })
        XCTAssertEqual(again.all, ["icon", "low", "thumbnail generated"])
        // The cached 256-pixel thumbnail, decoded at the 512 pixels asked: its own size.
        XCTAssertEqual(again.lowQuality.map { [$0.width, $0.height] }, [[256, 192]])
    }

    func testVisibleItemsCanJumpTheQueueAndCancelledOnesNeverArrive() throws {
        let folder = try TemporaryFolder()
        let files = try (0..<12).map { index in
            try folder.write("image-\(index).png", bytes: TestImage.encode(TestImage.gradient(width: 900, height: 700), as: "png"))
        }
        // One worker, so the queue order is the order of work.
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")), workers: 1)
        let deliveries = Deliveries()
        // The worker waits in its first delivery until the queue has been rearranged, so the
        // order does not depend on how fast the machine is (its first job is 0, or 11 if it
        // started only after the raise).
        let rearranged = DispatchSemaphore(value: 0)
        var handles: [ThumbnailGenerator.Handle] = []
        for (index, file) in files.enumerated() {
            handles.append(generator.generate(.init(url: file, size: 256, representations: .thumbnail)) {
                if deliveries.all.isEmpty { rearranged.wait() }
                deliveries.record($0, tag: "\(index) ")
            })
        }
        handles[11].setPriority(10)  // scrolled into view
        handles[5].cancel()          // scrolled out of view
        // Last in the queue (lowest priority): once it arrives, everything before it has.
        let last = files[0].deletingLastPathComponent().appendingPathComponent("image-last.png")
        try FileManager.default.copyItem(at: files[0], to: last)
        _ = generator.generate(.init(url: last, size: 256, representations: .thumbnail, priority: -1)) {
            deliveries.record($0, tag: "last ")
        }
        rearranged.signal()
        XCTAssertTrue(eventually(timeout: 300) { deliveries.all.last?.hasPrefix("last ") == true })
        let order = deliveries.all.dropLast().map { Int($0.split(separator: " ")[0])! }
        XCTAssertEqual(order.count, 11, "\(deliveries.all)")
        XCTAssertFalse(order.contains(5), "the cancelled request delivered nothing")
        XCTAssertTrue(order.prefix(2).contains(11), "the raised request ran first or next: \(order)")
    }

    func testWaitingQuickPicturesComeBeforeFullThumbnailsAndPlaceholdersBeforeUpgrades() throws {
        let folder = try TemporaryFolder()
        let embedded = TestImage.encode(TestImage.gradient(width: 160, height: 120), as: "jpeg")
        let photo = TestImage.encode(TestImage.gradient(width: 1600, height: 1200), as: "jpeg")
        let cameras = try (0..<4).map {
            try folder.write("camera-\($0).jpg", bytes: EXIF.inserting(into: photo, orientation: 1, thumbnail: embedded))
        }
        let plain = try folder.write("plain.png", bytes: TestImage.encode(TestImage.gradient(width: 900, height: 700), as: "png"))
        let bare = try folder.write("bare.jpg", bytes: photo)
        // One worker, so the queue order is the order of work; it waits in its first delivery
        // until every request is queued.
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")), workers: 1)
        let deliveries = Deliveries()
        let queued = DispatchSemaphore(value: 0)
        for (index, file) in cameras.enumerated() {
            generator.generate(.init(url: file, size: 128, representations: [.lowQuality, .thumbnail], priority: 10 - index)) {
                if deliveries.all.isEmpty { queued.wait() }
                deliveries.record($0, tag: "\(index) ")
            }
        }
        // The most urgent, a photo without an EXIF thumbnail: its full decode waits for the others' quick pictures.
        generator.generate(.init(url: bare, size: 128, representations: [.lowQuality, .thumbnail], priority: 20)) {
            deliveries.record($0, tag: "bare ")
        }
        // The least urgent, with no quick picture to show (a PNG never cached).
        generator.generate(.init(url: plain, size: 128, representations: [.lowQuality, .thumbnail], priority: 0)) {
            deliveries.record($0, tag: "plain ")
        }
        queued.signal()
        XCTAssertTrue(eventually(timeout: 300) { deliveries.all.count == 10 })
        XCTAssertEqual(deliveries.all, [
            "0 low", "1 low", "2 low", "3 low",
            "bare thumbnail generated", "plain thumbnail generated",
            "0 thumbnail generated", "1 thumbnail generated", "2 thumbnail generated", "3 thumbnail generated",
        ])
    }

    func testACancelledRequestWhoseQuickPictureWasShownStillCachesItsThumbnailForNoOne() throws {
        let folder = try TemporaryFolder()
        let embedded = TestImage.encode(TestImage.gradient(width: 160, height: 120), as: "jpeg")
        let photo = try folder.write("camera.jpg", bytes: EXIF.inserting(
            into: TestImage.encode(TestImage.gradient(width: 1600, height: 1200), as: "jpeg"), orientation: 1, thumbnail: embedded))
        let other = try folder.write("other.png", bytes: TestImage.encode(TestImage.gradient(width: 300, height: 200), as: "png"))
        let cache = ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails"))
        let generator = ThumbnailGenerator(cache: cache, workers: 1)
        let deliveries = Deliveries()
        let shown = DispatchSemaphore(value: 0), cancelled = DispatchSemaphore(value: 0)
        let handle = generator.generate(.init(url: photo, size: 128, representations: [.lowQuality, .thumbnail], priority: 5)) {
            deliveries.record($0, tag: "photo ")
            if deliveries.all.count == 1 {
                shown.signal()
                cancelled.wait()  // the cell scrolls away while its quick picture is on screen
            }
        }
        XCTAssertEqual(shown.wait(timeout: .now() + 60), .success)
        handle.cancel()
        // Below the photo's deferred thumbnail: once it arrives, that thumbnail has been made.
        generator.generate(.init(url: other, size: 128, representations: .thumbnail,
                                 priority: 5 - ThumbnailGenerator.quickPictureLead - 1)) { deliveries.record($0, tag: "end ") }
        cancelled.signal()
        XCTAssertTrue(eventually(timeout: 300) { deliveries.all.last?.hasPrefix("end ") == true })
        XCTAssertEqual(deliveries.all, ["photo low", "end thumbnail generated"], "nothing more was delivered for the cancelled request")
        // Named by the MD5 of the file's URI (Thumbnail Managing Standard).
        let uri = try XCTUnwrap(g_filename_to_uri(photo.path, nil, nil))
        let checksum = try XCTUnwrap(g_compute_checksum_for_string(G_CHECKSUM_MD5, uri, -1))
        let name = String(cString: checksum) + ".png"
        g_free(uri)
        g_free(checksum)
        let thumbnails = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("thumbnails/normal").path)
        XCTAssertTrue(thumbnails.contains(name), "the photo's thumbnail is in the cache: \(thumbnails)")
    }

    func testThousandsOfQueuedRequestsHoldNoPixels() throws {
        let folder = try TemporaryFolder()
        let image = try folder.write("one.png", bytes: TestImage.encode(TestImage.gradient(width: 2000, height: 1500), as: "png"))
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")), workers: 2)
        let deliveries = Deliveries()
        var before = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        for _ in 0..<2_000 {
            generator.generate(.init(url: image, size: 256, representations: .thumbnail)) { deliveries.record($0) }
        }
        // A safety net: under AddressSanitizer with whole allocation stacks, on a busy machine,
        // the 2,000 requests (nearly all answered from the cache) are slow.
        XCTAssertTrue(eventually(timeout: 300) { deliveries.all.count == 2_000 })
        var after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &after)
        // Queued requests are a URL and a size each; pixels exist only in the two workers.
        XCTAssertLessThan(after.ru_maxrss - before.ru_maxrss, 150 * 1024)
    }
}
