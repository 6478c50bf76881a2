import DocumentCore
import Foundation

/// Thumbnails from a picture a file keeps of itself: the first page an OpenDocument or Office
/// Open XML file stores when it is saved, and an audio file's cover art. The picture is taken
/// out into a sealed memfd and made a thumbnail as any image is (`ImageThumbnailer`), so it is
/// as untrusted, and as bounded, as an image file.
enum EmbeddedPictureThumbnailer {
    /// Where office documents keep their picture: OpenDocument's, then Office Open XML's.
    static let officePictures = ["Thumbnails/thumbnail.png", "docProps/thumbnail.jpeg", "docProps/thumbnail.jpg",
                                 "docProps/thumbnail.png"]

    /// The picture an office document open at `input` keeps of its first page.
    static func office(of source: inout ThumbnailSource, input: Int32, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let listing: ArchiveListing
        do { listing = try ArchiveReader.list(input, raw: false, name: source.name) } catch {
            throw .decodingFailed(name: source.name, reason: error.description)
        }
        let entries = listing.entries.filter { $0.kind == .file }
        guard let entry = officePictures.lazy.compactMap({ path in entries.first { $0.path == path } }).first,
              let index = entry.headerIndex else {
            throw .decodingFailed(name: source.name, reason: tr("it keeps no picture of itself"))
        }
        let picture: Int32
        do { picture = try ArchiveReader.extract(input, raw: false, headerIndex: index, pathDigest: ArchiveWorkers.digest(entry.path)) } catch {
            throw .decodingFailed(name: source.name, reason: error.description)
        }
        defer { close(picture) }
        return try image(picture, of: source, edge: edge)
    }

    /// The cover art of the audio file open at `input`, as GStreamer's discoverer finds it.
    static func audio(of source: inout ThumbnailSource, input: Int32, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let cover: Int32?
        do { cover = try MediaDiscoverer.cover(input) } catch {
            // A worker started before GStreamer's registry was made: not the file's fault, and
            // the worker leaves (`ThumbnailService`), so the next one is given the registry.
            if case .noRegistry = error { throw .unreadable(name: source.name, reason: error.description) }
            throw .decodingFailed(name: source.name, reason: error.description)
        }
        guard let cover else { throw .decodingFailed(name: source.name, reason: tr("it has no cover art")) }
        defer { close(cover) }
        return try image(cover, of: source, edge: edge)
    }

    /// The picture open at `fd` made a thumbnail of `source` at `edge` pixels: a PNG by libpng,
    /// with the checks an external thumbnailer's PNG gets, since GdkPixbuf may hand a PNG to
    /// glycin, whose sandbox cannot start in a worker; a JPEG by libjpeg; another format by
    /// the image thumbnailer.
    private static func image(_ fd: Int32, of source: ThumbnailSource, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let start = firstBytes(fd)
        if start.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) {
            return try ThumbnailService.decodeOutput(fd, name: source.name, thumbnailer: source.name, edge: edge)
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .decodingFailed(name: source.name, reason: String(cString: strerror(errno))) }
        var picture = ThumbnailSource(workerInput: fd, name: source.name, size: Int64(status.st_size),
                                      type: DocumentType(content: start, fileName: nil))
        return try ImageThumbnailer.thumbnail(of: &picture, edge: edge)
    }

    private static func firstBytes(_ fd: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = pread(fd, &bytes, bytes.count, 0)
        return Array(bytes.prefix(max(count, 0)))
    }
}
