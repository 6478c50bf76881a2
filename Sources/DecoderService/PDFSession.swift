import CImaging
import CSandbox
import DecoderWire
import DocumentCore
import Foundation

/// The worker's side of `PDFDocument`: a PDF kept open in poppler across requests, so that each
/// page drawn as it comes into view does not parse the document again. A request names its
/// session and brings the file (an open descriptor) every time: a worker that does not hold that
/// session (a new one, after a crash; one that let it go for another document) opens it again.
/// At most two documents stay open in a worker (the previewer's and a printout's); `pdf.close`
/// lets one go.
enum PDFSession {
    /// The most documents a worker keeps open.
    static let openLimit = 2

    // The worker serves one request at a time, on one thread.
    nonisolated(unsafe) private static var documents: [(session: String, document: PopplerDocument)] = []

    /// Opens the document under `session` (or finds it open): its page sizes.
    static func open(input: Int32, session: String) -> (DecoderReply, Int32?) {
        answer { () throws(PDFError) in try sizes(of: document(session, input: input)) }
    }

    /// Draws a page of the document opened under the request's session.
    static func page(_ options: PDFPageOptions, input: Int32) -> (DecoderReply, Int32?) {
        answer { () throws(PDFError) in
            try draw(document(options.session, input: input), page: options.page, width: options.width, text: options.text,
                     forPrinting: options.forPrinting)
        }
    }

    /// Lets the document opened under `session` go.
    static func close(session: String) -> (DecoderReply, Int32?) {
        documents.removeAll { $0.session == session }
        return (DecoderReply(), nil)
    }

    /// `body`'s reply, or its error as the reply's (a `PDFError` in JSON).
    private static func answer(_ body: () throws(PDFError) -> (DecoderReply, Int32?)) -> (DecoderReply, Int32?) {
        do throws(PDFError) {
            return try body()
        } catch {
            let encoded = (try? JSONEncoder().encode(error)).flatMap { String(data: $0, encoding: .utf8) }
            return (DecoderReply(error: encoded ?? error.description), nil)
        }
    }

    /// The session's document, opened from `input` when this worker does not hold it.
    private static func document(_ session: String, input: Int32) throws(PDFError) -> PopplerDocument {
        guard !session.isEmpty else { throw .unreadable("a request without its session") }
        if let open = documents.first(where: { $0.session == session }) { return open.document }
        let document = try PopplerDocument(input: input)
        guard document.pageCount > 0 else { throw .noPages }
        documents.removeAll { $0.session == session }
        documents.append((session, document))
        if documents.count > openLimit { documents.removeFirst(documents.count - openLimit) }
        return document
    }

    /// The number of pages, and every page's size in points (two f64 each) in a sealed memfd.
    private static func sizes(of document: PopplerDocument) throws(PDFError) -> (DecoderReply, Int32?) {
        let count = min(document.pageCount, PDFPageCoding.pageLimit)
        var sizes: [Double] = []
        sizes.reserveCapacity(count * 2)
        for index in 0..<count {
            let size = document.size(ofPage: index) ?? (0, 0)
            sizes += [size.width, size.height]
        }
        let fd = sizes.withUnsafeBytes { SealedBlob.seal($0, name: "dossier-pdf-sizes") }
        guard let fd else { throw .unreadable(tr("out of memory")) }
        return (DecoderReply(values: ["pages": String(count)]), fd)
    }

    /// Page `index` drawn on white `width` pixels wide, its links and (with `text`) its
    /// characters' boxes, all in one sealed memfd (`PDFPageCoding`).
    private static func draw(_ document: PopplerDocument, page index: Int, width: Int, text: Bool,
                             forPrinting: Bool) throws(PDFError) -> (DecoderReply, Int32?) {
        guard index >= 0, index < document.pageCount, let size = document.size(ofPage: index) else { throw .pageNotDrawn(index) }
        let scale = Double(width) / size.width
        let height = Int((size.height * scale).rounded())
        guard width > 0, width <= PDFPageCoding.sideLimit, height > 0, height <= PDFPageCoding.sideLimit,
              width * height <= PDFPageCoding.pixelLimit else { throw .pageNotDrawn(index) }
        return try document.withPage(index) { page throws(PDFError) -> (DecoderReply, Int32?) in
            guard let page else { throw .pageNotDrawn(index) }
            let trailer = PDFPageCoding.encode(
                links: forPrinting ? [] : PopplerDocument.links(of: page, scale: scale, limit: PDFPageCoding.linkLimit),
                glyphs: text ? PopplerDocument.glyphs(of: page, scale: scale, limit: PDFPageCoding.glyphLimit) : [])
            let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
            let pixelBytes = stride * height
            let total = pixelBytes + trailer.count
            let fd = dossier_memfd_create("dossier-pdf-page", UInt64(total))
            guard fd >= 0 else { throw .unreadable(tr("out of memory")) }
            // Drawn straight into the memfd, which is unmapped before it is sealed (a writable
            // mapping would keep the seal from being set).
            guard let mapping = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
                Glibc.close(fd)
                throw .unreadable(tr("out of memory"))
            }
            let pixels = mapping.assumingMemoryBound(to: UInt8.self)
            let surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
            let context = cairo_create(surface)
            cairo_set_source_rgb(context, 1, 1, 1)
            cairo_paint(context)
            cairo_scale(context, scale, scale)
            PopplerDocument.draw(page, on: context!, forPrinting: forPrinting)
            cairo_destroy(context)
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
            trailer.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { (mapping + pixelBytes).copyMemory(from: base, byteCount: bytes.count) }
            }
            munmap(mapping, total)
            guard dossier_memfd_seal(fd) == 0 else {
                Glibc.close(fd)
                throw .unreadable("cannot seal the page")
            }
            return (DecoderReply(values: ["width": String(width), "height": String(height), "stride": String(stride),
                                         "pixelBytes": String(pixelBytes)]), fd)
        }
    }
}
