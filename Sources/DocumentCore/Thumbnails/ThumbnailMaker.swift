import CGLib
import CImaging
import Foundation
import GObjectSupport

/// Chooses a thumbnailer for a file and runs it, with the limits that protect the user: a
/// size limit per kind of file, a pixel limit before decoding, a timeout for external
/// thumbnailers, and no caching of a file that changed meanwhile.
struct ThumbnailMaker: Sendable {
    let cache: ThumbnailCache
    let timeout: Duration
    let externalThumbnailers: [ExternalThumbnailer]
    /// MIME types GdkPixbuf's installed loaders read.
    let pixbufTypes: Set<String>

    init(cache: ThumbnailCache, timeout: Duration, thumbnailerFolders: [URL]?) {
        self.cache = cache
        self.timeout = timeout
        externalThumbnailers = ExternalThumbnailer.installed(in: thumbnailerFolders)
        var types = Set<String>()
        var formats = gdk_pixbuf_get_formats()
        let list = formats
        while let node = formats {
            if let format = node.pointee.data {
                types.formUnion(takeStringArray(gdk_pixbuf_format_get_mime_types(OpaquePointer(format))))
            }
            formats = node.pointee.next
        }
        g_slist_free(list)
        pixbufTypes = types
    }

    enum Kind {
        case image, pdf, text, font, office, audio, external(ExternalThumbnailer)

        var name: String {
            switch self {
            case .image: "image"
            case .pdf: "pdf"
            case .text: "text"
            case .font: "font"
            case .office: "office"
            case .audio: "audio"
            case .external(let thumbnailer): thumbnailer.name
            }
        }

        /// The largest file of this kind that is thumbnailed.
        var fileSizeLimit: Int64 {
            switch self {
            case .image: 512 << 20
            case .pdf: 1 << 30
            case .text: .max  // only its first 4 KiB are read
            case .font: 64 << 20
            case .office: 1 << 30  // only the zip's directory and its picture are read
            case .audio: 4 << 30  // only its tags are read
            case .external: 8 << 30
            }
        }
    }

    func kind(for type: DocumentType) -> Kind? {
        if type == .jpeg || (type.conforms(to: .image) && (pixbufTypes.contains(type.identifier)
            || type.supertypes.contains { pixbufTypes.contains($0.identifier) })) {
            return .image
        }
        if type.conforms(to: .pdf) { return .pdf }
        // Before the installed thumbnailers, which would take a Type 1 font for PostScript.
        if type.conforms(to: .font) { return .font }
        if Self.keepsItsOwnPicture(type) { return .office }
        if let external = ExternalThumbnailer.find(for: type, among: externalThumbnailers) { return .external(external) }
        if type.conforms(to: .text) { return .text }
        if type.conforms(to: .audio) { return .audio }
        return nil
    }

    /// OpenDocument and Office Open XML files: zips that keep a picture of their first page
    /// (`Thumbnails/thumbnail.png`, `docProps/thumbnail.jpeg`), as Files' office thumbnailer reads.
    static func keepsItsOwnPicture(_ type: DocumentType) -> Bool {
        type.conforms(to: .zip) && (type.conforms(to: .wordProcessing) || type.conforms(to: .spreadsheet)
            || type.conforms(to: .presentation) || type.identifier.hasPrefix("application/vnd.oasis.opendocument."))
    }

    /// Makes the picture for `source` at `edge` pixels; returns it with the thumbnailer's name.
    func make(_ source: inout ThumbnailSource, edge: Int) throws(ThumbnailError) -> (Pixbuf, String) {
        if cache.contains(source.rawPath.description) { throw .insideCache(name: source.name) }
        guard let kind = kind(for: source.type) else {
            throw .noThumbnailer(name: source.name, type: source.type.identifier)
        }
        guard source.size <= kind.fileSizeLimit else {
            throw .fileTooLarge(name: source.name, limit: takeString(g_format_size(guint64(kind.fileSizeLimit))) ?? "")
        }
        let image: Pixbuf
        switch kind {
        case .image where source.type != .jpeg && GlycinFormats.decodeInCaller(source.type):
            // GdkPixbuf gives the file to glycin's sandboxed loaders, and to no other (see GlycinFormats).
            image = try ImageThumbnailer.thumbnail(of: &source, edge: edge)
        case .audio:
            // The registry the worker reads is made here the first time, as for a preview. A
            // worker started before it existed cannot read it, says so and leaves: once more.
            if !GStreamerRegistry.exists { try? MediaPlayback.load() }
            do {
                image = try ThumbnailWorkers.thumbnail(of: &source, kind: kind.name, edge: edge)
            } catch .unreadable {
                image = try ThumbnailWorkers.thumbnail(of: &source, kind: kind.name, edge: edge)
            }
        case .image, .pdf, .text, .font, .office:
            image = try ThumbnailWorkers.thumbnail(of: &source, kind: kind.name, edge: edge)
        case .external(let thumbnailer):
            let work = cache.root.appendingPathComponent("dossier-work")
            try? FileManager.default.createDirectory(at: cache.root, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            image = try thumbnailer.thumbnail(of: source, edge: edge, timeout: timeout, workFolder: work)
        }
        if source.changedSince { throw .changedWhileReading(name: source.name) }
        return (image, kind.name)
    }

    /// Errors that say something about this version of the file, recorded in `fail/` so it
    /// is not tried again until it changes. Passing trouble (a permission, a change during
    /// the work, a cancellation) is not recorded.
    static func isLasting(_ error: ThumbnailError) -> Bool {
        switch error {
        case .tooLarge, .fileTooLarge, .decodingFailed, .thumbnailerFailed, .timedOut: true
        default: false
        }
    }
}
