import CGLib
import CImaging
import DecoderWire
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// The previewer's images are decoded in a decoder worker and come back as pixels in a sealed
/// memfd, as they looked when GdkPixbuf decoded them in the previewer: at the size asked,
/// upright, an SVG at its own size or larger when zoomed, an animation's frames with their
/// delays, and a damaged file or a bomb refused with a message.
final class ImageDecodingTests: XCTestCase {
    private func decode(_ url: URL, _ size: ImageDecoding.Size, still: Bool = false) throws -> DecodedImage {
        try ImageDecoding.decodeNow(url.rawPath, type: DocumentType(fileName: url.lastPathComponent), size: size, still: still)
    }

    private func still(_ image: DecodedImage, file: StaticString = #filePath, line: UInt = #line) throws -> StillImage {
        guard case .still(let still) = image else {
            XCTFail("a still image, not an animation", file: file, line: line)
            throw CocoaError(.fileReadCorruptFile)
        }
        return still
    }

    /// The pixel at (x, y) as RGB.
    private func pixel(_ pixels: ImagePixels, _ x: Int, _ y: Int) -> [UInt8] {
        let channels = pixels.hasAlpha ? 4 : 3
        return pixels.blob.withUnsafeBytes { bytes in
            let start = pixels.offset + y * pixels.stride + x * channels
            return Array(bytes[start..<start + 3])
        }
    }

    private func close(_ a: [UInt8], _ b: [UInt8], within tolerance: Int = 24) -> Bool {
        zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    func testALargePhotoIsDecodedAtTheFittingEdgeAsGdkPixbufDecodesIt() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("photo.jpg", bytes: TestImage.encode(TestImage.gradient(width: 1600, height: 1000), as: "jpeg"))
        let image = try still(decode(url, .fitting(800)))
        XCTAssertEqual([image.pixels.width, image.pixels.height], [800, 500])
        XCTAssertEqual([image.fullWidth, image.fullHeight, image.edge], [1600, 1000, 800])
        XCTAssertFalse(image.isVector)
        // The same pixels GdkPixbuf's own scaled decode gives in this process.
        let reference = TestPixbuf(taking: try XCTUnwrap(gdk_pixbuf_new_from_file_at_scale(url.path, 800, 800, 1, nil)))
        for (x, y) in [(0, 0), (799, 0), (400, 250), (0, 499), (799, 499)] {
            let (r, g, b) = TestImage.pixel(reference, x, y)
            XCTAssertEqual(pixel(image.pixels, x, y), [UInt8(r), UInt8(g), UInt8(b)], "(\(x), \(y))")
        }
    }

