import CGLib
import CImaging
import CSandbox
import DecoderWire
import Foundation
import GObjectSupport

/// The decoding side of `ImageDecoding`: what a decoder worker runs for the `image` operation
/// (and, where GdkPixbuf hands images to glycin, the process that asks). It reads the header
/// first and refuses a raster image over the pixel limit before any decoding; then decodes a
/// still image at the size asked (JPEG's DCT scaling makes a reduced decode several times
/// faster, an SVG is drawn at that size), turned upright as its EXIF orientation says, or an
/// animation's frames. Pixels go into a sealed memfd.
package enum ImageDecoder {
    /// gdk-pixbuf's formats that may hold several frames.
    static let animatedFormats: Set<String> = ["gif", "webp", "ani"]

    /// The most frames of an animation kept, and the most bytes they take together. An
    /// animation past either plays the frames that fit, in a loop: still moving, cut short
    /// (a 500 × 500 GIF fits 268 frames; frames are kept decoded, where GdkPixbuf kept a GIF's
    /// compressed data and composited each frame as it came). One whose single frame is past
    /// the byte limit shows its first frame, decoded as a still image.
    static let frameLimit = 1000
    static let animationByteLimit = 256 << 20

    /// What the caller asks for.
    package struct Request {
        /// The long side wanted; nil: the image's own size (at most `ImageDecoding.largestEdge`).
        package var edge: Int32?
        /// Decoded no wider than this (Markdown's pictures); takes the place of `edge`.
        var width: Int32?
        /// An SVG drawn at `edge` even when that is larger than its own size (zoomed in).
        var enlarge = false
        /// Only the first frame of an animation.
        package var still = false
        var pixelLimit = ImageDecoding.pixelLimit
        /// JPEG through libjpeg rather than GdkPixbuf (where GdkPixbuf would give it to glycin).
        package var jpegThroughLibjpeg = false

        package init() {}

        /// The request a worker was sent, its sizes at least one pixel.
        package init(_ options: ImageOptions) {
            edge = options.edge.map { max($0, 1) }
            width = options.width.map { max($0, 1) }
            still = options.still
            enlarge = options.enlarge
            pixelLimit = options.pixelLimit
            jpegThroughLibjpeg = options.jpegThroughLibjpeg
        }

        /// The request as it goes to a worker.
        var options: ImageOptions {
            ImageOptions(edge: edge, width: width, enlarge: enlarge, still: still, pixelLimit: pixelLimit,
                         jpegThroughLibjpeg: jpegThroughLibjpeg)
        }
    }

    /// The worker's side: decodes the file open at `input`.
    package static func perform(input: Int32, request: Request) -> (DecoderReply, Int32?) {
        decode(path: "/proc/self/fd/\(input)", request)
    }

    /// Decodes the image at `path`: the reply's values and the memfd of its pixels, or the
    /// reply's error (an `ImageDecodingError` in JSON).
    package static func decode(path: String, _ request: Request) -> (DecoderReply, Int32?) {
        do throws(ImageDecodingError) {
            if request.jpegThroughLibjpeg, let decoded = try jpeg(path, request) { return decoded }
            return try pixbuf(path, request)
        } catch {
            return (DecoderReply(failure: error), nil)
        }
    }

    /// Through GdkPixbuf's loaders: the header first, then an animation's frames or the image.
    private static func pixbuf(_ path: String, _ request: Request) throws(ImageDecodingError) -> (DecoderReply, Int32?) {
        guard let header = ImageHeader(path: path) else { throw .unrecognised }
        guard header.fits(pixelLimit: request.pixelLimit) else { throw .tooLarge(width: header.width, height: header.height) }
        // Only formats that can move are opened as an animation: for the others GdkPixbuf would
        // decode the whole image at full size first, and a large photo's reduced decode would
        // wait for it.
        // An animation whose one frame is past the animations' byte limit shows its first frame,
        // decoded as a still image.
        if !request.still, animatedFormats.contains(header.format), header.width * header.height * 4 <= animationByteLimit,
           let animation = try? withGError({ gdk_pixbuf_animation_new_from_file(path, $0) }) {
            defer { unref(animation) }
            if gdk_pixbuf_animation_is_static_image(animation) == 0 { return try frames(of: animation) }
        }
        let width = Int32(clamping: header.width), height = Int32(clamping: header.height)
        let ownEdge = max(width, height)
        let edge: Int32
        let decoded: OpaquePointer?
        do {
            if let wanted = request.width {
                // An SVG too is drawn at its own size here (as a raster one is decoded), narrower when wider.
                edge = min(width, wanted)
                decoded = try withGError { error in
                    width > wanted ? scaled(path, header, width: wanted, height: -1, error)
                        : whole(path, header, error)
                }
            } else {
                // A vector image smaller than the view is drawn at its own size, as a raster one
                // is shown, and again at the size asked when zoomed in (`enlarge`); a large
                // raster one is decoded down.
                let wanted = request.edge ?? ImageDecoding.largestEdge
                let target = header.isVector && ownEdge > 0 && !request.enlarge ? min(wanted, ownEdge, ImageDecoding.largestEdge)
                    : min(wanted, ImageDecoding.largestEdge)
                let scaled = header.isVector || ownEdge > target
                edge = scaled ? target : ownEdge
                decoded = try withGError { error in
                    scaled ? Self.scaled(path, header, width: target, height: target, error)
                        : Self.whole(path, header, error)
                }
            }
        } catch {
            throw .undecodable((error as? GLibError)?.message ?? "\(error)")
        }
        guard let decoded else { throw .undecodable(tr("the image is empty")) }
        let image = Pixbuf(adopting: decoded)
        // JPEG, PNG, TIFF and WebP can carry an orientation; GdkPixbuf exposes it as an option.
        let upright = gdk_pixbuf_apply_embedded_orientation(image.pointer).map(Pixbuf.init(adopting:)) ?? image
        return try reply(upright, values: ["fullWidth": String(width), "fullHeight": String(height),
                                           "edge": String(edge), "vector": header.isVector ? "1" : "0"])
    }

    /// The image at `path` fitted in `width` × `height` (-1: any), its aspect kept: decoded at that
    /// size where the loader can, else (`ImageHeader.decodesWhole`) whole, then scaled.
    package static func scaled(_ path: String, _ header: ImageHeader, width: Int32, height: Int32,
                               _ error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> OpaquePointer? {
        guard header.decodesWhole else { return gdk_pixbuf_new_from_file_at_scale(path, width, height, 1, error) }
        guard let whole = Self.whole(path, header, error) else { return nil }
        defer { unref(whole) }
        let fullWidth = Double(gdk_pixbuf_get_width(whole)), fullHeight = Double(gdk_pixbuf_get_height(whole))
        let scale = min(width > 0 ? Double(width) / fullWidth : .infinity, height > 0 ? Double(height) / fullHeight : .infinity)
        let newWidth = Int32(max(1, (fullWidth * scale).rounded())), newHeight = Int32(max(1, (fullHeight * scale).rounded()))
        return gdk_pixbuf_scale_simple(whole, newWidth, newHeight, GDK_INTERP_BILINEAR)
    }

    /// The image at `path` at its own size. An XBM has no signature GdkPixbuf could tell it by
    /// without its name (the worker has only a descriptor), so its bits are read here.
    package static func whole(_ path: String, _ header: ImageHeader,
                              _ error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> OpaquePointer? {
        guard header.format == "xbm" else { return gdk_pixbuf_new_from_file(path, error) }
        guard let data = FileManager.default.contents(atPath: path), data.count <= xbmByteLimit,
              let pixbuf = xbm(String(decoding: data, as: UTF8.self), width: header.width, height: header.height)
        else {
            g_set_error_literal(error, gdk_pixbuf_error_quark(), Int32(GDK_PIXBUF_ERROR_CORRUPT_IMAGE.rawValue),
                                tr("the XBM data is damaged"))
            return nil
        }
        return pixbuf
    }

    /// The largest XBM file read: its text spends about five bytes on eight pixels.
    static let xbmByteLimit = 64 << 20

    /// An XBM's pixels from its text: the numbers of its C array, each row padded to a whole
    /// byte, the lowest bit leftmost; a set bit black, the others white, as GdkPixbuf's loader
    /// draws them. Nil when the array holds fewer bytes than the size needs.
    static func xbm(_ text: String, width: Int, height: Int) -> OpaquePointer? {
        guard width > 0, height > 0, let open = text.firstIndex(of: "{") else { return nil }
        let rowBytes = (width + 7) / 8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(rowBytes * height, xbmByteLimit))
        for token in text[text.index(after: open)...].split(whereSeparator: { $0 == "," || $0 == "}" || $0.isWhitespace }) {
            guard bytes.count < rowBytes * height else { break }
            let value = token.hasPrefix("0x") || token.hasPrefix("0X") ? UInt8(token.dropFirst(2), radix: 16) : UInt8(token)
            guard let value else { if token.hasPrefix(";") { break } else { return nil } }
            bytes.append(value)
        }
        guard bytes.count == rowBytes * height,
              let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else { return nil }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        for y in 0..<height {
            for x in 0..<width {
                let isSet = bytes[y * rowBytes + x / 8] & (1 << UInt8(x % 8)) != 0
                let value: UInt8 = isSet ? 0 : 255
                let start = y * stride + x * 3
                pixels[start] = value
                pixels[start + 1] = value
                pixels[start + 2] = value
            }
        }
        return pixbuf
    }

    /// A JPEG through libjpeg with DCT scaling, turned upright; nil when libjpeg does not read
    /// it as a JPEG (GdkPixbuf then tries).
    private static func jpeg(_ path: String, _ request: Request) throws(ImageDecodingError) -> (DecoderReply, Int32?)? {
        guard let file = fopen(path, "rb") else { throw .unreadable(String(cString: strerror(errno))) }
        defer { fclose(file) }
        guard let header = ImageHeader.jpeg(file), header.width > 0, header.height > 0 else { return nil }
        guard header.fits(pixelLimit: request.pixelLimit) else { throw .tooLarge(width: header.width, height: header.height) }
        let longest = max(header.width, header.height)
        // The long side wanted: the width asked for turned into it, or the edge.
        let edge = request.width.map { min(Int($0), header.width) * longest / header.width }
            ?? Int(min(request.edge ?? ImageDecoding.largestEdge, ImageDecoding.largestEdge))
        // The largest reduction that still leaves at least `edge` pixels on the long side.
        let denominator = [8, 4, 2, 1].first { (longest + $0 - 1) / $0 >= edge } ?? 1
        rewind(file)
        var decodedWidth: Int32 = 0, decodedHeight: Int32 = 0, fullWidth: Int32 = 0, fullHeight: Int32 = 0
        guard let pixels = dossier_jpeg_decode_scaled_quality(file, UInt32(denominator), 1, &decodedWidth, &decodedHeight,
                                                              &fullWidth, &fullHeight),
              let image = Pixbuf.adoptingRGB(pixels, width: Int(decodedWidth), height: Int(decodedHeight))
        else { throw .undecodable(tr("the JPEG data is damaged")) }
        let upright = image.fitting(edge).oriented(JPEGMetadata(path: path).orientation)
        return try reply(upright, values: ["fullWidth": String(header.width), "fullHeight": String(header.height),
                                           "edge": String(min(edge, longest)), "vector": "0"])
    }

    /// A pixbuf's rows in a sealed memfd, with their layout and `values`.
    private static func reply(_ image: Pixbuf, values: [String: String]) throws(ImageDecodingError) -> (DecoderReply, Int32?) {
        let (reply, fd) = DecoderReply.pixels(image.pointer, values: values)
        if let error = reply.error { throw .undecodable(error) }
        return (reply, fd)
    }

    /// An animation's frames, composited at its size (RGBA), one after the other in a sealed
    /// memfd, with how long each shows and how many times they play.
    private static func frames(of animation: OpaquePointer) throws(ImageDecodingError) -> (DecoderReply, Int32?) {
        let width = Int(gdk_pixbuf_animation_get_width(animation)), height = Int(gdk_pixbuf_animation_get_height(animation))
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, width * height * 4 <= animationByteLimit,
              let iterator = dossier_animation_iter_new(animation) else { throw .unrecognised }
        defer { unref(iterator) }
        let stride = width * 4, frameBytes = stride * height
        let fd = dossier_memfd_create("dossier-animation", 0)
        guard fd >= 0 else { throw .undecodable(tr("no memory for the image")) }
        var delays: [Int] = []
        var loops = 0
        var time: Int64 = 0
        var first: OpaquePointer?
        var pixbufPerFrame = false
        var truncated = false
        // The frames of one loop, on the animation's own timeline. GIF's iterator says when it
        // is on the last frame; WebP's keeps a pixbuf per frame, and its first comes back.
        while let frame = gdk_pixbuf_animation_iter_get_pixbuf(iterator) {
            if delays.count == 1 { pixbufPerFrame = frame != first }
            if delays.count > 1, pixbufPerFrame, frame == first { break }
            if first == nil { first = frame }
            guard write(frame, width: width, height: height, to: fd, at: delays.count * frameBytes) else {
                close(fd)
                throw .undecodable(tr("no memory for the image"))
            }
            let delay = Int(gdk_pixbuf_animation_iter_get_delay_time(iterator))
            delays.append(max(delay, 0))
            if delay < 0 {
                loops = 1  // this frame stays
                break
            }
            if gdk_pixbuf_animation_iter_on_currently_loading_frame(iterator) != 0 { break }
            if delays.count >= frameLimit || (delays.count + 1) * frameBytes > animationByteLimit {
                truncated = true  // what fits plays in a loop
                break
            }
            time += Int64(delay)
            // WebP's iterator counts a frame's end as still that frame: a millisecond later is the next.
            if dossier_animation_iter_advance_to(iterator, gint64(time)) == 0 {
                time += 1
                guard dossier_animation_iter_advance_to(iterator, gint64(time)) != 0 else { break }
            }
        }
        if loops == 0, !truncated { loops = self.loops(of: animation, length: delays.reduce(0, +)) }
        guard !delays.isEmpty, dossier_memfd_seal(fd) == 0 else {
            close(fd)
            throw .undecodable(tr("the animation has no frames"))
        }
        return (DecoderReply(values: ["animation": "1", "width": String(width), "height": String(height),
                                     "stride": String(stride), "channels": "4", "frames": String(delays.count),
                                     "delays": delays.map(String.init).joined(separator: ","), "loops": String(loops)]), fd)
    }

    /// How many times an animation of `length` ms plays before its last frame stays (a GIF's
    /// loop count, which GdkPixbuf keeps to itself): 0 when it plays for ever (or past 20 times).
    private static func loops(of animation: OpaquePointer, length: Int) -> Int {
        guard length > 0, let probe = dossier_animation_iter_new(animation) else { return 0 }
        defer { unref(probe) }
        for count in 1...20 {
            dossier_animation_iter_advance_to(probe, gint64(count * length + 1))
            if gdk_pixbuf_animation_iter_get_delay_time(probe) < 0 { return count }
        }
        return 0
    }

    /// Writes `frame`'s pixels as RGBA rows of `width` × 4 bytes at `offset` of `fd`.
    private static func write(_ frame: OpaquePointer, width: Int, height: Int, to fd: Int32, at offset: Int) -> Bool {
        guard gdk_pixbuf_get_width(frame) == width, gdk_pixbuf_get_height(frame) == height,
              gdk_pixbuf_get_bits_per_sample(frame) == 8 else { return false }
        // An RGB frame (no alpha) gets an opaque alpha channel.
        let rgba = gdk_pixbuf_get_has_alpha(frame) != 0 ? nil : gdk_pixbuf_add_alpha(frame, 0, 0, 0, 0).map(Pixbuf.init(adopting:))
        let source = rgba?.pointer ?? frame
        guard gdk_pixbuf_get_n_channels(source) == 4, let pixels = gdk_pixbuf_read_pixels(source) else { return false }
        let sourceStride = Int(gdk_pixbuf_get_rowstride(source))
        for row in 0..<height {
            var written = 0
            while written < width * 4 {
                let count = pwrite(fd, pixels + row * sourceStride + written, width * 4 - written,
                                   off_t(offset + row * width * 4 + written))
                guard count > 0 else { return false }
                written += count
            }
        }
        return true
    }
}
