import CGLib
import CImaging
import Foundation
import GObjectSupport

/// Raster and vector images, in process. JPEGs are decoded by libjpeg at a reduced scale
/// (1/2, 1/4 or 1/8: a 24-megapixel photo is never decoded whole); other formats through
/// GdkPixbuf's loaders (PNG, GIF, WebP, TIFF, SVG, …), at size where the loader can. The
/// size is read from the header first, and a raster image over the pixel limit (a
/// decompression bomb) is refused before any decoding. EXIF orientation is applied.
package enum ImageThumbnailer {
    /// Largest raster image decoded whole (GdkPixbuf's PNG, TIFF… loaders decode in full).
    package static let pixelLimit = 64_000_000
    /// Largest JPEG accepted: libjpeg's scaling keeps the decoded size at 1/64 of it.
    package static let jpegPixelLimit = 1_000_000_000

    package static func thumbnail(of source: inout ThumbnailSource, edge: Int) throws(ThumbnailError) -> Pixbuf {
        if source.type == .jpeg, let image = try jpeg(&source, edge: edge) {
            return image
        }
        return try generic(&source, edge: edge)
    }

    /// libjpeg with DCT scaling; nil when the file is not a JPEG libjpeg reads (GdkPixbuf then tries).
    private static func jpeg(_ source: inout ThumbnailSource, edge: Int) throws(ThumbnailError) -> Pixbuf? {
        guard let file = fopen(source.path, "rb") else {
            throw .unreadable(name: source.name, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        guard let header = ImageHeader.jpeg(file), header.width > 0, header.height > 0 else { return nil }
        source.dimensions = (header.width, header.height)
        guard header.fits(pixelLimit: jpegPixelLimit) else {
            throw .tooLarge(name: source.name, width: header.width, height: header.height)
        }
        // The largest reduction that still leaves at least `edge` pixels on the long side.
        let longest = max(header.width, header.height)
        let denominator = [8, 4, 2, 1].first { (longest + $0 - 1) / $0 >= edge } ?? 1
        rewind(file)
        var decodedWidth: Int32 = 0, decodedHeight: Int32 = 0, fullWidth: Int32 = 0, fullHeight: Int32 = 0
        guard let pixels = dossier_jpeg_decode_scaled(file, UInt32(denominator), &decodedWidth, &decodedHeight, &fullWidth, &fullHeight),
              let image = Pixbuf.adoptingRGB(pixels, width: Int(decodedWidth), height: Int(decodedHeight))
        else {
            throw .decodingFailed(name: source.name, reason: tr("the JPEG data is damaged"))
        }
        return image.fitting(edge).oriented(JPEGMetadata(path: source.path).orientation)
    }

    private static func generic(_ source: inout ThumbnailSource, edge: Int) throws(ThumbnailError) -> Pixbuf {
        guard let header = ImageHeader(path: source.path) else {
            throw .decodingFailed(name: source.name, reason: tr("the image format is not recognised or the file is damaged"))
        }
        let isVector = header.isVector
        source.dimensions = (header.width, header.height)
        guard header.fits(pixelLimit: pixelLimit) else {
            throw .tooLarge(name: source.name, width: header.width, height: header.height)
        }
        let decoded: OpaquePointer?
        do {
            decoded = try withGError { error in
                // A vector image is rendered at the size wanted; a small raster one is kept at
                // its own size (a thumbnail is never larger than its image).
                if isVector || max(header.width, header.height) > edge {
                    return ImageDecoder.scaled(source.path, header, width: Int32(edge), height: Int32(edge), error)
                }
                return ImageDecoder.whole(source.path, header, error)
            }
        } catch {
            throw .decodingFailed(name: source.name, reason: "\(error)")
        }
        guard let decoded else { throw .decodingFailed(name: source.name, reason: tr("the image is empty")) }
        let image = Pixbuf(adopting: decoded)
        // PNG, TIFF and WebP can carry an orientation too; GdkPixbuf exposes it as an option.
        guard let upright = gdk_pixbuf_apply_embedded_orientation(image.pointer) else { return image.fitting(edge) }
        return Pixbuf(adopting: upright).fitting(edge)
    }
}
