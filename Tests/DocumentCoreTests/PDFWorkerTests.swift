import CGLib
import CImaging
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// PDFs are read by poppler in a decoder worker, which keeps a document open between its pages;
/// what comes back (sizes, pixels, links, characters) is checked here. The worker's pixels and
/// text against poppler's own in process: `PDFWorkerComparisonTests` (DocumentUITests, which
/// are not run under the sanitizers: poppler is not for this test process).
final class PDFWorkerTests: XCTestCase {
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

    func testThePageCountAndEveryPageSizeComeFromTheWorker() throws {
        let sizes = [(595.0, 842.0), (842.0, 595.0), (300.0, 400.0)]
        let url = makePDF("sizes.pdf", sizes: sizes)
        let document = try PDFDocument.open(url.rawPath)
        XCTAssertEqual(document.pageSizes.count, 3)
        for (got, expected) in zip(document.pageSizes, sizes) {
            XCTAssertEqual(got.width, expected.0, accuracy: 0.01)
            XCTAssertEqual(got.height, expected.1, accuracy: 0.01)
        }
    }

    func testAnEncryptedPDFAsksForItsPassword() throws {
        let url = try folder.write("locked.pdf", SampleFiles.encryptedPDF)
        XCTAssertThrowsError(try PDFDocument.open(url.rawPath)) { error in
            XCTAssertEqual(error as? PDFError, .encrypted)
            XCTAssertEqual("\(error)", "The document is protected by a password.")
        }
    }

    func testADamagedPDFSaysItCannotBeRead() throws {
        let url = try folder.write("corrupt.pdf", "%PDF-1.4\nthis is not a PDF at all\n")
        XCTAssertThrowsError(try PDFDocument.open(url.rawPath)) { error in
            guard case .unreadable = error as? PDFError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".hasPrefix("The PDF could not be read: "), "\(error)")
        }
    }

    /// A worker killed between two pages (as the OOM killer would end it): that page ends on the
    /// worker's end, said plainly; the next document opens in a new worker, and so does the old
    /// one (every request brings the file again).
    func testAKilledWorkerEndsThatPageAndTheNextDocumentOpens() throws {
        let workers = DecoderWorkerPool(count: 1, limits: PreviewWorkers.limits)
        let first = makePDF("first.pdf", sizes: [(595, 842), (595, 842)])
        let document = try PDFDocument.open(first.rawPath, workers: workers)
        _ = try document.draw(page: 0, width: 300, text: true)
        let pid = try XCTUnwrap(workers.processIDs.first, "the worker runs")
        ProcessTree.kill(pid)
        XCTAssertThrowsError(try document.draw(page: 1, width: 300, text: true)) { error in
            guard case .decoderStopped(let how) = error as? PDFError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("decoder stopped"), how)
            XCTAssertTrue((error as? PDFError)?.endsTheDocument == true)
        }
        let next = makePDF("next.pdf", sizes: [(300, 300)])
        XCTAssertEqual(try PDFDocument.open(next.rawPath, workers: workers).draw(page: 0, width: 300, text: false).height, 300)
        XCTAssertNotEqual(workers.processIDs, [pid], "a new worker")
        XCTAssertEqual(try document.draw(page: 1, width: 300, text: false).width, 300, "the first document opens again")
    }

    /// A worker keeps two documents open; a third sends the oldest away, and its next page opens
    /// it again from the file that comes with the request.
    func testADocumentLetGoByItsWorkerOpensAgainForItsNextPage() throws {
        let workers = DecoderWorkerPool(count: 1, limits: PreviewWorkers.limits)
        let documents = try (0..<3).map { try PDFDocument.open(makePDF("doc\($0).pdf", sizes: [(200, 100)]).rawPath, workers: workers) }
        for document in documents.reversed() {
            XCTAssertEqual(try document.draw(page: 0, width: 200, text: false).height, 100)
        }
    }

    /// A document the previewer lets go (the user moved to the next item) is let go by the
    /// worker too: it no longer holds the file open.
    func testADocumentReleasedHereIsClosedInTheWorker() throws {
        let workers = DecoderWorkerPool(count: 1, limits: PreviewWorkers.limits)
        let url = makePDF("released.pdf", sizes: [(200, 100)])
        var document: PDFDocument? = try PDFDocument.open(url.rawPath, workers: workers)
        _ = try document?.draw(page: 0, width: 200, text: false)
        let pid = try XCTUnwrap(workers.processIDs.first, "the worker runs")
        func workerHoldsTheFile() -> Bool {
            ProcessTree.tree(under: pid).contains { ProcessTree.openFiles(of: $0).contains(url.path) }
        }
        XCTAssertTrue(workerHoldsTheFile(), "the worker keeps the document open between pages")
        document = nil
        XCTAssertTrue(eventually { !workerHoldsTheFile() }, "the worker let the document go")
    }

    /// The worker could be made to say anything: links and characters out of bounds are refused
    /// whole, and boxes are kept inside the drawing.
    func testAPageAnswerOutOfBoundsIsRefused() {
        let links = [PDFLink(x1: -5, y1: 2, x2: 50, y2: 900, uri: "https://example.org/")]
        let glyphs = [PDFGlyph(scalar: "A", x1: 1, y1: 2, x2: 3, y2: 4)]
        let good = PDFPageCoding.encode(links: links, glyphs: glyphs)
        func decode(_ bytes: [UInt8]) -> (links: [PDFLink], glyphs: [PDFGlyph])? {
            bytes.withUnsafeBytes { PDFPageCoding.decode($0, width: 100, height: 100) }
        }
        let decoded = decode(good)
        XCTAssertEqual(decoded?.glyphs, glyphs)
        XCTAssertEqual(decoded?.links.first.map { [$0.x1, $0.y1, $0.x2, $0.y2] }, [0, 2, 50, 100], "clamped into the drawing")
        XCTAssertNil(decode(Array(good.dropLast())), "cut short")
        XCTAssertNil(decode(good + [0]), "bytes after the last character")
        var manyLinks = good
        manyLinks.replaceSubrange(0..<4, with: [0xff, 0xff, 0xff, 0x7f])
        XCTAssertNil(decode(manyLinks), "more links than a page holds")
        var longURI = good
        longURI.replaceSubrange(36..<40, with: [0xff, 0xff, 0xff, 0x00])
        XCTAssertNil(decode(longURI), "a URI past the end")
        var notACharacter = good
        notACharacter.replaceSubrange((good.count - 36)..<(good.count - 32), with: [0x00, 0xd8, 0x00, 0x00])
        XCTAssertNil(decode(notACharacter), "a surrogate is not a character")
        var notANumber = good
        notANumber.replaceSubrange((good.count - 8)..<good.count, with: withUnsafeBytes(of: Double.nan.bitPattern.littleEndian, Array.init))
        XCTAssertNil(decode(notANumber), "a box that is not a number")
    }


}
