import CImaging
import Foundation
import GObjectSupport

/// What an image file's header says before any pixel is decoded: its format and size. Every
/// decoder of images from outside (the thumbnailers, the previewer, Markdown's pictures, an
/// external thumbnailer's output) reads it first and refuses a decompression bomb — a small
/// file whose header promises more pixels than memory holds — with `fits(pixelLimit:)`.
package struct ImageHeader: Sendable, Equatable {
    /// GdkPixbuf's name for the format (`png`, `jpeg`, `svg`, …).
    package let format: String
    package let width: Int
    package let height: Int

    /// SVG: drawn at any size, so its header size is only a hint (possibly none).
    package var isVector: Bool { format.contains("svg") }

    package init(format: String, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The header as GdkPixbuf's loader for the format reads it (the file is read only until
    /// the loader knows the size); nil when no loader recognises the file, a raster image's
    /// header gives no size, or `path` is not a regular file.
    package init?(path: String) {
        // A FIFO or a device would block the loader's read for good, and a Markdown file can
        // name any path as its picture.
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        guard let info = gdk_pixbuf_get_file_info(path, &width, &height) else {
            guard let header = Self.textual(atPath: path) else { return nil }
            self = header
            return
        }
        // gdk_pixbuf_format_get_name gives a copy of its own (transfer full).
        self.init(format: takeString(gdk_pixbuf_format_get_name(info)) ?? "", width: Int(width), height: Int(height))
        guard isVector || pixelCount != nil else { return nil }
    }

    /// The formats whose header is text: GdkPixbuf's loaders for them read a file piece by piece
    /// only through a temporary file, which the decoder worker may not write, so their header is
    /// read here and the file is decoded whole (`decodesWhole`).
    package static let textFormats: Set<String> = ["xpm", "legacy-xpm", "xbm"]

    /// True when the image is decoded in one piece, then scaled: GdkPixbuf cannot read it piece
    /// by piece in the worker.
    package var decodesWhole: Bool { Self.textFormats.contains(format) }

    /// An XPM's or XBM's header, read from its text: XPM's first string ("width height colours
    /// characters-per-pixel"), or XBM's `#define NAME_width W` and `#define NAME_height H`.
    static func textual(atPath path: String) -> ImageHeader? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = fread(&buffer, 1, buffer.count, file)
        return textual(String(decoding: buffer[..<count], as: UTF8.self))
    }

    /// The header in the start of an XPM or XBM file's text.
    static func textual(_ text: String) -> ImageHeader? {
        if text.hasPrefix("/* XPM */") {
            guard let brace = text.firstIndex(of: "{"), let open = text[brace...].firstIndex(of: "\""),
                  let close = text[text.index(after: open)...].firstIndex(of: "\"") else { return nil }
            let numbers = text[text.index(after: open)..<close].split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            guard numbers.count >= 4, numbers[0] > 0, numbers[1] > 0 else { return nil }
            return ImageHeader(format: "xpm", width: numbers[0], height: numbers[1])
        }
        var width: Int?, height: Int?
        for line in text.split(separator: "\n").prefix(8) {
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.count == 3, words[0] == "#define", let value = Int(words[2]), value > 0 else { continue }
            if words[1].hasSuffix("width") { width = value } else if words[1].hasSuffix("height") { height = value }
        }
        guard let width, let height else { return nil }
        return ImageHeader(format: "xbm", width: width, height: height)
    }

    /// A JPEG's header as libjpeg reads it, from the start of `file`; nil when libjpeg does
    /// not read it as a JPEG.
    package static func jpeg(_ file: UnsafeMutablePointer<FILE>) -> ImageHeader? {
        var width: Int32 = 0, height: Int32 = 0
        guard dossier_jpeg_size(file, &width, &height) == 1 else { return nil }
        return ImageHeader(format: "jpeg", width: Int(width), height: Int(height))
    }

    /// Width × height; nil when the header gives no size.
    package var pixelCount: Int? {
        guard width > 0, height > 0 else { return nil }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : count
    }

    /// True when the image may be decoded: a vector image always (it is drawn at the size
    /// asked for), a raster one when it has a size and at most `pixelLimit` pixels.
    package func fits(pixelLimit: Int) -> Bool {
        isVector || (pixelCount.map { $0 <= pixelLimit } ?? false)
    }
}
