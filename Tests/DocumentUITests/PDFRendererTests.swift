import CGtk
import CImaging
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore
@testable import DocumentUI

/// A long PDF has a place for every page from the start, and only the pages near the view are
/// drawn: every page drawn holds megabytes of pixels, so drawing all of them would take gigabytes.
final class PDFRendererTests: XCTestCase {
    private final class Flag: @unchecked Sendable { var value = false }

    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    /// A PDF of `pages` A4 pages, each saying which it is.
    private func makePDF(pages: Int) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).pdf")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        let surface = cairo_pdf_surface_create(url.path, 595, 842)
        let context = cairo_create(surface)
        cairo_set_font_size(context, 24)
        for page in 1...pages {
            cairo_move_to(context, 60, 90)
            cairo_show_text(context, "Page \(page)")
            cairo_show_page(context)
        }
        cairo_destroy(context)
        cairo_surface_destroy(surface)
        return url
    }

    func testALongDocumentKeepsOnlyThePagesNearTheViewDrawn() throws {
        let url = makePDF(pages: 200)

        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            let renderer = PDFRenderer()
            gtk_window_set_child(cast(window), renderer.view.gtkWidget)
            gtk_window_present(cast(window))
            let loaded = Flag()
            Task { @MainActor in
                try await renderer.load(PreviewItem(url: url), type: .pdf)
                loaded.value = true
            }
            XCTAssertTrue(spin { loaded.value && renderer.isDrawn(0) }, "the first page is drawn")
            // Laid out (the view's size is known), then every page near the view drawn: the
            // renderer has drawn all it will for this place.
            waitUntilDrawn()
            XCTAssertTrue(spin { !renderer.isDrawingPages }, "the pages near the view are drawn")
            XCTAssertEqual(renderer.pageCount, 200, "every page has its place")
            XCTAssertLessThanOrEqual(renderer.drawnPageCount, 8, "only the pages near the view are drawn")

            renderer.scroll(to: 199)
            XCTAssertTrue(spin { renderer.isDrawn(199) }, "the last page is drawn once it is in view")
            waitUntilDrawn()
            XCTAssertTrue(spin { !renderer.isDrawingPages }, "the pages near the end are drawn")
            XCTAssertFalse(renderer.isDrawn(0), "the first page, far from the view, is dropped")
            XCTAssertLessThanOrEqual(renderer.drawnPageCount, 12)
        }
    }

    /// The PDF worker killed while a document is shown (as the OOM killer would end it): the
    /// next page it is asked for ends the item on its error page, which says so; the next item
    /// opens in a new worker and is drawn. poppler never comes into this process.
    func testAKilledWorkerEndsTheItemOnItsErrorPageAndTheNextItemPreviews() throws {
        let pdfs = [makePDF(pages: 60), makePDF(pages: 2)]
        let workers = DecoderWorkerPool(count: 2, limits: PreviewWorkers.limits)
        let previous = PreviewWorkers.replaceWorkers(with: workers)
        defer { PreviewWorkers.replaceWorkers(with: previous) }
        let popplerBefore = mapsMention("libpoppler")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            let stack = gtk_stack_new()!
            gtk_window_set_child(cast(window), stack)
            gtk_window_present(cast(window))

            let page = PreviewPage(item: PreviewItem(url: pdfs[0]))
            gtk_stack_add_named(cast(stack), page.view, "first")
            page.start()
            XCTAssertTrue(spin { page.state == .ready }, "the document is shown")
            let renderer = try XCTUnwrap(page.renderer as? PDFRenderer)
            XCTAssertTrue(spin { renderer.isDrawn(0) && !renderer.isDrawingPages }, "the pages in view are drawn")

            let pids = workers.processIDs
            XCTAssertFalse(pids.isEmpty, "a worker runs")
            pids.forEach(ProcessTree.kill)
            renderer.scroll(to: 59)
            XCTAssertTrue(spin { if case .failed = page.state { true } else { false } }, "the item ends on its error page")
            guard case .failed(let message) = page.state else { return }
            XCTAssertTrue(message.contains("decoder stopped"), message)
            waitUntilDrawn()
            DesktopTest.screenshot("pdf-worker-killed")

            let next = PreviewPage(item: PreviewItem(url: pdfs[1]))
            gtk_stack_add_named(cast(stack), next.view, "next")
            gtk_stack_set_visible_child(cast(stack), next.view)
            next.start()
            XCTAssertTrue(spin { next.state == .ready }, "the next item is shown")
            let nextRenderer = try XCTUnwrap(next.renderer as? PDFRenderer)
            XCTAssertTrue(spin { nextRenderer.isDrawn(0) }, "and its first page drawn")
            waitUntilDrawn()
            DesktopTest.screenshot("pdf-worker-killed-next")
            XCTAssertTrue(Set(workers.processIDs).isDisjoint(with: pids), "by a new worker")
        }
        if popplerBefore {
            throw XCTSkip("another test of this process loaded poppler itself: this one cannot tell whether showing did")
        }
        XCTAssertTrue(mapsMention("libglib"), "the maps were read")
        XCTAssertFalse(mapsMention("libpoppler"), "poppler is mapped into the previewer's process")
    }

    /// Whether /proc/self/maps names `library` (read line by line: procfs reports no size).
    private func mapsMention(_ library: String) -> Bool {
        guard let file = fopen("/proc/self/maps", "r") else { return false }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            if String(cString: line).contains(library) { return true }
        }
        return false
    }
}
