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
    package static let largestSide = 4096
    /// The largest PNG read (a 4,096-pixel one at worst ratio is far smaller).
    package static let largestPNG = 64 << 20
    /// How much of a photo is read for its EXIF block (as `JPEGMetadata`).
    package static let exifReach = 256 * 1024

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
}
