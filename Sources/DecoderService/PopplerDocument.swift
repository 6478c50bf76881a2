import CGLib
import CImaging
import CPoppler
import DocumentCore
import Foundation
import GObjectSupport

/// A PDF document open in poppler, in a decoder worker: the only code that calls poppler
/// (`PDFSession` for the previewer and printing, `PDFThumbnailer` for thumbnails). The process
/// that shows a PDF asks a worker (`PDFDocument`) and never loads poppler.
final class PopplerDocument {
    private let pointer: OpaquePointer
    let pageCount: Int

    /// Loads poppler-glib, once; called before the worker's lock-down (as libarchive is). A
    /// library that cannot be loaded is reported by each PDF request.
    static func prepare() {
        _ = dossier_pdf_load(nil)
    }

    /// The document open at `input` (a descriptor the caller keeps: poppler is given a copy).
    init(input: Int32) throws(PDFError) {
        var missing: UnsafeMutablePointer<CChar>?
        guard dossier_pdf_load(&missing) != 0 else {
            defer { g_free(missing) }
            throw .libraryMissing(missing.map { String(cString: $0) } ?? "")
        }
        let copy = dup(input)
        guard copy >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        var error: UnsafeMutablePointer<GError>?
        // poppler reads from where the descriptor is: the start, for every session.
        lseek(copy, 0, SEEK_SET)
        guard let document = dossier_pdf_open_fd(copy, &error) else {
            let encrypted = dossier_pdf_error_is_encrypted(error) != 0
            let reason = error.map { String(cString: $0.pointee.message) } ?? ""
            if let error { g_error_free(error) }
            throw encrypted ? .encrypted : .unreadable(reason)
        }
        pointer = document
        pageCount = Int(dossier_pdf_page_count(document))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Page `index`'s size in points; nil when poppler has no such page or it has no area.
    func size(ofPage index: Int) -> (width: Double, height: Double)? {
        guard let page = dossier_pdf_get_page(pointer, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        dossier_pdf_page_size(page, &width, &height)
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// Calls `body` with page `index` (nil when there is no such page).
    func withPage<Result, Failure: Error>(_ index: Int, _ body: (OpaquePointer?) throws(Failure) -> Result) throws(Failure) -> Result {
        let page = dossier_pdf_get_page(pointer, Int32(index))
        defer { if let page { g_object_unref(UnsafeMutableRawPointer(page)) } }
        return try body(page)
    }

    /// Draws `page` on `context`, one unit a point: for the screen, or for a printer (the
    /// annotations a printout shows).
    static func draw(_ page: OpaquePointer, on context: OpaquePointer, forPrinting: Bool) {
        if forPrinting {
            dossier_pdf_page_render_for_printing(page, context)
        } else {
            dossier_pdf_page_render(page, context)
        }
    }

    /// The page's URI links, in pixels of a drawing at `scale` (top-left origin), at most `limit`.
    static func links(of page: OpaquePointer, scale: Double, limit: Int) -> [PDFLink] {
        var rects = [Double](repeating: 0, count: 4 * limit)
        var uris = [UnsafeMutablePointer<CChar>?](repeating: nil, count: limit)
        let count = Int(dossier_pdf_page_uri_links(page, scale, &rects, &uris, Int32(limit)))
        return (0..<count).compactMap { index -> PDFLink? in
            defer { g_free(uris[index]) }
            guard let uri = uris[index].map({ String(cString: $0) }) else { return nil }
            return PDFLink(x1: rects[index * 4], y1: rects[index * 4 + 1], x2: rects[index * 4 + 2], y2: rects[index * 4 + 3],
                           uri: uri)
        }
    }

    /// The page's characters and their boxes in pixels of a drawing at `scale` (poppler's text
    /// layout: one rectangle per character of the page's text, top-left origin), at most `limit`.
    static func glyphs(of page: OpaquePointer, scale: Double, limit: Int) -> [PDFGlyph] {
        var rectangles: UnsafeMutablePointer<DossierPDFRectangle>?
        var count: guint = 0
        guard dossier_pdf_page_text_layout(page, &rectangles, &count) != 0, let rectangles,
              let text = dossier_pdf_page_text(page) else { return [] }
        defer {
            g_free(rectangles)
            g_free(text)
        }
        let scalars = Array(String(cString: text).unicodeScalars)
        return (0..<min(Int(count), scalars.count, limit)).map { index in
            let rectangle = rectangles[index]
            return PDFGlyph(scalar: scalars[index], x1: rectangle.x1 * scale, y1: rectangle.y1 * scale,
                            x2: rectangle.x2 * scale, y2: rectangle.y2 * scale)
        }
    }
}