    func testASmallImageKeepsItsOwnSizeAndLargerAsksDoNotEnlargeIt() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("icon.png", bytes: TestImage.encode(TestImage.gradient(width: 64, height: 48), as: "png"))
        for size in [ImageDecoding.Size.fitting(1000), .enlarged(4096)] {
            let image = try still(decode(url, size))
            XCTAssertEqual([image.pixels.width, image.pixels.height, image.edge], [64, 48, 64], "\(size)")
        }
    }

    /// XPM and XBM: GdkPixbuf reads them piece by piece only through a temporary file, which the
    /// worker may not write; their header is read from the text and the file decoded whole.
    func testXPMAndXBMPicturesDecodeInTheWorkerAtTheirSizeAndSmaller() throws {
        let folder = try TemporaryFolder()
        // 8 × 4: the left half red, the right half blue (a comment and a C declaration first).
        let rows = (0..<4).map { _ in "\"rrrrbbbb\"" }.joined(separator: ",\n")
        let xpm = try folder.write("flag.xpm", "/* XPM */\n/* made by hand */\nstatic char *flag[] = {\n\"8 4 2 1\",\n"
                                   + "\"r c #FF0000\",\n\"b c #0000FF\",\n\(rows)\n};\n")
        let whole = try still(decode(xpm, .fitting(1000)))
        XCTAssertEqual([whole.pixels.width, whole.pixels.height, whole.fullWidth, whole.fullHeight], [8, 4, 8, 4])
        XCTAssertEqual(pixel(whole.pixels, 1, 1), [255, 0, 0])
        XCTAssertEqual(pixel(whole.pixels, 6, 2), [0, 0, 255])
        let half = try still(decode(xpm, .width(4)))
        XCTAssertEqual([half.pixels.width, half.pixels.height], [4, 2])
        // 16 × 2 bits, the first byte of each row set: its left 8 pixels black.
        let xbm = try folder.write("bar.xbm", "#define bar_width 16\n#define bar_height 2\n"
                                   + "static unsigned char bar_bits[] = {\n   0xff, 0x00, 0xff, 0x00 };\n")
        let bits = try still(decode(xbm, .fitting(8)))
        XCTAssertEqual([bits.pixels.width, bits.pixels.height, bits.fullWidth, bits.fullHeight], [8, 1, 16, 2])
    }

    func testTheTextHeadersOfXPMAndXBM() {
        XCTAssertEqual(ImageHeader.textual("/* XPM */\nstatic char *x[] = {\n\"640 480 256 2\",\n"), ImageHeader(format: "xpm", width: 640, height: 480))
        XCTAssertEqual(ImageHeader.textual("#define a_width 7\n#define a_height 9\n"), ImageHeader(format: "xbm", width: 7, height: 9))
        XCTAssertNil(ImageHeader.textual("/* XPM */\nstatic char *x[] = {\n\"0 480 256 2\",\n"))
        XCTAssertNil(ImageHeader.textual("just some text\n"))
    }

    func testAnImageTurnedByEXIFComesUpright() throws {
        // Left half red, right half blue, stored 60 × 40; orientation 6: shown turned a quarter
        // clockwise, 40 × 60, red on top.
        let picture = TestImage.draw(width: 60, height: 40) { x, _ in x < 30 ? (255, 0, 0) : (0, 0, 255) }
        let folder = try TemporaryFolder()
        let url = try folder.write("turned.jpg", bytes: EXIF.inserting(into: TestImage.encode(picture, as: "jpeg"), orientation: 6))
        let image = try still(decode(url, .fitting(1000)))
        XCTAssertEqual([image.pixels.width, image.pixels.height], [40, 60])
        XCTAssertTrue(close(pixel(image.pixels, 20, 5), [255, 0, 0]), "red on top: \(pixel(image.pixels, 20, 5))")
        XCTAssertTrue(close(pixel(image.pixels, 20, 55), [0, 0, 255]), "blue below: \(pixel(image.pixels, 20, 55))")
    }

    func testAnSVGIsDrawnAtItsOwnSizeThenLargerWhenZoomedIn() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("drawing.svg", """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">\
            <rect width="50" height="50" fill="#ff0000"/><rect x="50" width="50" height="50" fill="#0000ff"/></svg>
            """)
        let own = try still(decode(url, .fitting(1000)))
        XCTAssertTrue(own.isVector)
        XCTAssertEqual([own.pixels.width, own.pixels.height, own.fullWidth, own.fullHeight], [100, 50, 100, 50])
        let zoomed = try still(decode(url, .enlarged(ImageDecoding.largestEdge)))
        XCTAssertEqual([zoomed.pixels.width, zoomed.pixels.height, zoomed.edge], [4096, 2048, 4096], "drawn again, larger")
        XCTAssertTrue(close(pixel(zoomed.pixels, 100, 1000), [255, 0, 0]))
        XCTAssertTrue(close(pixel(zoomed.pixels, 4000, 1000), [0, 0, 255]))
    }

    func testAnAnimatedGIFGivesEveryFrameWithItsDelay() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("blink.gif", bytes: AnimatedGIF.make(width: 4, height: 2, frames: [1, 2, 3], delays: [10, 25, 40]))
        guard case .animation(let animation) = try decode(url, .fitting(1000)) else { return XCTFail("an animation") }
        XCTAssertEqual(animation.frames.count, 3)
        XCTAssertEqual(animation.delays, [100, 250, 400])
        XCTAssertEqual(animation.loops, 0, "NETSCAPE2.0 with 0: for ever")
        for (frame, colour) in zip(animation.frames, [[255, 0, 0], [0, 255, 0], [0, 0, 255]] as [[UInt8]]) {
            XCTAssertEqual([frame.width, frame.height], [4, 2])
            XCTAssertEqual(pixel(frame, 3, 1), colour)
        }
        // Every frame in the one sealed memfd.
        XCTAssertTrue(animation.frames.allSatisfy { $0.blob === animation.frames[0].blob })
        guard case .still(let first) = try decode(url, .fitting(1000), still: true) else { return XCTFail("its first frame") }
        XCTAssertEqual(pixel(first.pixels, 0, 0), [255, 0, 0])
    }

    func testAGIFThatRepeatsTwicePlaysThreeTimesAsGdkPixbufPlayedIt() throws {
        // Where GdkPixbuf hands GIFs to glycin (Debian testing), they are decoded in this process
        // by glycin, which reports no loop count: the animation plays on.
        try XCTSkipIf(DecoderWorker.pixbufDecodesThroughGlycin, "glycin decodes GIFs here and reports no loop count")
        // NETSCAPE2.0's count is of repeats after the first play (as browsers read it, and GdkPixbuf).
        let folder = try TemporaryFolder()
        let url = try folder.write("twice.gif", bytes: AnimatedGIF.make(width: 2, height: 2, frames: [1, 3], delays: [10, 10], loops: 2))
        guard case .animation(let animation) = try decode(url, .fitting(1000)) else { return XCTFail("an animation") }
        XCTAssertEqual(animation.frames.count, 2)
        XCTAssertEqual(animation.loops, 3)
    }

    func testTheSamplePhotoDecodesToTheSamePixelsAsGdkPixbufInProcess() throws {
        // Where GdkPixbuf hands JPEGs to glycin (Debian testing), the worker decodes them with
        // libjpeg and GdkPixbuf with glycin's decoder: two decoders, not the same pixels.
        try XCTSkipIf(DecoderWorker.pixbufDecodesThroughGlycin, "GdkPixbuf decodes JPEGs with glycin here, the worker with libjpeg")
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/samples/photo.jpg").standardized
        for edge: Int32 in [512, 900, 1200] {
            let image = try still(decode(sample, .fitting(edge)))
            let decoded = TestPixbuf(taking: try XCTUnwrap(edge < 1200 ? gdk_pixbuf_new_from_file_at_scale(sample.path, edge, edge, 1, nil)
                                                                 : gdk_pixbuf_new_from_file(sample.path, nil)))
            let reference = TestPixbuf(taking: try XCTUnwrap(gdk_pixbuf_apply_embedded_orientation(decoded.pointer)))
            let (width, height) = TestImage.size(reference)
            XCTAssertEqual([Int(image.pixels.width), Int(image.pixels.height)], [width, height], "\(edge)")
            var differing = 0
            for y in 0..<height {
                for x in 0..<width {
                    let (r, g, b) = TestImage.pixel(reference, x, y)
                    if pixel(image.pixels, x, y) != [UInt8(r), UInt8(g), UInt8(b)] { differing += 1 }
                }
            }
            XCTAssertEqual(differing, 0, "at \(edge)")
        }
    }

    func testAnAnimationPastTheFrameLimitPlaysTheFramesThatFitForEver() throws {
        let count = ImageDecoder.frameLimit + 5
        let frames = (0..<count).map { UInt8(1 + $0 % 3) }
        let folder = try TemporaryFolder()
        let url = try folder.write("long.gif", bytes: AnimatedGIF.make(width: 2, height: 2, frames: frames,
                                                                       delays: Array(repeating: 2, count: count), loops: 1))
        guard case .animation(let animation) = try decode(url, .fitting(1000)) else { return XCTFail("an animation") }
        XCTAssertEqual(animation.frames.count, ImageDecoder.frameLimit)
        XCTAssertEqual(animation.loops, 0, "cut short: what fits plays in a loop")
    }

    func testTheSampleAnimationPlaysAsBefore() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples/animation.gif")
        let reference = TestPixbuf(taking: try XCTUnwrap(gdk_pixbuf_animation_new_from_file(sample.standardized.path, nil)))
        guard case .animation(let animation) = try decode(sample.standardized, .fitting(1000)) else { return XCTFail("an animation") }
        XCTAssertGreaterThan(animation.frames.count, 1)
        XCTAssertEqual(animation.frames[0].width, gdk_pixbuf_animation_get_width(reference.pointer))
        XCTAssertTrue(animation.delays.allSatisfy { $0 > 0 }, "\(animation.delays)")
        // Each frame as GdkPixbuf's own iterator composites it at that time.
        let iterator = TestPixbuf(taking: try XCTUnwrap(dossier_animation_iter_new(reference.pointer)))
        var time = 0
        for (index, frame) in animation.frames.enumerated() {
            dossier_animation_iter_advance_to(iterator.pointer, gint64(time))
            let expected = try XCTUnwrap(gdk_pixbuf_animation_iter_get_pixbuf(iterator.pointer))
            let stride = Int(gdk_pixbuf_get_rowstride(expected))
            let pixels = try XCTUnwrap(gdk_pixbuf_read_pixels(expected))
            let same = frame.blob.withUnsafeBytes { bytes in
                (0..<Int(frame.height)).allSatisfy { row in
                    memcmp(bytes.baseAddress! + frame.offset + row * frame.stride, pixels + row * stride, Int(frame.width) * 4) == 0
                }
            }
            XCTAssertTrue(same, "frame \(index)")
            time += animation.delays[index]
        }
    }

    func testADamagedImageEndsOnTheDecodersMessage() throws {
        let folder = try TemporaryFolder()
        let cut = Array(TestImage.encode(TestImage.gradient(width: 300, height: 200), as: "png").prefix(200))
        let url = try folder.write("cut.png", bytes: cut)
        XCTAssertThrowsError(try decode(url, .fitting(1000))) { error in
            guard case .undecodable(let reason) = error as? ImageDecodingError else { return XCTFail("\(error)") }
            XCTAssertFalse(reason.isEmpty)
            XCTAssertTrue((error as? ImageDecodingError)?.description.hasPrefix("The image could not be decoded: ") == true)
        }
        let garbage = try folder.write("garbage.png", bytes: Array(repeating: 0x41, count: 300))
        XCTAssertThrowsError(try decode(garbage, .fitting(1000))) { error in
            XCTAssertEqual(error as? ImageDecodingError, .unrecognised)
        }
    }

    func testABombIsRefusedBeforeDecodingWithItsSize() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("bomb.png", bytes: EXIF.bombPNG(width: 30_000, height: 30_000))
        XCTAssertThrowsError(try decode(url, .fitting(1000))) { error in
            XCTAssertEqual(error as? ImageDecodingError, .tooLarge(width: 30_000, height: 30_000))
            XCTAssertEqual((error as? ImageDecodingError)?.description, "The image is too large to show (30000 × 30000 pixels).")
        }
    }

    func testAJPEGDecodedByLibjpegLooksAsGdkPixbufsDecoding() throws {
        // The path taken where GdkPixbuf would give the JPEG to glycin (Debian testing).
        let folder = try TemporaryFolder()
        let picture = TestImage.draw(width: 60, height: 40) { x, _ in x < 30 ? (255, 0, 0) : (0, 0, 255) }
        let url = try folder.write("turned.jpg", bytes: EXIF.inserting(into: TestImage.encode(picture, as: "jpeg"), orientation: 6))
        let fd = open(url.path, O_RDONLY)
        defer { Foundation.close(fd) }
        var request = ImageDecoder.Request()
        request.edge = 1000
        request.jpegThroughLibjpeg = true
        let output = try DecoderWorker(limits: PreviewWorkers.limits).perform(.image(request.options), input: FileDescriptor(rawValue: fd))
        XCTAssertEqual([output.values["width"], output.values["height"]], ["40", "60"], "upright")
        XCTAssertEqual([output.values["fullWidth"], output.values["fullHeight"]], ["60", "40"])
    }

    /// A worker is not trusted: a reply whose layout would overflow or reach past its memfd is
    /// refused as malformed, never trapped on in the previewer's process.
    func testARepliesLayoutThatWouldOverflowIsRefused() throws {
        func output(_ values: [String: String], bytes: Int = 64) throws -> DecoderWorker.Output {
            let data = [UInt8](repeating: 7, count: bytes)
            let fd = try XCTUnwrap(data.withUnsafeBytes { SealedBlob.seal($0, name: "test-reply") })
            return DecoderWorker.Output(values: values, blob: try XCTUnwrap(SealedBlob(adopting: fd)))
        }
        let still = ["width": "2", "height": "2", "stride": "8", "channels": "4"]
        XCTAssertNoThrow(try ImageDecoding.image(from: try output(still)))
        let lies: [[String: String]] = [
            still.merging(["stride": String(Int.max / 2)]) { $1 },
            still.merging(["height": String(Int.max)]) { $1 },
            still.merging(["animation": "1", "frames": "2", "delays": "10,10", "stride": String(Int.max / 3)]) { $1 },
            still.merging(["animation": "1", "frames": "2", "delays": "10,10", "height": String(1 << 40)]) { $1 },
            still.merging(["animation": "1", "frames": "9", "delays": "10,10,10,10,10,10,10,10,10"]) { $1 },  // past the memfd
            still.merging(["animation": "1", "frames": "1", "delays": String(Int.max)]) { $1 },
        ]
        for values in lies {
            XCTAssertThrowsError(try ImageDecoding.image(from: try output(values)), "\(values)") { error in
                XCTAssertEqual(error as? ImageDecodingError, .malformedResult, "\(values)")
            }
        }
        // The image's own size is kept within bounds (a 1:1 zoom scales by it).
        guard case .still(let image) = try ImageDecoding.image(from: try output(still.merging(["fullWidth": String(Int32.max)]) { $1 }))
        else { return XCTFail("not a still image") }
        XCTAssertLessThanOrEqual(image.fullWidth, 1 << 20)
    }

    func testADecodeWhosePageWentBeforeAWorkerTookItIsDroppedUnsent() async throws {
        let folder = try TemporaryFolder()
        // JPEGs: the worker decodes them on every stack (where GdkPixbuf hands images to glycin,
        // a PNG is decoded by the caller). Each holds the only worker until its 3 s are up, if
        // it is sent.
        let signature: [UInt8] = [0xff, 0xd8, 0xff, 0xe0]
        let busy = try folder.write("busy.jpg", bytes: signature + Array("DOSSIER-TEST-MISBEHAVIOUR test.loop\n".utf8))
        let stale = try folder.write("stale.jpg", bytes: signature + Array("DOSSIER-TEST-MISBEHAVIOUR test.loop\n".utf8))
        let next = try folder.write("next.jpg", bytes: TestImage.encode(TestImage.gradient(width: 40, height: 30), as: "jpeg"))
        var limits = PreviewWorkers.limits
        limits.timeout = .seconds(3)
        let previous = PreviewWorkers.replaceWorkers(with: DecoderWorkerPool(count: 1, limits: limits, testFormats: true))
        defer { PreviewWorkers.replaceWorkers(with: previous) }
        func decoding(_ url: URL) -> Task<Result<DecodedImage, ImageDecodingError>, Never> {
            Task.detached { await ImageDecoding.decode(url.rawPath, type: DocumentType(fileName: url.lastPathComponent), size: .fitting(64)) }
        }
        let first = decoding(busy)
        let left = decoding(stale)
        left.cancel()  // arrowed past while it waited
        let last = decoding(next)
        guard case .failure(.cancelled) = await left.value else { return XCTFail("the stale decode was sent") }
        guard case .failure(.timedOut(3)) = await first.value else { return XCTFail("the first decode held the worker") }
        guard case .success(.still(let image)) = await last.value else { return XCTFail("the next image decodes") }
        XCTAssertEqual(image.pixels.width, 40)
    }
}
