import CGtk
import CImaging
import CPoppler
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

/// Printing to a PDF file through GTK's file printer, with no dialog: the pages a printer
/// would get, read back with poppler (in this test process only). PDF pages come out whole (or
/// the range asked for) as the PDF worker's pictures, an image fitted on one page, source code
/// with its line numbers, Markdown formatted by WebKit.
final class PrintTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
        folder = try TemporaryFolder()
    }

    /// A PDF's pages are printed as the PDF worker draws them (pictures: poppler does not run in
    /// the printing process), each page in its place: page N shows its N squares.
    func testAPDFPrintsEveryPageAsItIsDrawn() throws {
        let source = try makePDF(pages: 5)
        let printed = try print(source)
        XCTAssertEqual(printed.pageCount, 5)
        for page in 0..<5 { XCTAssertEqual(printed.render(page: page)?.squares, page + 1, "page \(page + 1)") }
        XCTAssertEqual(printed.text(of: 0), "", "a picture of the page, not its text")
    }

    func testAPageRangePrintsOnlyThosePages() throws {
        let source = try makePDF(pages: 5)
        let printed = try print(source, pages: [1...2, 4...4])
        XCTAssertEqual(printed.pageCount, 3, "pages 2, 3 and 5")
        XCTAssertEqual((0..<3).map { printed.render(page: $0)?.squares }, [2, 3, 5])
    }

    func testALandscapePageGoesOnTheSheetTurned() throws {
        let url = folder.url.appendingPathComponent("slides.pdf")
        let surface = cairo_pdf_surface_create(url.path, 842, 595)
        let context = cairo_create(surface)
        cairo_set_font_size(context, 20)
        for size in [(842.0, 595.0), (595.0, 842.0)] {
            cairo_pdf_surface_set_size(surface, size.0, size.1)
            cairo_move_to(context, 72, 100)
            cairo_show_text(context, "A slide")
            cairo_show_page(context)
        }
        cairo_destroy(context)
        cairo_surface_destroy(surface)
        let printed = try print(url)
        let landscape = try XCTUnwrap(printed.render(page: 0)), portrait = try XCTUnwrap(printed.render(page: 1))
        XCTAssertGreaterThan(landscape.width, landscape.height, "the landscape page is printed landscape")
        XCTAssertLessThan(portrait.width, portrait.height, "the portrait one portrait")
    }

    func testAnImagePrintsFittedAndCentredOnOnePage() throws {
        // A red picture twice as wide as it is high: on a portrait page it takes the width
        // inside the margins, and sits in the middle of the height.
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 400, 200))
        gdk_pixbuf_fill(pixbuf, 0xff00_00ff)
        let image = folder.url.appendingPathComponent("red.png")
        XCTAssertNotEqual(dossier_pixbuf_save_png(pixbuf, image.path, nil, nil, nil), 0)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))

        let printed = try print(image)
        XCTAssertEqual(printed.pageCount, 1)
        let page = try XCTUnwrap(printed.render(page: 0))
        let (width, height) = (page.width, page.height)
        XCTAssertTrue(page.isRed(x: width / 2, y: height / 2), "the middle of the page is the picture")
        XCTAssertTrue(page.isRed(x: width / 8, y: height / 2), "it spans the width")
        XCTAssertTrue(page.isRed(x: width * 7 / 8, y: height / 2))
        XCTAssertFalse(page.isRed(x: width / 2, y: height / 8), "above it the page is blank: centred, proportions kept")
        XCTAssertFalse(page.isRed(x: width / 2, y: height * 7 / 8), "below it too")
        XCTAssertFalse(page.isRed(x: 3, y: height / 2), "the printer's margin is left blank")
    }

    func testASourceFilePrintsWithLineNumbersOnSeveralPages() throws {
        let lines = (1...150).map { "func step\($0)() -> Int { return \($0) * 2 }" }
        let source = try folder.write("steps.swift", lines.joined(separator: "\n") + "\n")
        let printed = try print(source)
        XCTAssertGreaterThan(printed.pageCount, 1, "150 lines take more than a page")
        let first = printed.text(of: 0)
        XCTAssertTrue(first.contains("func step1() -> Int { return 1 * 2 }"), first)
        XCTAssertTrue(first.contains("steps.swift"), "the name heads the page")
        XCTAssertTrue(first.contains("Page 1 of \(printed.pageCount)"), "the footer numbers the pages")
        // The line numbers are their own words, before each line.
        let words = Set(first.split(whereSeparator: \.isWhitespace).map(String.init))
        XCTAssertTrue(["1", "2", "3", "10"].allSatisfy(words.contains), "line numbers are printed")
        let all = (0..<printed.pageCount).map(printed.text(of:)).joined(separator: "\n")
        XCTAssertTrue(all.contains("func step150() -> Int { return 150 * 2 }"), "the last line is printed")
        XCTAssertTrue(all.split(whereSeparator: \.isWhitespace).contains("150"), "with its number")
    }

    func testMarkdownPrintsFormattedThroughWebKit() throws {
        let source = try folder.write("report.md", """
            # Quarterly Report

            Revenue grew **twelve** percent, and `costs` fell.

            - apples
            - pears

            | Region | Sales |
            |--------|------:|
            | North  | 42    |
            """)
        let printed = try print(source, timeout: 60)
        XCTAssertGreaterThanOrEqual(printed.pageCount, 1)
        // WebKit's PDF is printed through the PDF worker, as pictures: the words cannot be read
        // back, only seen (the printout is kept with the screenshots).
        XCTAssertGreaterThan(printed.render(page: 0)?.darkPixels ?? 0, 500, "the page is printed")
    }

    func testHTMLPrintsThroughWebKit() throws {
        let source = try folder.write("page.html", "<html><body><h1>Price List</h1><p>Tea costs <b>three</b> euros.</p></body></html>")
        let printed = try print(source, timeout: 60)
        XCTAssertGreaterThanOrEqual(printed.pageCount, 1)
        XCTAssertGreaterThan(printed.render(page: 0)?.darkPixels ?? 0, 300, "the page is printed (as a picture)")
    }

    func testOnlyTheKindsDossierPrintsAreOffered() throws {
        let archive = try folder.write("bundle.zip", bytes: SampleFiles.zip(entries: [(name: "a.txt", data: Array("a".utf8))]))
        let base = folder.url
        MainActor.assumeIsolated {
            for type in [DocumentType.pdf, .text, .markdown, .html, DocumentType(mimeType: "image/png"),
                         DocumentType(mimeType: "text/x-csrc")] {
                XCTAssertTrue(DocumentPrinter.canPrint(type), "\(type) prints")
            }
            for mime in ["application/zip", "video/webm", "audio/ogg", "font/ttf", "inode/directory", "text/csv"] {
                XCTAssertFalse(DocumentPrinter.canPrint(DocumentType(mimeType: mime)), "\(mime) does not print")
            }
            XCTAssertFalse(DocumentInteractionController(url: archive).canPerformByDefault(.print))
            XCTAssertTrue(DocumentInteractionController(url: base.appendingPathComponent("a.pdf")).canPerformByDefault(.print))
            XCTAssertFalse(DocumentInteractionController(urls: [base.appendingPathComponent("a.pdf"),
                                                                base.appendingPathComponent("b.pdf")]).canPerformByDefault(.print),
                           "one document at a time")
        }
        XCTAssertThrowsError(try print(archive)) { error in
            guard case PrintError.notPrintable = error else { return XCTFail("\(error)") }
        }
    }

    // MARK: Helpers

    /// Prints `url` to a PDF through the interaction controller, and opens the result (kept
    /// with the screenshots, to look at).
    private func print(_ url: URL, pages: [ClosedRange<Int>]? = nil, timeout: TimeInterval = 60) throws -> PrintedPDF {
        let output = folder.url.appendingPathComponent("printed-\(UUID().uuidString).pdf")
        final class Outcome: @unchecked Sendable { var result: Result<Void, PrintError>? }
        let outcome = Outcome()
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let controller = DocumentInteractionController(url: url)
            Task { @MainActor in
                do throws(PrintError) {
                    try await controller.print(to: output, pages: pages)
                    outcome.result = .success(())
                } catch {
                    outcome.result = .failure(error)
                }
            }
            XCTAssertTrue(spin(timeout: timeout) { outcome.result != nil }, "printing ended")
            try XCTUnwrap(outcome.result).get()
        }
        let kept = Screenshots.folder.appendingPathComponent("printed-\(url.lastPathComponent).pdf")
        try? FileManager.default.createDirectory(at: Screenshots.folder, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: kept)
        try? FileManager.default.copyItem(at: output, to: kept)
        return try PrintedPDF(output)
    }

    /// A PDF of `pages` pages of A4, each saying which it is.
    private func makePDF(pages: Int) throws -> URL {
        let url = folder.url.appendingPathComponent("fixture.pdf")
        let surface = cairo_pdf_surface_create(url.path, 595, 842)
        let context = cairo_create(surface)
        cairo_set_font_size(context, 20)
        for page in 1...pages {
            cairo_move_to(context, 72, 100)
            cairo_show_text(context, "Page \(page) of the fixture")
            // Page N's number as N squares, which a printed picture of it still shows.
            for square in 0..<page {
                cairo_rectangle(context, 72 + Double(square) * 60, 300, 36, 36)
            }
            cairo_fill(context)
            cairo_show_page(context)
        }
        cairo_destroy(context)
        cairo_surface_destroy(surface)
        return url
    }
}

