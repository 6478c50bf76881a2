import CGLib
import CImaging
import DecoderWire
import DocumentCore
import Foundation
import GObjectSupport

/// The worker's side of `ThumbnailWorkers`: the built-in thumbnailers (images, PDF, text, fonts,
/// office documents' own pictures, audio covers) run on the file open at the request's input,
/// and an external thumbnailer's PNG is decoded, all sent back as pixels in a sealed memfd.
enum ThumbnailService {
    /// Runs the thumbnailer on the file open at `input`.
    static func perform(input: Int32, options: ThumbnailOptions) -> (DecoderReply, Int32?) {
        let name = options.name, edge = options.edge
        guard edge > 0, edge <= 4096 else {
            return (DecoderReply(error: "a thumbnail request without its size"), nil)
        }
        var status = stat()
        guard fstat(input, &status) == 0 else { return (DecoderReply(error: String(cString: strerror(errno))), nil) }
        var source = ThumbnailSource(workerInput: input, name: name, size: Int64(status.st_size),
                                     type: options.type.map(DocumentType.init(mimeType:)) ?? DocumentType(fileName: name))
        let image: Pixbuf
        do throws(ThumbnailError) {
            switch options.kind {
            case .image: image = try ImageThumbnailer.thumbnail(of: &source, edge: edge)
            case .pdf: image = try PDFThumbnailer.thumbnail(of: &source, input: input, edge: edge)
            case .text: image = try TextThumbnailer.thumbnail(of: &source, edge: edge)
            case .font: image = try FontThumbnailer.thumbnail(of: &source, input: input, edge: edge)
            case .office: image = try EmbeddedPictureThumbnailer.office(of: &source, input: input, edge: edge)
            case .audio: image = try EmbeddedPictureThumbnailer.audio(of: &source, input: input, edge: edge)
            case .external:
                image = try decodeOutput(input, name: name, thumbnailer: options.thumbnailer ?? "?", edge: edge)
            }
        } catch {
            var reply = DecoderReply(failure: error)
            // Without GStreamer's registry this worker can make no audio thumbnail: its successor can.
            if options.kind == .audio, getenv("GST_REGISTRY_1_0").map({ access($0, R_OK) != 0 }) ?? true { reply.isLeaving = true }
            return (reply, nil)
        }
        var values: [String: String] = [:]
        if let dimensions = source.dimensions {
            values["imageWidth"] = String(dimensions.width)
            values["imageHeight"] = String(dimensions.height)
        }
        var reply = DecoderReply.pixels(image.pointer, values: values)
        // A worker that has given out every descriptor number for fonts leaves after this.
        if options.kind == .font { reply.0.isLeaving = FontFile.names.usedUp }
        return reply
    }

    /// The PNG a thumbnailer wrote, open at `input`, fitted to `edge` pixels.
    static func decodeOutput(_ input: Int32, name: String, thumbnailer: String, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let bytes = PictureService.read(input, upTo: largestOutput)
        // The PNG signature, then IHDR: its size, to refuse a bomb by name before decoding.
        guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) else {
            throw .thumbnailerFailed(name: name, thumbnailer: thumbnailer, reason: tr("it produced no image"))
        }
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        guard width <= largestOutputSide, height <= largestOutputSide, width * height <= ImageThumbnailer.pixelLimit else {
            throw .thumbnailerFailed(name: name, thumbnailer: thumbnailer, reason: tr("its image is too large"))
        }
        guard let image = PictureService.png(bytes, largestSide: largestOutputSide, pixelLimit: ImageThumbnailer.pixelLimit) else {
            throw .thumbnailerFailed(name: name, thumbnailer: thumbnailer, reason: tr("its image could not be read"))
        }
        return image.fitting(edge)
    }

    /// The largest PNG read from a thumbnailer, and the longest side decoded.
    static let largestOutput = 256 << 20
    static let largestOutputSide = 32768
}
