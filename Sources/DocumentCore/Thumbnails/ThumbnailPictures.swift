import CGLib
import CImaging
import DecoderWire
import Foundation
import GObjectSupport

/// A picture for a browser cell, decoded in a thumbnail worker: cairo's ARGB32 rows
/// (premultiplied, native byte order) in the worker's sealed memfd, their layout checked
/// against it before anyone reads them.
public struct ThumbnailPicture: Sendable {
    /// The width in device pixels.
    public let width: Int
    /// The height in device pixels (the number of rows).
    public let height: Int
    /// Bytes from one row to the next (at least `width` × 4).
    public let stride: Int
    /// The worker's sealed memory that holds the rows.
    package let blob: SealedBlob

    /// The worker's pixels, once their layout is checked: a worker is not trusted to say where they lie.
    init?(_ output: DecoderWorker.Output) {
        guard let blob = output.blob, let width = output.values["width"].flatMap(Int.init),
              let height = output.values["height"].flatMap(Int.init), let stride = output.values["stride"].flatMap(Int.init),
              (1...ThumbnailPictures.largestSide).contains(width), (1...ThumbnailPictures.largestSide).contains(height),
              stride >= width * 4, stride <= ThumbnailPictures.largestSide * 4,  // bounded before it is multiplied
              blob.count >= stride * (height - 1) + width * 4
        else { return nil }
        (self.width, self.height, self.stride, self.blob) = (width, height, stride, blob)
    }
}

/// The pictures the browser shows in its cells from files it did not make: the shared cache's
/// PNG thumbnails (any thumbnailer of the desktop may have written them) and a photo's own EXIF
/// thumbnail (JPEG bytes from inside the photo). Both are decoded in the thumbnailers' workers
/// (`ThumbnailWorkers.pool`), by libpng and libjpeg themselves (no GdkPixbuf loader, so the same
/// where GdkPixbuf hands images to glycin), scaled to the cell's size there, and come back as
/// `ThumbnailPicture`s. Each call blocks its thread until the worker answers: never the main thread.
public enum ThumbnailPictures {
    /// The longest side of a picture decoded (the cache's largest size is 1,024).
    static let largestSide = 4096
    /// The largest PNG read (a 4,096-pixel one at worst ratio is far smaller).
    static let largestPNG = 64 << 20
    /// How much of a photo is read for its EXIF block (as `JPEGMetadata`).
    static let exifReach = 256 * 1024

    /// The PNG thumbnail at `path` fitting `edge` pixels square, or nil when it cannot be read
    /// or decoded (a damaged or hostile PNG, a worker that crashed).
    public static func cachedThumbnail(atPath path: String, fitting edge: Int) -> ThumbnailPicture? {
        cachedThumbnail(atPath: path, fitting: edge, workers: ThumbnailWorkers.pool)
    }

    /// `cachedThumbnail(atPath:fitting:)` in `workers` (the tests' workers with the test formats).
    package static func cachedThumbnail(atPath path: String, fitting edge: Int, workers: DecoderWorkerPool) -> ThumbnailPicture? {
        picture(of: path, from: .png, fitting: edge, workers: workers)
    }

    /// The JPEG at `path`'s own EXIF thumbnail, upright, fitting `edge` pixels square; nil when
    /// it has none or it cannot be decoded.
    public static func embeddedThumbnail(ofPhotoAt path: String, fitting edge: Int) -> ThumbnailPicture? {
        embeddedThumbnail(ofPhotoAt: path, fitting: edge, workers: ThumbnailWorkers.pool)
    }

    /// `embeddedThumbnail(ofPhotoAt:fitting:)` in `workers`.
    package static func embeddedThumbnail(ofPhotoAt path: String, fitting edge: Int, workers: DecoderWorkerPool) -> ThumbnailPicture? {
        picture(of: path, from: .exif, fitting: edge, workers: workers)
    }

    private static func picture(of path: String, from source: ThumbnailPictureOptions.Source, fitting edge: Int,
                                workers: DecoderWorkerPool) -> ThumbnailPicture? {
        guard edge > 0, let fd = try? WorkerInput.open(path) else { return nil }
        defer { close(fd) }
        let options = ThumbnailPictureOptions(source: source, edge: min(edge, largestSide))
        guard let output = try? workers.perform(.thumbnailPicture(options), input: FileDescriptor(rawValue: fd)) else { return nil }
        return ThumbnailPicture(output)
    }

    // MARK: The worker's side

    static func perform(input: Int32, options: ThumbnailPictureOptions) -> (DecoderReply, Int32?) {
        let edge = options.edge
        guard (1...largestSide).contains(edge) else {
            return (DecoderReply(error: "a picture request without its size"), nil)
        }
        let decoded: Pixbuf?
        switch options.source {
        case .png: decoded = png(read(input, upTo: largestPNG))
        case .exif: decoded = embedded(JPEGMetadata(data: read(input, upTo: exifReach)))
        }
        guard let decoded else { return (DecoderReply(error: "no picture"), nil) }
        return reply(scaled(decoded, fitting: edge))
    }

