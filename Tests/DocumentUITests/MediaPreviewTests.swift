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

        func show(_ file: URL, prefetch: PreviewPrefetch? = nil) -> PreviewPage {
            let page = PreviewPage(item: PreviewItem(url: file), prefetch: prefetch)
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
            let prefetch = PreviewPrefetch()
            prefetch.start(clip)
            let first = try XCTUnwrap(Self.streamAhead(of: clip, in: prefetch))
            XCTAssertTrue(spin(timeout: 30) { first.opened != nil }, "opened ahead")
            let ahead = first.opened?.pointer
            let window = Window()
            defer { window.close() }
            let page = window.show(clip, prefetch: prefetch)
            XCTAssertEqual(page.state, .ready)
            XCTAssertEqual(try XCTUnwrap(page.renderer as? MediaRenderer).stream?.pointer, ahead, "the page plays the stream opened ahead")
            XCTAssertNil(first.opened)
            // One that no page takes is let go with what else was begun for the file.
            prefetch.start(clip)
            let second = try XCTUnwrap(Self.streamAhead(of: clip, in: prefetch))
            XCTAssertTrue(spin(timeout: 30) { second.opened != nil }, "opened ahead again")
            prefetch.discard(for: clip)
            XCTAssertTrue(spin { second.opened == nil }, "let go")
        }
    }

    /// The stream slot the prefetch's media preparation holds for `url`, once it is prepared.
    @MainActor
    private static func streamAhead(of url: URL, in prefetch: PreviewPrefetch) -> MediaRenderer.StreamAhead? {
        var prepared: (any Sendable)??
        Task { @MainActor in prepared = .some(await prefetch.peekPrepared(for: url)) }
        let done = spin(timeout: 30) { prepared != nil }
        guard done else { return nil }
        return (prepared.flatMap { $0 } as? MediaRenderer.Prepared)?.streamAhead
    }

    func testAWorkerThatCrashesOrHangsEndsItsItemOnTheErrorPageAndTheNextPreviews() throws {
        let folder = try TemporaryFolder()
        let crash = try folder.write("crash.ogg", bytes: Array("OggS".utf8) + Array("DOSSIER-TEST-MISBEHAVIOUR test.crash\n".utf8))
        let loop = try folder.write("loop.ogg", bytes: Array("OggS".utf8) + Array("DOSSIER-TEST-MISBEHAVIOUR test.loop\n".utf8))
        let next = samples.appendingPathComponent("sound.ogg")
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
