import DecoderWire
import Foundation

/// A PDF open for the previewer or for printing, read by poppler in a decoder worker: this
/// process keeps the file open and the pages' sizes, and asks the worker for each page, drawn at
/// a width (pixels in a sealed memfd, its links and its characters' boxes, all checked here).
/// poppler is never loaded in this process.
///
/// The worker keeps the document open between pages (`PDFSession`); every request brings the
/// file again, so a worker started after a crash opens it anew. The requests block: make them
/// off the main thread (`blockingWork`). Releasing the document lets the worker close it.
package final class PDFDocument: Sendable {
    /// Every page's size in points, in order; a page poppler gave no size is A4.
    package let pageSizes: [(width: Double, height: Double)]
    private let input: Int32
    private let session: String
    private let workers: DecoderWorkerPool

    private init(input: Int32, session: String, workers: DecoderWorkerPool, pageSizes: [(width: Double, height: Double)]) {
        self.input = input
        self.session = session
        self.workers = workers
        self.pageSizes = pageSizes
    }

    /// Every running worker of the pool lets the document go (a page may have been drawn by
    /// either), off the releasing thread.
    deinit {
        let input = input, session = session, workers = workers
        PDFWorkers.closing.async {
            workers.performOnRunning(.pdfClose(session: session), input: FileDescriptor(rawValue: input))
            close(input)
        }
    }

    /// A4, for a page whose size is missing or absurd.
    static let defaultSize = (width: 595.0, height: 842.0)
    /// The largest page side believed, in points: far above any real page (PDF's 14,400 units,
    /// 75 times over, for a page with a user unit).
    static let largestSide = 14_400.0 * 75

    /// Opens the PDF at `path` in one of the previewer's workers (`PreviewWorkers`): its page
    /// count and sizes. Blocking.
    package static func open(_ path: FileSystemPath) throws(PDFError) -> PDFDocument {
        try open(path, workers: PreviewWorkers.current)
    }

    /// Opens the PDF at `path` in one of `workers`, which draw its pages after. Blocking.
    package static func open(_ path: FileSystemPath, workers: DecoderWorkerPool) throws(PDFError) -> PDFDocument {
        let fd: Int32
        do { fd = try WorkerInput.open(path) } catch {
            switch error {
            case .unreadable(let reason): throw .unreadable(reason)
            case .notRegularFile: throw .notRegularFile
            }
        }
        let session = UUID().uuidString
        do {
            let output = try PDFWorkers.perform(.pdfOpen(session: session), input: fd, workers: workers)
            guard let count = output.values["pages"].flatMap(Int.init), count > 0, count <= PDFPageCoding.pageLimit,
                  let blob = output.blob, blob.count == count * 16 else { throw PDFError.badAnswer }
            let sizes = blob.withUnsafeBytes { bytes in
                (0..<count).map { index -> (width: Double, height: Double) in
                    let width = bytes.loadUnaligned(fromByteOffset: index * 16, as: Double.self)
                    let height = bytes.loadUnaligned(fromByteOffset: index * 16 + 8, as: Double.self)
                    let sane = { (side: Double) in side.isFinite && side >= 1 && side <= largestSide }
                    return sane(width) && sane(height) ? (width, height) : defaultSize
                }
            }
            return PDFDocument(input: fd, session: session, workers: workers, pageSizes: sizes)
        } catch {
            close(fd)
            throw error as? PDFError ?? .badAnswer
        }
    }

    /// Page `index` drawn on white `width` pixels wide, with its links and, when `text`, its
    /// characters' boxes; `forPrinting` draws what a printout shows (poppler's printing mode).
    /// Blocking.
    package func draw(page index: Int, width: Int, text: Bool, forPrinting: Bool = false) throws(PDFError) -> PDFPageDrawing {
        guard pageSizes.indices.contains(index) else { throw .pageNotDrawn(index) }
        let options = PDFPageOptions(session: session, page: index, width: width, text: text, forPrinting: forPrinting)
        let output = try PDFWorkers.perform(.pdfPage(options), input: input, workers: workers)
        guard let blob = output.blob,
              let drawnWidth = output.values["width"].flatMap(Int.init), let height = output.values["height"].flatMap(Int.init),
              let stride = output.values["stride"].flatMap(Int.init), let pixelBytes = output.values["pixelBytes"].flatMap(Int.init),
              width > 0, drawnWidth == width, height > 0, height <= PDFPageCoding.sideLimit, width * height <= PDFPageCoding.pixelLimit,
              stride >= width * 4, stride % 4 == 0, stride <= width * 4 + 64,  // bounded before it is multiplied
              pixelBytes == stride * height, pixelBytes <= blob.count,
              let (links, glyphs) = blob.withUnsafeBytes({ bytes in
                  PDFPageCoding.decode(UnsafeRawBufferPointer(rebasing: bytes[pixelBytes...]), width: width, height: height)
              })
        else { throw .badAnswer }
        return PDFPageDrawing(blob: blob, width: width, height: height, stride: stride, links: links, glyphs: glyphs)
    }
}

/// PDFs are read in the previewer's workers (`PreviewWorkers`, with images and archives): the
/// service starts the first as it starts, so a first PDF does not wait for one, and a page goes
/// to the worker freed last, which is the one that drew the page before unless two requests
/// overlapped (the other then opens the document too: a session is any worker's). Their limits
/// are the previewer's: 15 s a request, when the page gives up.
enum PDFWorkers {
    /// Where released documents' close requests wait their turn, off every caller's thread.
    static let closing = DispatchQueue(label: "dossier.pdf.closing", qos: .utility)

    /// One request to `workers`; its failures as `PDFError`s (the worker's own refusals come
    /// back as it sent them).
    static func perform(_ request: DecoderRequest, input: Int32, workers: DecoderWorkerPool) throws(PDFError) -> DecoderWorker.Output {
        try workers.perform(request, input: input) { failure -> PDFError in
            switch failure {
            case .refused(let message): .unreadable(message)
            case .stopped(let how): .decoderStopped(how)
            case .timedOut(let seconds): .timedOut(seconds: seconds)
            case .unavailable(let why): .decoderUnavailable(why)
            case .cancelled: .decoderStopped(tr("it was stopped"))
            }
        }
    }
}