    /// The first `reach` bytes of the file open at `input` (all of it when smaller).
    static func read(_ input: Int32, upTo reach: Int) -> [UInt8] {
        var status = stat()
        guard fstat(input, &status) == 0 else { return [] }
        let limit = min(reach, Int(max(0, status.st_size)))
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { pread(input, $0.baseAddress! + count, limit - count, off_t(count)) }
            guard got > 0 else { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// A PNG decoded by libpng (no GdkPixbuf loader), RGB or RGBA as GdkPixbuf's loader gives it, or nil when it is damaged, not a PNG, or
    /// larger than `largestSide` a side or `pixelLimit` pixels.
    static func png(_ bytes: [UInt8], largestSide: Int = largestSide, pixelLimit: Int = largestSide * largestSide) -> Pixbuf? {
        var width: UInt32 = 0, height: UInt32 = 0, channels: UInt32 = 0
        guard let pixels = bytes.withUnsafeBytes({
            dossier_png_decode_rgba($0.baseAddress, $0.count, UInt32(largestSide), pixelLimit, &width, &height, &channels)
        }) else { return nil }
        guard let pixbuf = gdk_pixbuf_new_from_data(pixels, GDK_COLORSPACE_RGB, channels == 4 ? 1 : 0, 8, Int32(width), Int32(height),
                                                    Int32(width * channels), { pixels, _ in g_free(pixels) }, nil) else {
            g_free(pixels)
            return nil
        }
        return Pixbuf(adopting: pixbuf)
    }

    /// The EXIF thumbnail through libjpeg (at its own size: a camera's is about 160 × 120), upright.
    private static func embedded(_ metadata: JPEGMetadata) -> Pixbuf? {
        guard var data = metadata.embeddedThumbnail, !data.isEmpty else { return nil }
        return data.withUnsafeMutableBytes { bytes -> Pixbuf? in
            guard let file = fmemopen(bytes.baseAddress, bytes.count, "rb") else { return nil }
            defer { fclose(file) }
            var width: Int32 = 0, height: Int32 = 0
            guard dossier_jpeg_size(file, &width, &height) != 0, width > 0, height > 0,
                  Int(width) <= largestSide, Int(height) <= largestSide else { return nil }
            rewind(file)
            var fullWidth: Int32 = 0, fullHeight: Int32 = 0
            guard let pixels = dossier_jpeg_decode_scaled(file, 1, &width, &height, &fullWidth, &fullHeight) else { return nil }
            return Pixbuf.adoptingRGB(pixels, width: Int(width), height: Int(height))
        }?.oriented(metadata.orientation)
    }

    /// Scaled down to fit `edge` pixels square if larger; HYPER filters every source pixel (a
    /// 512-pixel thumbnail made 96 keeps its lines).
    private static func scaled(_ image: Pixbuf, fitting edge: Int) -> Pixbuf {
        let largest = max(image.width, image.height)
        guard largest > edge else { return image }
        let factor = Double(edge) / Double(largest)
        let width = max(1, Int((Double(image.width) * factor).rounded()))
        let height = max(1, Int((Double(image.height) * factor).rounded()))
        guard let scaled = gdk_pixbuf_scale_simple(image.pointer, Int32(width), Int32(height), GDK_INTERP_HYPER) else { return image }
        return Pixbuf(adopting: scaled)
    }

    /// The pixbuf's pixels premultiplied into cairo's ARGB32 rows, in a sealed memfd.
    private static func reply(_ image: Pixbuf) -> (DecoderReply, Int32?) {
        let pixbuf = image.pointer
        let width = image.width, height = image.height
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), rowstride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard width > 0, height > 0, gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == 3 || channels == 4,
              let pixels = gdk_pixbuf_read_pixels(pixbuf) else {
            return (DecoderReply(error: "the picture has an unusual pixel format"), nil)
        }
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0 && channels == 4
        let stride = width * 4
        var out = [UInt8](repeating: 0, count: stride * height)
        out.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                let row = pixels + y * rowstride
                for x in 0..<width {
                    let pixel = row + x * channels
                    let alpha = hasAlpha ? UInt32(pixel[3]) : 255
                    // Premultiplied, rounded: (c × a + 127) / 255.
                    let red = UInt8((UInt32(pixel[0]) * alpha + 127) / 255)
                    let green = UInt8((UInt32(pixel[1]) * alpha + 127) / 255)
                    let blue = UInt8((UInt32(pixel[2]) * alpha + 127) / 255)
                    let at = y * stride + x * 4
                    #if _endian(little)
                    (buffer[at], buffer[at + 1], buffer[at + 2], buffer[at + 3]) = (blue, green, red, UInt8(alpha))
                    #else
                    (buffer[at], buffer[at + 1], buffer[at + 2], buffer[at + 3]) = (UInt8(alpha), red, green, blue)
                    #endif
                }
            }
        }
        guard let fd = out.withUnsafeBytes({ SealedBlob.seal($0, name: "dossier-picture") }) else {
            return (DecoderReply(error: "no memory for the picture"), nil)
        }
        return (DecoderReply(values: ["width": String(width), "height": String(height), "stride": String(stride)]), fd)
    }
}
