import CGLib
import CImaging
import DecoderWire
import DocumentCore
import Foundation
import GObjectSupport

/// The worker's side of `ThumbnailPictures`: a cached PNG or a photo's EXIF thumbnail,
/// decoded by libpng or libjpeg, scaled to the cell and sent back as cairo's rows.
enum PictureService {
    static func perform(input: Int32, options: ThumbnailPictureOptions) -> (DecoderReply, Int32?) {
        let edge = options.edge
        guard (1...ThumbnailPictures.largestSide).contains(edge) else {
            return (DecoderReply(error: "a picture request without its size"), nil)
        }
        let decoded: Pixbuf?
        switch options.source {
        case .png: decoded = png(read(input, upTo: ThumbnailPictures.largestPNG))
        case .exif: decoded = embedded(JPEGMetadata(data: read(input, upTo: ThumbnailPictures.exifReach)))
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
    /// larger than `ThumbnailPictures.largestSide` a side or `pixelLimit` pixels.
    static func png(_ bytes: [UInt8], largestSide: Int = ThumbnailPictures.largestSide,
                    pixelLimit: Int = ThumbnailPictures.largestSide * ThumbnailPictures.largestSide) -> Pixbuf? {
        var width: UInt32 = 0, height: UInt32 = 0, channels: UInt32 = 0
        guard let pixels = bytes.withUnsafeBytes({
            dossier_png_decode_rgba($0.baseAddress, $0.count, UInt32(ThumbnailPictures.largestSide), pixelLimit, &width, &height, &channels)
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
                  Int(width) <= ThumbnailPictures.largestSide, Int(height) <= ThumbnailPictures.largestSide else { return nil }
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
