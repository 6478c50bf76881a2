import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// The browser's cell pictures from files it did not make (the shared cache's PNGs, a photo's
/// EXIF thumbnail), decoded in a thumbnail worker.
final class ThumbnailPicturesTests: XCTestCase {
    /// The premultiplied ARGB32 pixel at (x, y) as (red, green, blue, alpha).
    private func pixel(_ picture: ThumbnailPicture, _ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
        picture.blob.withUnsafeBytes { bytes in
            let word = bytes.load(fromByteOffset: y * picture.stride + x * 4, as: UInt32.self)
            return (Int(word >> 16 & 0xff), Int(word >> 8 & 0xff), Int(word & 0xff), Int(word >> 24))
        }
    }

    func testACachedPNGComesBackAtTheCellsSizeAsCairoPixels() throws {
        let folder = try TemporaryFolder()
        let png = try folder.write("thumbnail.png", bytes: TestImage.encode(TestImage.draw(width: 256, height: 192) { _, _ in (200, 40, 10) }, as: "png"))
        let picture = try XCTUnwrap(ThumbnailPictures.cachedThumbnail(atPath: png.path, fitting: 96))
        XCTAssertEqual(picture.width, 96)
        XCTAssertEqual(picture.height, 72)
        let (red, green, blue, alpha) = pixel(picture, 40, 30)
        XCTAssertEqual(alpha, 255)
        XCTAssertEqual(red, 200, accuracy: 2)
        XCTAssertEqual(green, 40, accuracy: 2)
        XCTAssertEqual(blue, 10, accuracy: 2)
    }

    func testASmallCachedPNGIsKeptAtItsOwnSize() throws {
        let folder = try TemporaryFolder()
        let png = try folder.write("small.png", bytes: TestImage.encode(TestImage.gradient(width: 40, height: 30), as: "png"))
        let picture = try XCTUnwrap(ThumbnailPictures.cachedThumbnail(atPath: png.path, fitting: 256))
        XCTAssertEqual([picture.width, picture.height], [40, 30])
    }

