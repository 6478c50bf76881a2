import Foundation

/// Decoded pixels in a decoder worker's sealed memfd: 8-bit RGBA (straight alpha) or RGB rows,
/// `stride` bytes apart, from `offset` in the blob. The layout has been checked against the
/// blob's size, so every row lies inside it.
package struct ImagePixels: Sendable {
    /// The width in pixels.
    package let width: Int32
    /// The height in pixels (the number of rows).
    package let height: Int32
    /// Bytes from one row to the next.
    package let stride: Int
    /// RGBA when true (4 bytes a pixel), RGB otherwise (3).
    package let hasAlpha: Bool
    /// The memfd the pixels are in; whatever shows them keeps it alive as long as it does.
    package let blob: SealedBlob
    /// Where the first row starts in `blob`.
    package let offset: Int

    /// The bytes the rows take, from the first pixel to the last.
    package var byteCount: Int { stride * Int(height - 1) + Int(width) * (hasAlpha ? 4 : 3) }

    /// The layout, if it is a sane image that lies inside `blob` (the worker's word is not trusted).
    init?(width: Int, height: Int, stride: Int, channels: Int, blob: SealedBlob, offset: Int = 0) {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, channels == 3 || channels == 4,
              stride >= width * channels, stride <= 1 << 20, offset >= 0,
              blob.count - offset >= stride * (height - 1) + width * channels else { return nil }
        self.width = Int32(width)
        self.height = Int32(height)
        self.stride = stride
        hasAlpha = channels == 4
        self.blob = blob
        self.offset = offset
    }
}

/// An image decoded for showing: one picture, or an animation's frames.
package enum DecodedImage: Sendable {
    /// A single picture.
    case still(StillImage)
    /// An animation's frames (an animated GIF, WebP or cursor).
    case animation(ImageAnimation)
}

/// A still image (or an SVG drawn at a size), upright as its EXIF orientation says.
package struct StillImage: Sendable {
    /// The decoded pixels.
    package let pixels: ImagePixels
    /// The image's own size, from its header (an SVG's intrinsic size; 0 when it has none).
    package let fullWidth: Int32
    /// The image's own height, from its header (0 when it has none).
    package let fullHeight: Int32
    /// The long side it was decoded at (its own for an image decoded whole).
    package let edge: Int32
    /// Drawn from vectors (SVG): it can be drawn again, larger, at any size.
    package let isVector: Bool
}

/// An animation's frames, composited at the animation's size, in one memfd.
package struct ImageAnimation: Sendable {
    /// The frames in the order they play, each at the animation's size.
    package let frames: [ImagePixels]
    /// How long each frame shows, in milliseconds.
    package let delays: [Int]
    /// How many times the frames play before the last one stays; 0: for ever.
    package let loops: Int
}

/// Why an image is not shown, in words for the previewer's error page.
package enum ImageDecodingError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The file could not be opened.
    case unreadable(String)
    /// No decoder recognises the file, or its header gives no size.
    case unrecognised
    /// A raster image over the pixel limit (a decompression bomb is refused before decoding).
    case tooLarge(width: Int, height: Int)
    /// The decoder read the file and gave up, with its message.
    case undecodable(String)
    /// The decoder worker died during the decoding (a crash, or one of its limits).
    case decoderStopped(String)
    /// The decoder worker ran past its time and was stopped.
    case timedOut(seconds: Int)
    /// No decoder worker could be started.
    case cannotStart(String)
    /// The worker's answer was not an image.
    case malformedResult
    /// Dropped before a worker took it: the page it was for went.
    case cancelled

    package var description: String {
        switch self {
        case .unreadable(let reason): tr("The file could not be read: %s", reason)
        case .unrecognised: tr("The image format is not recognised, or the file is damaged.")
        case .tooLarge(let width, let height):
            tr("The image is too large to show (%s × %s pixels).", String(width), String(height))
        case .undecodable(let reason): tr("The image could not be decoded: %s", reason)
        case .decoderStopped(let how):
            tr("The image decoder stopped (%s): the file is damaged, or made to harm. Other files are not affected.", how)
        case .timedOut(let seconds):
            tr("The image decoder took longer than %s seconds and was stopped.", String(seconds))
        case .cannotStart(let why): tr("The image decoder could not be started: %s", why)
        case .malformedResult: tr("The image decoder gave a result that is not an image.")
        case .cancelled: tr("Cancelled")
        }
    }
}
