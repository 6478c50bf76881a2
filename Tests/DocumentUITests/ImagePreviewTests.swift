import CGLib
import CGtk
import CImaging
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentUI

/// The previewer shows images decoded in its decoder workers, in a real window: a photo, one
/// turned by EXIF, an SVG drawn again larger when zoomed in, an animated GIF that plays, a
/// damaged image on its error page with the decoder's message; and a worker that crashes or
/// hangs ends its item on the error page while the next item previews.
final class ImagePreviewTests: XCTestCase {
    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    /// A window with a stack, where pages are shown as the previewer's window shows them.
    @MainActor
    private final class Window {
        let window = gtk_window_new()!
        let stack = gtk_stack_new()!

        init() {
            gtk_window_set_default_size(cast(window), 900, 700)
            gtk_window_set_child(cast(window), stack)
            gtk_window_present(cast(window))
        }

        /// Shows `file` in a page and waits until it is ready or failed.
        func show(_ file: URL) -> PreviewPage {
            let page = PreviewPage(item: PreviewItem(url: file))
            gtk_stack_add_named(cast(stack), page.view, file.lastPathComponent)
            gtk_stack_set_visible_child(cast(stack), page.view)
            page.start()
            XCTAssertTrue(spin(timeout: 75) { page.state != .loading }, "\(file.lastPathComponent) ends loading")
            return page
        }

        func close() { gtk_window_destroy(cast(window)) }
    }

    /// The texture's size and its pixel at (x, y) as RGBA (downloaded: premultiplied BGRA).
    @MainActor
    private static func inspect(_ renderer: ImageRenderer?, _ x: Int = 0, _ y: Int = 0) -> (width: Int32, height: Int32, rgba: [UInt8])? {
        guard let texture = renderer?.texture else { return nil }
        let width = gdk_texture_get_width(texture), height = gdk_texture_get_height(texture)
        var pixels = [UInt8](repeating: 0, count: Int(width * height) * 4)
        pixels.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
        guard x < width, y < height else { return (width, height, []) }
        let offset = (y * Int(width) + x) * 4
        return (width, height, [pixels[offset + 2], pixels[offset + 1], pixels[offset], pixels[offset + 3]])
    }

