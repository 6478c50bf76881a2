import CGtk
import CImaging
import DocumentCore
@testable import DocumentUI
import Foundation
import XCTest

/// A long PDF has a place for every page from the start, and only the pages near the view are
/// drawn (about 4.5 MB each): drawing all of a 400-page document took 1.2 GB.
final class PDFRendererTests: XCTestCase {
    private final class Flag: @unchecked Sendable { var value = false }

    func testALongDocumentKeepsOnlyThePagesNearTheViewDrawn() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: url) }
        let surface = cairo_pdf_surface_create(url.path, 595, 842)
        let context = cairo_create(surface)
        cairo_set_font_size(context, 24)
        for page in 1...200 {
            cairo_move_to(context, 60, 90)
            cairo_show_text(context, "Page \(page)")
            cairo_show_page(context)
        }
        cairo_destroy(context)
        cairo_surface_destroy(surface)

        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 900, 700)
            let renderer = PDFRenderer()
            gtk_window_set_child(cast(window), renderer.view)
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
}
