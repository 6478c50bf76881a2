import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

/// Audio and video pages, with what the file holds found by the decoder worker: an audio page
/// shows its tags before its stream is ready, and its controls come on when it is; a worker that
/// crashes or hangs ends its item on the error page while the next item previews.
final class MediaPreviewTests: XCTestCase {
    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

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

    func testASongShowsItsTagsAndItsControlsComeOnWhenTheStreamIsReady() throws {
        let song = samples.appendingPathComponent("sound.ogg")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }
            let page = window.show(song)
            XCTAssertEqual(page.state, .ready)
            let renderer = try XCTUnwrap(page.renderer as? MediaRenderer)
            let texts = Self.labels(in: renderer.view.gtkWidget)
            XCTAssertTrue(texts.contains("A440 test tone"), "the title from the worker: \(texts)")
            XCTAssertTrue(spin(timeout: 30) { gtk_widget_get_sensitive(renderer.controls) != 0 }, "the controls come on")
        }
    }

    func testThePrefetchOpensAFirstVideosStreamAheadAndItsPageTakesIt() throws {
        let clip = samples.appendingPathComponent("clip.webm")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            // As the service's first item: the stream opens before any page exists.
            PreviewPrefetch.start(clip)
            XCTAssertTrue(spin(timeout: 30) { MediaRenderer.streamOpenedAhead(for: clip.path) != nil }, "opened ahead")
            let ahead = MediaRenderer.streamOpenedAhead(for: clip.path)
            let window = Window()
            defer { window.close() }
            let page = window.show(clip)
            XCTAssertEqual(page.state, .ready)
            XCTAssertEqual(try XCTUnwrap(page.renderer as? MediaRenderer).stream?.pointer, ahead, "the page plays the stream opened ahead")
            XCTAssertNil(MediaRenderer.streamOpenedAhead(for: clip.path))
            // One that no page takes is let go with what else was begun for the file.
            PreviewPrefetch.start(clip)
            XCTAssertTrue(spin(timeout: 30) { MediaRenderer.streamOpenedAhead(for: clip.path) != nil }, "opened ahead again")
            PreviewPrefetch.discard(for: clip)
            XCTAssertNil(MediaRenderer.streamOpenedAhead(for: clip.path))
        }
    }

    func testAWorkerThatCrashesOrHangsEndsItsItemOnTheErrorPageAndTheNextPreviews() throws {
        let folder = try TemporaryFolder()
        let crash = try folder.write("crash.ogg", bytes: Array("OggS".utf8) + Array("DOSSIER-TEST-MISBEHAVIOUR test.crash\n".utf8))
        let loop = try folder.write("loop.ogg", bytes: Array("OggS".utf8) + Array("DOSSIER-TEST-MISBEHAVIOUR test.loop\n".utf8))
        let next = samples.appendingPathComponent("sound.ogg")
        var limits = PreviewWorkers.limits
        // Long enough for a fresh worker to start and decode the next file on a loaded machine
        // (GStreamer's first load in a worker took over 2 s once under load).
        limits.timeout = .seconds(10)
        let previous = PreviewWorkers.replaceWorkers(with: DecoderWorkerPool(count: 2, limits: limits, testFormats: true))
        defer { PreviewWorkers.replaceWorkers(with: previous) }
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = Window()
            defer { window.close() }
            let crashed = window.show(crash)
            guard case .failed(let crashMessage) = crashed.state else { return XCTFail("\(crashed.state)") }
            XCTAssertTrue(crashMessage.hasPrefix("The media decoder stopped ("), crashMessage)
            XCTAssertEqual(window.show(next).state, .ready, "the next item previews")

            let hung = window.show(loop)
            guard case .failed(let loopMessage) = hung.state else { return XCTFail("\(hung.state)") }
            XCTAssertEqual(loopMessage, "The media decoder took longer than 10 seconds and was stopped.")
            XCTAssertEqual(window.show(next).state, .ready, "and again")
        }
    }

    /// The texts of the labels under `widget`.
    @MainActor
    private static func labels(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var texts: [String] = []
        if g_type_check_instance_is_a(cast(widget), gtk_label_get_type()) != 0, let text = borrowString(gtk_label_get_text(opaque(widget))) {
            texts.append(text)
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            texts += Self.labels(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
    }
}