    private func png(_ name: String, in folder: TemporaryFolder, width: Int32, height: Int32, colour: UInt32) throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, colour)
        XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, url.path, "png", nil, nil, nil), 0)
        return url
    }

    /// A JPEG stored 60 × 40, left half red and right half blue, with EXIF orientation 6: shown
    /// turned a quarter clockwise, 40 × 60, red on top.
    private func turnedJPEG(in folder: TemporaryFolder) throws -> URL {
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 60, 40))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0x0000ffff)
        let left = try XCTUnwrap(gdk_pixbuf_new_subpixbuf(pixbuf, 0, 0, 30, 40))
        gdk_pixbuf_fill(left, 0xff0000ff)
        g_object_unref(UnsafeMutableRawPointer(left))
        var buffer: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var keys: [UnsafeMutablePointer<CChar>?] = [nil], values: [UnsafeMutablePointer<CChar>?] = [nil]
        XCTAssertNotEqual(gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &length, "jpeg", &keys, &values, nil), 0)
        defer { g_free(buffer) }
        let jpeg = Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
        return try folder.write("turned.jpg", bytes: EXIF.inserting(into: jpeg, orientation: 6))
    }

    private static func close(_ a: [UInt8], _ b: [UInt8]) -> Bool { zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 24 } }

    func testImagesShowThroughTheWorkerAsBefore() throws {
        let folder = try TemporaryFolder()
        let photo = try png("square.png", in: folder, width: 300, height: 200, colour: 0x2080c0ff)
        let turned = try turnedJPEG(in: folder)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }

            let page = window.show(photo)
            XCTAssertEqual(page.state, .ready)
            let shown = try XCTUnwrap(Self.inspect(page.renderer as? ImageRenderer, 10, 10))
            XCTAssertEqual([shown.width, shown.height], [300, 200], "its own size: smaller than the window")
            XCTAssertEqual(shown.rgba, [0x20, 0x80, 0xc0, 0xff])
            // Copy puts the texture on the clipboard.
            XCTAssertEqual(page.renderer?.copy(), true)
            let formats = gdk_clipboard_get_formats(gtk_widget_get_clipboard(page.view))
            XCTAssertNotEqual(gdk_content_formats_contain_gtype(formats, gdk_texture_get_type()), 0)

            let upright = window.show(turned)
            XCTAssertEqual(upright.state, .ready)
            let top = try XCTUnwrap(Self.inspect(upright.renderer as? ImageRenderer, 20, 5))
            XCTAssertEqual([top.width, top.height], [40, 60], "turned as EXIF says")
            XCTAssertTrue(Self.close(top.rgba, [255, 0, 0, 255]), "red on top: \(top.rgba)")
            let bottom = try XCTUnwrap(Self.inspect(upright.renderer as? ImageRenderer, 20, 55))
            XCTAssertTrue(Self.close(bottom.rgba, [0, 0, 255, 255]), "blue below: \(bottom.rgba)")
        }
    }

    func testAnSVGIsDrawnAtItsSizeThenAgainLargerWhenZoomedIn() throws {
        let folder = try TemporaryFolder()
        let svg = try folder.write("drawing.svg", """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">\
            <rect width="50" height="50" fill="#ff0000"/><rect x="50" width="50" height="50" fill="#0000ff"/></svg>
            """)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }
            let page = window.show(svg)
            XCTAssertEqual(page.state, .ready)
            let renderer = try XCTUnwrap(page.renderer as? ImageRenderer)
            XCTAssertEqual(Self.inspect(renderer).map { [$0.width, $0.height] }, [100, 50])
            XCTAssertTrue(waitUntilDrawn(), "laid out in the window, as the user sees it")
            renderer.zoom(.zoomIn)
            XCTAssertTrue(spin { Self.inspect(renderer)?.width == ImageDecoding.largestEdge }, "drawn again, larger")
            XCTAssertEqual(Self.inspect(renderer).map { [$0.width, $0.height] }, [4096, 2048])
            XCTAssertTrue(Self.close(try XCTUnwrap(Self.inspect(renderer, 4000, 1000)).rgba, [0, 0, 255, 255]))
            // Shown at the zoomed size (125 %), not at the size it was drawn at.
            XCTAssertTrue(waitUntilDrawn())
            XCTAssertEqual(gtk_widget_get_width(renderer.picture), 125, accuracy: 1)
            // Fitted, the picture fills the view and draws its paintable at most at its size.
            renderer.zoom(.fit)
            let paintable = gtk_picture_get_paintable(cast(renderer.picture))
            XCTAssertEqual(gdk_paintable_get_intrinsic_width(paintable), 100, "fitted: its own size again")
        }
    }

    func testAPhotoZoomedInThenOutShrinksBelowWhatWasDecoded() throws {
        let folder = try TemporaryFolder()
        let photo = try png("wide.png", in: folder, width: 2400, height: 1200, colour: 0x2080c0ff)
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }
            let page = window.show(photo)
            let renderer = try XCTUnwrap(page.renderer as? ImageRenderer)
            XCTAssertTrue(waitUntilDrawn())
            let fitted = gtk_widget_get_width(renderer.picture)
            renderer.zoom(.zoomIn)
            XCTAssertTrue(spin { Self.inspect(renderer)?.width == 2400 }, "decoded whole once zoomed in")
            renderer.zoom(.zoomOut)
            renderer.zoom(.zoomOut)
            XCTAssertTrue(waitUntilDrawn())
            let width = gtk_widget_get_width(renderer.picture)
            XCTAssertLessThan(width, fitted, "smaller than fitted, not held at the 2,400 pixels decoded")
            XCTAssertEqual(Double(width), Double(fitted) / 1.25, accuracy: 3)
        }
    }

    func testAnAnimatedGIFPlays() throws {
        let folder = try TemporaryFolder()
        let gif = try folder.write("blink.gif", bytes: AnimatedGIF.make(width: 8, height: 8, frames: [1, 2, 3], delays: [10, 10, 10]))
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }
            let page = window.show(gif)
            XCTAssertEqual(page.state, .ready)
            let renderer = page.renderer as? ImageRenderer
            // Every frame comes round, in turn.
            for colour: [UInt8] in [[0, 255, 0, 255], [0, 0, 255, 255], [255, 0, 0, 255], [0, 255, 0, 255]] {
                XCTAssertTrue(spin { Self.inspect(renderer, 4, 4)?.rgba == colour }, "the frame of \(colour) shows")
            }
        }
    }

    func testADamagedImageEndsOnItsErrorPageWithTheDecodersMessage() throws {
        let folder = try TemporaryFolder()
        let whole = try png("whole.png", in: folder, width: 300, height: 200, colour: 0x2080c0ff)
        let cut = try folder.write("cut.png", bytes: Array(try Data(contentsOf: whole).prefix(120)))
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }
            let page = window.show(cut)
            guard case .failed(let message) = page.state else { return XCTFail("\(page.state)") }
            XCTAssertTrue(message.hasPrefix("The image could not be decoded: "), message)
            XCTAssertEqual(window.show(whole).state, .ready, "the next image shows")
        }
    }

    func testAWorkerThatCrashesOrHangsEndsItsItemOnTheErrorPageAndTheNextPreviews() throws {
        let folder = try TemporaryFolder()
        let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
        let crash = try folder.write("crash.png", bytes: signature + Array("DOSSIER-TEST-MISBEHAVIOUR test.crash\n".utf8))
        let loop = try folder.write("loop.png", bytes: signature + Array("DOSSIER-TEST-MISBEHAVIOUR test.loop\n".utf8))
        let next = try png("next.png", in: folder, width: 40, height: 30, colour: 0xff2010ff)
        var limits = PreviewWorkers.limits
        // Long enough for a fresh worker to start and decode the next file on a loaded machine
        // (GStreamer's first load in a worker can take seconds under load).
        limits.timeout = .seconds(10)
        let previous = PreviewWorkers.replaceWorkers(with: DecoderWorkerPool(count: 2, limits: limits, testFormats: true))
        defer { PreviewWorkers.replaceWorkers(with: previous) }
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }

            let crashed = window.show(crash)
            guard case .failed(let crashMessage) = crashed.state else { return XCTFail("\(crashed.state)") }
            XCTAssertTrue(crashMessage.hasPrefix("The image decoder stopped ("), crashMessage)
            let after = window.show(next)
            XCTAssertEqual(after.state, .ready, "the next item previews")
            XCTAssertEqual(try XCTUnwrap(Self.inspect(after.renderer as? ImageRenderer)).rgba, [0xff, 0x20, 0x10, 0xff])

            let hung = window.show(loop)
            guard case .failed(let loopMessage) = hung.state else { return XCTFail("\(hung.state)") }
            XCTAssertEqual(loopMessage, "The image decoder took longer than 10 seconds and was stopped.")
            XCTAssertEqual(window.show(next).state, .ready, "and again")
        }
    }

    func testAWorkerThatConnectsWritesHomeOrRunsAProgramReachesNothingAndItsItemEndsOnTheErrorPage() throws {
        let folder = try TemporaryFolder()
        // A beacon on 127.0.0.1, and a watch on $HOME: neither may see anything of the worker.
        let beacon = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        XCTAssertGreaterThanOrEqual(beacon, 0)
        defer { Foundation.close(beacon) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                XCTAssertEqual(bind(beacon, address, length), 0)
                XCTAssertEqual(listen(beacon, 8), 0)
                XCTAssertEqual(getsockname(beacon, address, &length), 0)
            }
        }
        let port = UInt16(bigEndian: address.sin_port)
        let home = NSHomeDirectory()
        let watch = inotify_init1(Int32(IN_NONBLOCK))
        XCTAssertGreaterThanOrEqual(watch, 0)
        defer { Foundation.close(watch) }
        XCTAssertGreaterThanOrEqual(inotify_add_watch(watch, home, UInt32(IN_CREATE | IN_MODIFY | IN_MOVED_TO | IN_CLOSE_WRITE)), 0)
        let planted = "dossier-planted-\(UUID().uuidString)", ran = "dossier-ran-\(UUID().uuidString)"

        let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
        func misbehaving(_ name: String, _ line: String) throws -> URL {
            try folder.write(name, bytes: signature + Array("DOSSIER-TEST-MISBEHAVIOUR \(line)\n".utf8))
        }
        let files = [
            try misbehaving("connect.png", "test.connect port=\(port)"),
            try misbehaving("write.png", "test.write path=\(home)/\(planted)"),
            try misbehaving("exec.png", "test.exec path=\(home)/\(ran)"),
        ]
        let next = try png("next.png", in: folder, width: 40, height: 30, colour: 0x20c040ff)
        let previous = PreviewWorkers.replaceWorkers(with: DecoderWorkerPool(count: 2, limits: PreviewWorkers.limits, testFormats: true))
        defer { PreviewWorkers.replaceWorkers(with: previous) }
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }
            for file in files {
                let page = window.show(file)
                guard case .failed(let message) = page.state else { return XCTFail("\(file.lastPathComponent): \(page.state)") }
                XCTAssertEqual(message, "The image decoder gave a result that is not an image.", file.lastPathComponent)
                let after = window.show(next)
                XCTAssertEqual(after.state, .ready, "the next item previews after \(file.lastPathComponent)")
                XCTAssertEqual(try XCTUnwrap(Self.inspect(after.renderer as? ImageRenderer)).rgba, [0x20, 0xc0, 0x40, 0xff])
            }
        }
        XCTAssertEqual(accept(beacon, nil, nil), -1, "the beacon saw no connection")
        for name in [planted, ran] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/" + name), name)
        }
        // Every event of the watch so far (other programs may touch $HOME): none names our files.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = read(watch, &buffer, buffer.count)
        var offset = 0
        while count > 0, offset + 16 <= count {
            let nameLength = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16
            let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + nameLength)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            XCTAssertFalse(name == planted || name == ran, "$HOME saw \(name)")
            offset += 16 + nameLength
        }
    }

    func testThePrefetchDecodesAFirstImageInTheWorker() throws {
        let folder = try TemporaryFolder()
        let photo = try png("first.png", in: folder, width: 2000, height: 1000, colour: 0x2080c0ff)
        MainActor.assumeIsolated {
            let prefetch = PreviewPrefetch()
            prefetch.start(photo)
            var prepared: (any Sendable)??
            Task { @MainActor in prepared = .some(await prefetch.takePrepared(for: photo, by: ImageRenderer.self)?.value) }
            XCTAssertTrue(spin { prepared != nil })
            let image = prepared.flatMap { $0 } as? ImageRenderer.Prepared
            guard let image, case .success(.still(let decoded)) = image.decoded else { return XCTFail("\(String(describing: prepared))") }
            XCTAssertEqual(Int32(decoded.pixels.width), image.edge, "decoded down to the window's first size")
        }
    }
}
