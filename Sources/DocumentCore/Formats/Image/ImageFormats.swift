import Foundation

/// Which kinds of picture this system can decode: JPEG always (libjpeg, in the worker), and
/// every type one of GdkPixbuf's installed loaders claims (the worker's and glycin's alike).
///
/// shared-mime-info files many formats under `image/` that no loader reads (GIMP's XCF, its
/// brushes, OpenEXR where no loader is installed, DXF, 3D models): the previewer shows those on
/// the information page, not on an error page that blames the file.
package enum ImageFormats {
    /// The types already asked about.
    private static let known = Locked<[String: Bool]>([:])

    /// True when a decoder here reads pictures of `type`.
    package static func decodes(_ type: DocumentType) -> Bool {
        if type.conforms(to: .jpeg) { return true }
        if let answer = known.withLock({ $0[type.identifier] }) { return answer }
        let answer = decodes(type, among: GlycinFormats.installed)
        known.withLock { $0[type.identifier] = answer }
        return answer
    }

    /// True when libjpeg or one of `loaders` reads pictures of `type`.
    package static func decodes(_ type: DocumentType, among loaders: [GlycinFormats.Loader]) -> Bool {
        if type.conforms(to: .jpeg) { return true }
        return loaders.contains { loader in
            loader.mimeTypes.contains { type.conforms(to: DocumentType(mimeType: $0)) }
        }
    }

    /// The Debian package whose loader would decode `type`, for the pictures whose loader is a
    /// package of its own; nil for the others.
    package static func loaderPackage(for type: DocumentType) -> String? {
        let packages: [(DocumentType, String)] = [
            (DocumentType(mimeType: "image/webp"), "webp-pixbuf-loader"),
            (DocumentType(mimeType: "image/heif"), "heif-gdk-pixbuf"),
            (DocumentType(mimeType: "image/heic"), "heif-gdk-pixbuf"),
            (DocumentType(mimeType: "image/avif"), "libavif-gdk-pixbuf"),
            (DocumentType(mimeType: "image/jxl"), "libjxl-gdk-pixbuf"),
            (DocumentType(mimeType: "image/svg+xml"), "librsvg2-common"),
        ]
        return packages.first { type.conforms(to: $0.0) }?.1
    }
}
