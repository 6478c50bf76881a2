import DecoderWire
import Foundation

/// Images for the previewer (the image view, the prefetch of a first image, printing, the
/// pictures in Markdown), decoded out of process: the file goes to a decoder worker as an open
/// descriptor, the worker reads the header (a raster image over the pixel limit is refused
/// before decoding) and decodes, and the pixels come back in a sealed memfd that the caller
/// maps, never copies. The worker side is `ImageDecoder`.
///
/// It asks the previewer's own workers (`PreviewWorkers`), apart from the thumbnailers' pool.
///
/// Where GdkPixbuf hands images to glycin (`DecoderWorker.pixbufDecodesThroughGlycin`),
/// glycin's own sandbox cannot start inside a worker: there, as for thumbnails, the images only
/// glycin's loaders decode (`GlycinFormats`), JPEG aside, are given to GdkPixbuf in the calling
/// process, which glycin's sandbox decodes; JPEG is decoded by libjpeg in the worker, and the
/// images other loaders would take (XPM, XBM, third-party modules) by GdkPixbuf in the worker.
package enum ImageDecoding {
    /// The largest raster image decoded at all (a decompression bomb is refused).
    package static let pixelLimit = 400_000_000
    /// The longest side an image is decoded at, whatever is asked.
    package static let largestEdge: Int32 = 4096

    /// The size an image is decoded at (never more than `largestEdge` on its long side).
    package enum Size: Sendable, Equatable {
        /// Fitting `edge` pixels on its long side: a larger image decoded down to it, a smaller
        /// one (an SVG too) at its own size.
        case fitting(Int32)
        /// As `fitting`, but an SVG is drawn at `edge` even when that is larger than its own size
        /// (zoomed in).
        case enlarged(Int32)
        /// No wider than `width` pixels; a narrower image at its own size.
        case width(Int32)
    }

    /// Decodes the image at `path` (of type `type`) at `size`, off the calling thread; an
    /// animation gives its frames unless `still` (then its first).
    package static func decode(_ path: FileSystemPath, type: DocumentType, size: Size,
                              still: Bool = false) async -> Result<DecodedImage, ImageDecodingError> {
        // Cancelled (its page went: arrow keys held through a folder), a decode still waiting
        // for one of the two workers is dropped rather than hold one for up to 15 s.
        await blockingWork { cancellation in
            Result { () throws(ImageDecodingError) -> DecodedImage in
                try decodeNow(path, type: type, size: size, still: still, cancellation: cancellation)
            }
        }
    }

    /// The file at `path`, opened for a decoder; the caller closes it.
    private static func openInput(_ path: FileSystemPath) throws(ImageDecodingError) -> Int32 {
        do { return try WorkerInput.open(path) } catch {
            switch error {
            case .unreadable(let reason): throw .unreadable(reason)
            case .notRegularFile: throw .unrecognised
            }
        }
    }

    /// `decode(_:type:size:still:)` on the calling thread, which it blocks until the worker
    /// answers (never the main thread); dropped unsent, with `.cancelled`, once `cancellation` is set.
    package static func decodeNow(_ path: FileSystemPath, type: DocumentType, size: Size, still: Bool = false,
                                 cancellation: Cancellation? = nil) throws(ImageDecodingError) -> DecodedImage {
        var request = ImageDecoder.Request()
        switch size {
        case .fitting(let edge): request.edge = edge
        case .enlarged(let edge):
            request.edge = edge
            request.enlarge = true
        case .width(let width): request.width = width
        }
        request.still = still
        let isJPEG = type.conforms(to: .jpeg)
        if !isJPEG && GlycinFormats.decodeInCaller(type) {
            // GdkPixbuf gives the file to glycin's sandboxed loaders, and to no other (see GlycinFormats).
            // A name that is not UTF-8 is reached through its open descriptor.
            guard let name = path.string else {
                let input = try openInput(path)
                defer { close(input) }
                let (reply, fd) = ImageDecoder.decode(path: "/proc/self/fd/\(input)", request)
                return try image(from: reply, fd: fd)
            }
            let (reply, fd) = ImageDecoder.decode(path: name, request)
            return try image(from: reply, fd: fd)
        }
        request.jpegThroughLibjpeg = DecoderWorker.pixbufDecodesThroughGlycin && isJPEG
        let fd = try openInput(path)
        defer { close(fd) }
        let output = try PreviewWorkers.current.perform(.image(request.options), input: fd, cancellation: cancellation,
                                                        failing: error)
        return try image(from: output)
    }

    /// A decoding done in this process (glycin's case): its reply read as a worker's is.
    private static func image(from reply: DecoderReply, fd: Int32?) throws(ImageDecodingError) -> DecodedImage {
        if let message = reply.error {
            if let fd { close(fd) }
            throw WorkerFailure.decoded(message, as: ImageDecodingError.self) ?? .undecodable(message)
        }
        guard let fd, let blob = SealedBlob(adopting: fd) else { throw .malformedResult }
        return try image(from: DecoderWorker.Output(values: reply.values, blob: blob))
    }

    /// The longest delay between an animation's frames a worker may report (10 minutes).
    private static let longestDelay = 600_000
    /// The longest side an image's own size may report (its pixels were decoded smaller).
    private static let largestSide: Int32 = 1 << 20

    /// The worker's pixels and their layout, checked: a worker is not trusted to say where they lie.
    static func image(from output: DecoderWorker.Output) throws(ImageDecodingError) -> DecodedImage {
        let values = output.values
        guard let blob = output.blob, let width = values["width"].flatMap(Int.init), let height = values["height"].flatMap(Int.init),
              let stride = values["stride"].flatMap(Int.init), let channels = values["channels"].flatMap(Int.init)
        else { throw .malformedResult }
        if values["animation"] == "1" {
            let delays = (values["delays"] ?? "").split(separator: ",").compactMap { Int($0) }
            guard values["frames"].flatMap(Int.init) == delays.count, (1...ImageDecoder.frameLimit).contains(delays.count),
                  delays.allSatisfy({ (0...Self.longestDelay).contains($0) }),
                  let first = ImagePixels(width: width, height: height, stride: stride, channels: channels, blob: blob)
            else { throw .malformedResult }
            // The frame's size from the checked first frame: the worker's raw numbers could overflow.
            let frameBytes = first.stride * Int(first.height)
            var frames = [first]
            for index in delays.indices.dropFirst() {
                guard let frame = ImagePixels(width: width, height: height, stride: stride, channels: channels, blob: blob,
                                              offset: index * frameBytes) else { throw .malformedResult }
                frames.append(frame)
            }
            return .animation(ImageAnimation(frames: frames, delays: delays, loops: max(values["loops"].flatMap(Int.init) ?? 0, 0)))
        }
        guard let pixels = ImagePixels(width: width, height: height, stride: stride, channels: channels, blob: blob) else {
            throw .malformedResult
        }
        // The image's own size, within what any decoder accepts (a zoom to 1:1 scales by it).
        func number(_ name: String) -> Int32 { values[name].flatMap(Int32.init).map { min(max($0, 0), Self.largestSide) } ?? 0 }
        return .still(StillImage(pixels: pixels, fullWidth: number("fullWidth"), fullHeight: number("fullHeight"),
                                 edge: max(number("edge"), pixels.width, pixels.height), isVector: values["vector"] == "1"))
    }

    private static func error(_ failure: WorkerFailure) -> ImageDecodingError {
        switch failure {
        case .refused(let message): .undecodable(message)
        case .stopped(let how): .decoderStopped(how)
        case .timedOut(let seconds): .timedOut(seconds: seconds)
        case .unavailable(let why): .cannotStart(why)
        case .cancelled: .cancelled
        }
    }
}
