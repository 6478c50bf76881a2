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
        guard let info = gdk_pixbuf_get_file_info(path, &width, &height) else { return nil }
        // gdk_pixbuf_format_get_name gives a copy of its own (transfer full).
        self.init(format: takeString(gdk_pixbuf_format_get_name(info)) ?? "", width: Int(width), height: Int(height))
        guard isVector || pixelCount != nil else { return nil }
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