    func testHostilePNGsInTheCacheEndAsNoPicture() throws {
        let folder = try TemporaryFolder()
        let good = TestImage.encode(TestImage.gradient(width: 128, height: 96), as: "png")
        let hostile: [(String, [UInt8])] = [
            ("truncated.png", Array(good.prefix(good.count / 2))),
            ("bomb.png", EXIF.bombPNG(width: 100_000, height: 100_000)),
            ("garbage.png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }),
            ("empty.png", []),
        ]
        for (name, bytes) in hostile {
            let file = try folder.write(name, bytes: bytes)
            XCTAssertNil(ThumbnailPictures.cachedThumbnail(atPath: file.path, fitting: 128), name)
        }
        // A FIFO named like a thumbnail is not opened for the worker.
        let fifo = folder.url.appendingPathComponent("fifo.png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertNil(ThumbnailPictures.cachedThumbnail(atPath: fifo, fitting: 128))
        // The workers still decode the next one.
        let next = try folder.write("next.png", bytes: good)
        XCTAssertNotNil(ThumbnailPictures.cachedThumbnail(atPath: next.path, fitting: 128))
    }

    func testAWorkerThatCrashesOnACachedPNGEndsAsNoPictureAndTheNextIsDecoded() throws {
        let folder = try TemporaryFolder()
        let workers = DecoderWorkerPool(count: 1, testFormats: true)
        let crash = try folder.write("crash.png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
                                         + Array((misbehaviourMarker + "test.crash\n").utf8))
        XCTAssertNil(ThumbnailPictures.cachedThumbnail(atPath: crash.path, fitting: 128, workers: workers))
        let next = try folder.write("next.png", bytes: TestImage.encode(TestImage.gradient(width: 64, height: 48), as: "png"))
        let picture = try XCTUnwrap(ThumbnailPictures.cachedThumbnail(atPath: next.path, fitting: 128, workers: workers))
        XCTAssertEqual([picture.width, picture.height], [64, 48])
    }

    func testAPhotosEXIFThumbnailComesUprightAtTheCellsSize() throws {
        let folder = try TemporaryFolder()
        // Red on the left half of the camera's picture; orientation 6: turned a quarter clockwise,
        // the red half is on top.
        let embedded = TestImage.encode(TestImage.draw(width: 160, height: 120) { x, _ in x < 80 ? (230, 0, 0) : (0, 0, 230) }, as: "jpeg")
        let photo = try folder.write("camera.jpg", bytes: EXIF.inserting(
            into: TestImage.encode(TestImage.gradient(width: 640, height: 480), as: "jpeg"), orientation: 6, thumbnail: embedded))
        let picture = try XCTUnwrap(ThumbnailPictures.embeddedThumbnail(ofPhotoAt: photo.path, fitting: 80))
        XCTAssertEqual([picture.width, picture.height], [60, 80])
        XCTAssertGreaterThan(pixel(picture, 30, 10).0, 180, "the red half is on top")
        XCTAssertGreaterThan(pixel(picture, 30, 70).2, 180, "the blue half below")
    }

    func testAPhotoWithoutOrWithAHostileEXIFThumbnailHasNoQuickPicture() throws {
        let folder = try TemporaryFolder()
        let jpeg = TestImage.encode(TestImage.gradient(width: 320, height: 240), as: "jpeg")
        let bare = try folder.write("bare.jpg", bytes: jpeg)
        XCTAssertNil(ThumbnailPictures.embeddedThumbnail(ofPhotoAt: bare.path, fitting: 128))
        let embedded = TestImage.encode(TestImage.gradient(width: 160, height: 120), as: "jpeg")
        var damaged = embedded
        for index in stride(from: 200, to: damaged.count - 2, by: 3) { damaged[index] = 0xff }
        let hostile: [[UInt8]] = [
            Array(embedded.prefix(100)),                                  // cut inside its tables
            [0xff, 0xd8] + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 131) },  // not a JPEG past its signature
            damaged,                                                      // markers all through its data
        ]
        for (index, thumbnail) in hostile.enumerated() {
            let photo = try folder.write("hostile-\(index).jpg", bytes: EXIF.inserting(into: jpeg, orientation: 1, thumbnail: thumbnail))
            // No picture, or a picture of at most its own size: never a crash of the caller.
            if let picture = ThumbnailPictures.embeddedThumbnail(ofPhotoAt: photo.path, fitting: 128) {
                XCTAssertLessThanOrEqual(max(picture.width, picture.height), 128, "hostile thumbnail \(index)")
            }
        }
        let good = try folder.write("good.jpg", bytes: EXIF.inserting(into: jpeg, orientation: 1, thumbnail: embedded))
        XCTAssertNotNil(ThumbnailPictures.embeddedThumbnail(ofPhotoAt: good.path, fitting: 128))
    }

    func testNoGdkPixbufLoaderModuleIsLoadedForCellPictures() throws {
        let folder = try TemporaryFolder()
        let png = try folder.write("thumbnail.png", bytes: TestImage.encode(TestImage.gradient(width: 128, height: 96), as: "png"))
        let photo = try folder.write("camera.jpg", bytes: EXIF.inserting(
            into: TestImage.encode(TestImage.gradient(width: 320, height: 240), as: "jpeg"), orientation: 1,
            thumbnail: TestImage.encode(TestImage.gradient(width: 160, height: 120), as: "jpeg")))
        let before = loaderModules()
        for _ in 0..<3 {
            XCTAssertNotNil(ThumbnailPictures.cachedThumbnail(atPath: png.path, fitting: 96))
            XCTAssertNotNil(ThumbnailPictures.embeddedThumbnail(ofPhotoAt: photo.path, fitting: 96))
        }
        // Debian 12 builds the PNG and JPEG loaders into libgdk_pixbuf itself; where they are
        // modules (glycin's, or another build's), none may have been loaded by the pictures.
        XCTAssertEqual(loaderModules().subtracting(before), [])
    }

    /// The GdkPixbuf loader modules (and glycin) mapped into this process, by file name.
    private func loaderModules() -> Set<String> {
        guard let file = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(file) }
        var names = Set<String>()
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard let slash = text.lastIndex(of: "/") else { continue }
            let name = text[text.index(after: slash)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if name.hasPrefix("libpixbufloader") || name.contains("glycin") { names.insert(name) }
        }
        return names
    }
}
