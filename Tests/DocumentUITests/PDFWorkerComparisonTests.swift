import CGLib
import CImaging
import CPoppler
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// The PDF worker's answers against poppler's own in this test process (test-only: the
/// previewer never loads poppler): a drawn page byte for byte, the characters' boxes and the
/// links. Here rather than in DocumentCoreTests, which run under the sanitizers.
final class PDFWorkerComparisonTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder.url) }
    }

    /// A PDF of pages of the given sizes in points, each with a line of text and a filled box.
    private func makePDF(_ name: String, sizes: [(Double, Double)]) -> URL {
        let url = folder.url.appendingPathComponent(name)
        let surface = cairo_pdf_surface_create(url.path, sizes[0].0, sizes[0].1)
        let context = cairo_create(surface)
        cairo_set_font_size(context, 18)
        for (index, size) in sizes.enumerated() {
            cairo_pdf_surface_set_size(surface, size.0, size.1)
            cairo_set_source_rgb(context, 0.8, 0.2, 0.1)
            cairo_rectangle(context, 30, 120, size.0 / 3, 40)
            cairo_fill(context)
            cairo_set_source_rgb(context, 0, 0, 0)
            cairo_move_to(context, 30, 60)
            cairo_show_text(context, "Page \(index + 1) of the worker")
            cairo_show_page(context)
        }
        cairo_destroy(context)
        cairo_surface_destroy(surface)
        return url
    }

    /// The worker's page is poppler's page: the same pixels as poppler draws in process.
    func testADrawnPageHasThePixelsPopplerDrawsInProcess() throws {
        let url = makePDF("pixels.pdf", sizes: [(595, 842), (842, 595)])
        let document = try PDFDocument.open(url.rawPath)
        for page in 0..<2 {
            let drawing = try document.draw(page: page, width: 500, text: true)
            let expected = try XCTUnwrap(drawnInProcess(url, page: page, width: 500))
            defer { cairo_surface_destroy(expected) }
            XCTAssertEqual(drawing.width, 500)
            XCTAssertEqual(drawing.height, Int(cairo_image_surface_get_height(expected)))
            let rowBytes = Int(cairo_image_surface_get_stride(expected))
            XCTAssertEqual(drawing.stride, rowBytes)
            let data = try XCTUnwrap(cairo_image_surface_get_data(expected))
            var different = 0, inked = 0
            drawing.blob.withUnsafeBytes { bytes in
                for offset in 0..<(rowBytes * drawing.height) where bytes[offset] != data[offset] { different += 1 }
                for offset in stride(from: 0, to: rowBytes * drawing.height, by: 4) where bytes[offset] < 128 { inked += 1 }
            }
            XCTAssertEqual(different, 0, "page \(page + 1): bytes that differ from poppler's own drawing")
            XCTAssertGreaterThan(inked, 500, "page \(page + 1) has its box and text drawn")
        }
    }

    /// The characters' boxes (for selecting and copying) and the links come with the page, as
    /// poppler gives them in process, in the drawing's pixels.
    func testTheTextBoxesAndLinksSurviveTheTrip() throws {
        let url = try folder.write("linked.pdf", SampleFiles.linkedPDF(to: "https://example.org/dossier"))
        let document = try PDFDocument.open(url.rawPath)
        let drawing = try document.draw(page: 0, width: 400, text: true)  // a 200-point page: 2 pixels a point
        XCTAssertEqual(drawing.links.map(\.uri), ["https://example.org/dossier"])
        let link = try XCTUnwrap(drawing.links.first)
        XCTAssertEqual([link.x1, link.y1, link.x2, link.y2], [0, 0, 400, 400])
        XCTAssertEqual(String(String.UnicodeScalarView(drawing.glyphs.map(\.scalar))), "Hello, PDF")
        let expected = try XCTUnwrap(glyphsInProcess(url, page: 0, scale: 2))
        XCTAssertEqual(drawing.glyphs, expected)
        XCTAssertTrue(drawing.glyphs.allSatisfy { $0.x2 > $0.x1 && $0.y2 > $0.y1 && $0.y1 > 150 && $0.y2 < 250 },
                      "each box around its character, 100 points down the page")
        XCTAssertTrue(try document.draw(page: 0, width: 120, text: false).glyphs.isEmpty, "no text asked for, none sent")
    }

    // MARK: poppler in this process, for comparison only

    private func drawnInProcess(_ url: URL, page index: Int, width: Int32) -> OpaquePointer? {
        guard let document = dossier_pdf_open(url.absoluteString, nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(document)) }
        guard let page = dossier_pdf_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var pageWidth = 0.0, pageHeight = 0.0
        dossier_pdf_page_size(page, &pageWidth, &pageHeight)
        let scale = Double(width) / pageWidth
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, Int32((pageHeight * scale).rounded()))
        let context = cairo_create(surface)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_scale(context, scale, scale)
        dossier_pdf_page_render(page, context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        return surface
    }

    private func glyphsInProcess(_ url: URL, page index: Int, scale: Double) -> [PDFGlyph]? {
        guard let document = dossier_pdf_open(url.absoluteString, nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(document)) }
        guard let page = dossier_pdf_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var rectangles: UnsafeMutablePointer<DossierPDFRectangle>?
        var count: guint = 0
        guard dossier_pdf_page_text_layout(page, &rectangles, &count) != 0, let rectangles,
              let text = dossier_pdf_page_text(page) else { return nil }
        defer {
            g_free(rectangles)
            g_free(text)
        }
        let scalars = Array(String(cString: text).unicodeScalars)
        return (0..<min(Int(count), scalars.count)).map {
            PDFGlyph(scalar: scalars[$0], x1: rectangles[$0].x1 * scale, y1: rectangles[$0].y1 * scale,
                     x2: rectangles[$0].x2 * scale, y2: rectangles[$0].y2 * scale)
        }
    }
}
