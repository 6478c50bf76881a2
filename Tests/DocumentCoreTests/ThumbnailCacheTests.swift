import CGLib
import CImaging
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

final class ThumbnailCacheTests: XCTestCase {
    private func md5(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return String(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(32))
    }

    func testAThumbnailFollowsTheStandard() throws {
        let folder = try TemporaryFolder()
        let image = try folder.write("holiday photo.png", bytes: TestImage.encode(TestImage.gradient(width: 800, height: 600), as: "png"))
        let cache = ThumbnailCache(root: folder.url.appendingPathComponent("cache/thumbnails"))
        let generator = ThumbnailGenerator(cache: cache)
        let thumbnail = try generator.thumbnail(of: image, size: .large)
        XCTAssertEqual(thumbnail.origin, .generated)
        XCTAssertEqual(thumbnail.thumbnailer, "image")

        // Named by the MD5 of the file's URI, in large/.
        let uri = "file://" + image.path.replacingOccurrences(of: " ", with: "%20")
        XCTAssertEqual(thumbnail.url.lastPathComponent, try md5(uri) + ".png")
        XCTAssertEqual(thumbnail.url.deletingLastPathComponent().lastPathComponent, "large")

        // The keys, read back by GdkPixbuf's PNG loader.
        let png = try TestImage.load(thumbnail.url)
        let mtime = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: image.path)[.modificationDate] as? Date)
        let keys = TestImage.textKeys(png, ["Thumb::URI", "Thumb::MTime", "Thumb::Size", "Thumb::Mimetype",
                                           "Thumb::Image::Width", "Thumb::Image::Height"])
        XCTAssertEqual(keys["Thumb::URI"], uri)
        XCTAssertEqual(keys["Thumb::MTime"], String(Int(mtime.timeIntervalSince1970)))
        XCTAssertEqual(keys["Thumb::Size"], String(try Data(contentsOf: image).count))
        XCTAssertEqual(keys["Thumb::Mimetype"], "image/png")
        XCTAssertEqual(keys["Thumb::Image::Width"], "800")
        XCTAssertEqual(keys["Thumb::Image::Height"], "600")
        XCTAssertTrue(TestImage.size(png) == (256, 192))

        // Modes: folders 0700, files 0600; no temporary file left behind.
        func mode(_ url: URL) throws -> Int { try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! Int }
        XCTAssertEqual(try mode(cache.root), 0o700)
        XCTAssertEqual(try mode(thumbnail.url.deletingLastPathComponent()), 0o700)
        XCTAssertEqual(try mode(thumbnail.url), 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: thumbnail.url.deletingLastPathComponent().path).count, 1)
    }

    func testContentMatchesAReferenceDownscale() throws {
        let folder = try TemporaryFolder()
        let original = TestImage.gradient(width: 1600, height: 1200)
        let png = try folder.write("big.png", bytes: TestImage.encode(original, as: "png"))
        let jpeg = try folder.write("big.jpg", bytes: TestImage.encode(original, as: "jpeg"))
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        let reference = TestPixbuf(taking: gdk_pixbuf_scale_simple(original.pointer, 256, 192, GDK_INTERP_HYPER)!)
        for file in [png, jpeg] {
            let thumbnail = try TestImage.load(try generator.thumbnail(of: file, size: .large).url)
            XCTAssertTrue(TestImage.size(thumbnail) == (256, 192), file.lastPathComponent)
            XCTAssertLessThan(TestImage.difference(thumbnail, reference), 6, "\(file.lastPathComponent) looks like the image")
        }
    }

    func testWebPAndTIFFGoThroughGdkPixbufLoaders() throws {
        let folder = try TemporaryFolder()
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        let picture = TestImage.gradient(width: 640, height: 480)
        for format in ["tiff", "webp"] {
            let encoded = TestImage.encode(picture, as: format)
            guard !encoded.isEmpty else {
                XCTFail("GdkPixbuf cannot write \(format): is its loader installed (webp-pixbuf-loader)?")
                continue
            }
            let file = try folder.write("picture.\(format)", bytes: encoded)
            let thumbnail = try TestImage.load(try generator.thumbnail(of: file, size: .large).url)
            XCTAssertTrue(TestImage.size(thumbnail) == (256, 192), format)
        }
    }

    func testSmallImagesAreNotScaledUp() throws {
        let folder = try TemporaryFolder()
        let small = try folder.write("icon.png", bytes: TestImage.encode(TestImage.gradient(width: 40, height: 30), as: "png"))
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        let thumbnail = try TestImage.load(try generator.thumbnail(of: small, size: .xLarge).url)
        XCTAssertTrue(TestImage.size(thumbnail) == (40, 30))
    }

    func testEXIFOrientationIsApplied() throws {
        let folder = try TemporaryFolder()
        // Stored landscape, left half red, right half blue; orientation 6 shows it turned a
        // quarter clockwise: portrait, red on top.
        let stored = TestImage.draw(width: 800, height: 600) { x, _ in x < 400 ? (220, 20, 20) : (20, 20, 220) }
        let file = try folder.write("turned.jpg", bytes: EXIF.inserting(into: TestImage.encode(stored, as: "jpeg"), orientation: 6))
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        let thumbnail = try TestImage.load(try generator.thumbnail(of: file, size: .large).url)
        XCTAssertTrue(TestImage.size(thumbnail) == (192, 256))
        XCTAssertGreaterThan(TestImage.pixel(thumbnail, 96, 20).0, 150, "red on top")
        XCTAssertGreaterThan(TestImage.pixel(thumbnail, 96, 236).2, 150, "blue at the bottom")
    }

    func testASecondRequestIsACacheHitUntilTheFileChanges() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a.png", bytes: TestImage.encode(TestImage.gradient(width: 300, height: 300), as: "png"))
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        XCTAssertEqual(try generator.thumbnail(of: file, size: .normal).origin, .generated)
        XCTAssertEqual(try generator.thumbnail(of: file, size: .normal).origin, .cache)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: file.path)
        XCTAssertEqual(try generator.thumbnail(of: file, size: .normal).origin, .generated, "a new mtime invalidates")
        XCTAssertEqual(try generator.thumbnail(of: file, size: .large).origin, .generated, "each size is its own")
    }

    func testFailuresAreRecordedAndNotRetriedUntilTheFileChanges() throws {
        let folder = try TemporaryFolder()
        let broken = try folder.write("broken.png", bytes: Array(SampleFiles.png.prefix(40)))
        let cache = ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails"))
        let generator = ThumbnailGenerator(cache: cache)
        XCTAssertThrowsError(try generator.thumbnail(of: broken, size: .large)) {
            guard case .decodingFailed = $0 as? ThumbnailError else { return XCTFail("\($0)") }
        }
        let uri = URL(fileURLWithPath: broken.path).absoluteString
        let failure = cache.failureLocation(of: uri)
        XCTAssertTrue(failure.path.hasSuffix("/fail/dossier-\(dossierVersion)/" + ThumbnailCache.fileName(for: uri)))
        let keys = TestImage.textKeys(try TestImage.load(failure), ["Thumb::URI", "Thumb::MTime"])
        XCTAssertEqual(keys["Thumb::URI"], uri)
        XCTAssertThrowsError(try generator.thumbnail(of: broken, size: .large)) {
            XCTAssertEqual($0 as? ThumbnailError, .failedBefore(name: "broken.png"))
        }
        // Repaired: tried again.
        try Data(SampleFiles.png).write(to: broken)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: broken.path)
        XCTAssertEqual(try generator.thumbnail(of: broken, size: .large).origin, .generated)
    }

    func testADecompressionBombIsRefusedWithoutDecoding() throws {
        let folder = try TemporaryFolder()
        let bomb = try folder.write("bomb.png", bytes: EXIF.bombPNG(width: 30_000, height: 30_000))
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        var before = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        XCTAssertThrowsError(try generator.thumbnail(of: bomb, size: .large)) {
            XCTAssertEqual($0 as? ThumbnailError, .tooLarge(name: "bomb.png", width: 30_000, height: 30_000))
        }
        var after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &after)
        // Decoding would need 3.6 GB; the peak grew by less than 50 MB.
        XCTAssertLessThan(after.ru_maxrss - before.ru_maxrss, 50 * 1024)
    }

    func testNothingInsideTheCacheIsThumbnailed() throws {
        let folder = try TemporaryFolder()
        let cache = ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails"))
        let generator = ThumbnailGenerator(cache: cache)
        let file = try folder.write("a.png", bytes: SampleFiles.png)
        let thumbnail = try generator.thumbnail(of: file, size: .normal)
        XCTAssertThrowsError(try generator.thumbnail(of: thumbnail.url, size: .normal)) {
            guard case .insideCache = $0 as? ThumbnailError else { return XCTFail("\($0)") }
        }
    }

    func testPDFAndTextThumbnails() throws {
        let folder = try TemporaryFolder()
        let pdf = try folder.write("paper.pdf", SampleFiles.pdf)
        let text = try folder.write("notes.txt", String(repeating: "A line of text in the notes.\n", count: 200))
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        let page = try TestImage.load(try generator.thumbnail(of: pdf, size: .large).url)
        XCTAssertTrue(TestImage.size(page) == (256, 256), "the sample page is square")
        XCTAssertEqual(TestImage.pixel(page, 5, 5).0, 255, "white paper")
        let lines = try generator.thumbnail(of: text, size: .large)
        XCTAssertEqual(lines.thumbnailer, "text")
        let picture = try TestImage.load(lines.url)
        XCTAssertTrue(TestImage.size(picture) == (192, 256))
        var dark = 0
        for y in stride(from: 0, to: 256, by: 4) { for x in stride(from: 0, to: 192, by: 2) where TestImage.pixel(picture, x, y).0 < 128 { dark += 1 } }
        XCTAssertGreaterThan(dark, 100, "text was drawn")
    }
}
