import CGLib
import DocumentCore
import DocumentUI
import Foundation

extension FuzzTarget {
    /// An image's header as the thumbnailers, the previewer and Markdown read it before
    /// decoding, with the decompression-bomb checks they make of it (GdkPixbuf's loaders; libjpeg
    /// for the JPEG thumbnailer).
    static let imageHeader = FuzzTarget("image-header", "image headers before decoding (ImageHeader, bomb checks)") { data in
        let path = ScratchFolder.write(data, to: "image/input").path
        if let header = ImageHeader(path: path) {
            expect(header.isVector || header.pixelCount != nil, "a raster header without a size was accepted")
            for limit in [ImageThumbnailer.pixelLimit, ImageDecoding.pixelLimit] where header.fits(pixelLimit: limit) && !header.isVector {
                expect(header.width * header.height <= limit, "\(header.width) × \(header.height) passed the limit of \(limit) pixels")
            }
            // XPM and XBM are decoded whole, an XBM's bits by Dossier itself: small ones are decoded here.
            if header.decodesWhole, header.fits(pixelLimit: 1 << 20) {
                if let pixbuf = ImageDecoder.whole(path, header, nil) { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            }
        }
        guard let file = fopen(path, "rb") else { return }
        defer { fclose(file) }
        if let header = ImageHeader.jpeg(file), header.fits(pixelLimit: ImageThumbnailer.jpegPixelLimit) {
            expect(header.width > 0 && header.height > 0, "a JPEG without a size passed the limit")
        }
    }
}