/// A printed PDF read back with poppler.
private final class PrintedPDF {
    private let document: OpaquePointer

    init(_ url: URL) throws {
        var error: UnsafeMutablePointer<GError>?
        guard let document = dossier_pdf_open(url.absoluteString, &error) else {
            defer { if let error { g_error_free(error) } }
            throw NSError(domain: "PrintTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "no PDF at \(url.path)"])
        }
        self.document = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

    var pageCount: Int { Int(dossier_pdf_page_count(document)) }

    func text(of index: Int) -> String {
        guard let page = dossier_pdf_get_page(document, Int32(index)) else { return "" }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return takeString(dossier_pdf_page_text(page)) ?? ""
    }

    /// The page drawn at one pixel a point, on white.
    func render(page index: Int) -> RenderedPicture? {
        guard let page = dossier_pdf_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        dossier_pdf_page_size(page, &width, &height)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        dossier_pdf_page_render(page, cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return RenderedPicture(surface: surface!)
    }
}

/// A drawn page's pixels.
private final class RenderedPicture {
    private let surface: OpaquePointer
    let width: Int
    let height: Int

    init(surface: OpaquePointer) {
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// How many pixels are dark (ink).
    var darkPixels: Int {
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        var count = 0
        for y in 0..<height {
            for x in 0..<width {
                let pixel = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                if (pixel >> 16) & 0xff < 100 && (pixel >> 8) & 0xff < 100 && pixel & 0xff < 100 { count += 1 }
            }
        }
        return count
    }

    /// The most dark runs 20 pixels long or longer on one row: the squares of a fixture's page
    /// (its text has no stroke that long).
    var squares: Int {
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        var most = 0
        for y in 0..<height {
            var runs = 0, run = 0
            for x in 0..<width {
                let pixel = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                let dark = (pixel >> 16) & 0xff < 100 && (pixel >> 8) & 0xff < 100 && pixel & 0xff < 100
                if dark { run += 1 } else {
                    if run >= 20 { runs += 1 }
                    run = 0
                }
            }
            if run >= 20 { runs += 1 }
            most = max(most, runs)
        }
        return most
    }

    /// Whether the pixel at (x, y) is (nearly) pure red.
    func isRed(x: Int, y: Int) -> Bool {
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixel = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        let red = (pixel >> 16) & 0xff, green = (pixel >> 8) & 0xff, blue = pixel & 0xff
        return red > 200 && green < 60 && blue < 60
    }
}
