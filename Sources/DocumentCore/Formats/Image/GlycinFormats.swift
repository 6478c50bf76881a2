import CGLib
import CImaging
import Foundation
import GObjectSupport

/// Where GdkPixbuf hands images to glycin (`DecoderWorker.pixbufDecodesThroughGlycin`), which
/// images glycin's loaders decode: those are given to GdkPixbuf in the calling process (glycin's
/// own sandbox cannot start inside a worker), every other one goes to a worker.
///
/// gdk-pixbuf 2.44 builds glycin's loaders in (`io-glycin-*.c`) but still reads its
/// loaders.cache: its own C loaders for XPM and XBM, and third-party modules (webp-pixbuf-loader,
/// librsvg, libheif, libavif, libjxl) are still run in process. A module whose name is that of a
/// built-in glycin loader (webp, svg, avif, jxl) is served by glycin's (gdk-pixbuf looks a module
/// up by name among its built-in loaders first: on Debian testing neither librsvg nor libwebp is
/// mapped after an SVG or a WebP is decoded); any other one (libheif's "heif") is not.
package enum GlycinFormats {
    /// The names of gdk-pixbuf's built-in glycin loaders.
    static let loaderNames: Set<String> = [
        "avif", "bmp", "dds", "gif", "heic", "ico", "jpeg", "jpeg2000", "jxl", "openexr", "png", "pnm", "qoi", "raw",
        "svg", "tga", "tiff", "webp",
    ]

    /// One of GdkPixbuf's loaders as `gdk_pixbuf_get_formats` lists it.
    package struct Loader: Sendable {
        package var name: String
        package var mimeTypes: [String]
        /// Built into libgdk_pixbuf rather than a module of its loaders.cache.
        package var builtIn: Bool

        package init(name: String, mimeTypes: [String], builtIn: Bool) {
            (self.name, self.mimeTypes, self.builtIn) = (name, mimeTypes, builtIn)
        }
    }

    /// True where GdkPixbuf in this process gives a file of `type` to glycin, and to nothing else:
    /// then it is decoded in this process (by glycin's sandbox), else in a worker.
    package static func decodeInCaller(_ type: DocumentType) -> Bool {
        DecoderWorker.pixbufDecodesThroughGlycin && glycinAlone(decodes: type, among: installed)
    }

    /// True when a loader glycin serves claims `type` and no other loader among `loaders` does.
    package static func glycinAlone(decodes type: DocumentType, among loaders: [Loader]) -> Bool {
        let glycin = Set(loaders.filter { $0.builtIn && loaderNames.contains($0.name) }.map(\.name))
        let claiming = loaders.filter { loader in
            loader.mimeTypes.contains { type.conforms(to: DocumentType(mimeType: $0)) }
        }
        return !claiming.isEmpty && claiming.allSatisfy { glycin.contains($0.name) }
    }

    /// This process's loaders: GdkPixbuf's list, each told built in or not by whether
    /// loaders.cache names it (as often as the list does).
    static let installed: [Loader] = {
        var modules: [String: Int] = [:]
        for name in moduleNames() { modules[name, default: 0] += 1 }
        var loaders: [Loader] = []
        let formats = gdk_pixbuf_get_formats()
        defer { g_slist_free(formats) }
        var node = formats
        while let current = node {
            node = current.pointee.next
            guard let format = current.pointee.data.map(OpaquePointer.init) else { continue }
            let name = takeString(gdk_pixbuf_format_get_name(format)) ?? ""
            var mimeTypes: [String] = []
            if let list = gdk_pixbuf_format_get_mime_types(format) {
                var index = 0
                while let type = list[index] {
                    mimeTypes.append(String(cString: type))
                    index += 1
                }
                g_strfreev(list)
            }
            loaders.append(Loader(name: name, mimeTypes: mimeTypes, builtIn: false))
        }
        // The list holds the built-in loaders and the modules: a name listed more often than
        // the cache names it is built in.
        for index in loaders.indices.reversed() {
            let name = loaders[index].name
            if modules[name, default: 0] > 0 {
                modules[name, default: 0] -= 1
            } else {
                loaders[index].builtIn = true
            }
        }
        return loaders
    }()

    /// The modules' names in gdk-pixbuf's loaders.cache ($GDK_PIXBUF_MODULE_FILE, or beside the
    /// library as gdk-pixbuf finds it): the first quoted word of each line after a module's path.
    private static func moduleNames() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        var path = environment["GDK_PIXBUF_MODULE_FILE"]
        if path == nil, let library = DecoderWorker.mappedLibrary(prefix: "libgdk_pixbuf-2.0.so") {
            path = URL(fileURLWithPath: library).deletingLastPathComponent()
                .appendingPathComponent("gdk-pixbuf-2.0/2.10.0/loaders.cache").path
        }
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        // Blocks apart by blank lines: the module's path, then `"name" flags "domain" …`, then
        // its types, extensions and signatures.
        var names: [String] = []
        var lineInBlock = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix("#") {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                lineInBlock = 0
                continue
            }
            lineInBlock += 1
            if lineInBlock == 2, let name = line.split(separator: "\"").first { names.append(String(name)) }
        }
        return names
    }
}
