import Foundation
import XCTest

@testable import DocumentCore

/// Where GdkPixbuf hands images to glycin, only what glycin's loaders alone serve is decoded in
/// the calling process; the rest goes to a worker.
final class GlycinFormatsTests: XCTestCase {
    /// GdkPixbuf's loaders on Debian testing (gdk-pixbuf 2.44.8, glycin 2, webp-pixbuf-loader and
    /// librsvg installed), as `gdk_pixbuf_get_formats` lists them there.
    private let debianTesting: [GlycinFormats.Loader] = [
        .init(name: "webp", mimeTypes: ["image/webp", "audio/x-riff"], builtIn: false),
        .init(name: "svg", mimeTypes: ["image/svg+xml", "image/svg", "image/svg-xml", "image/vnd.adobe.svg+xml", "text/xml-svg",
                                       "image/svg+xml-compressed"], builtIn: false),
        .init(name: "legacy-xpm", mimeTypes: ["image/x-xpixmap"], builtIn: true),
        .init(name: "xbm", mimeTypes: ["image/x-xbitmap"], builtIn: true),
        .init(name: "avif", mimeTypes: ["image/avif"], builtIn: true),
        .init(name: "bmp", mimeTypes: ["image/bmp", "image/x-bmp", "image/x-MS-bmp"], builtIn: true),
        .init(name: "gif", mimeTypes: ["image/gif"], builtIn: true),
        .init(name: "heic", mimeTypes: ["image/heic", "image/heif"], builtIn: true),
        .init(name: "ico", mimeTypes: ["image/x-icon", "image/vnd.microsoft.icon"], builtIn: true),
        .init(name: "jpeg", mimeTypes: ["image/jpeg"], builtIn: true),
        .init(name: "png", mimeTypes: ["image/png"], builtIn: true),
        .init(name: "svg", mimeTypes: ["image/svg+xml", "image/svg", "image/svg-xml", "image/vnd.adobe.svg+xml", "text/xml-svg",
                                       "image/svg+xml-compressed"], builtIn: true),
        .init(name: "tga", mimeTypes: ["image/x-tga"], builtIn: true),
        .init(name: "tiff", mimeTypes: ["image/tiff"], builtIn: true),
        .init(name: "webp", mimeTypes: ["image/webp"], builtIn: true),
    ]

    private func caller(_ mimeType: String, among loaders: [GlycinFormats.Loader]) -> Bool {
        GlycinFormats.glycinAlone(decodes: DocumentType(mimeType: mimeType), among: loaders)
    }

    func testWhatGlycinsLoadersServeIsDecodedInTheCaller() {
        for type in ["image/png", "image/gif", "image/tiff", "image/bmp", "image/webp", "image/svg+xml", "image/avif"] {
            XCTAssertTrue(caller(type, among: debianTesting), type)
        }
    }

    func testGdkPixbufsOwnLoadersAndThirdPartyModulesGoToAWorker() {
        // gdk-pixbuf's C loaders for XPM and XBM, still built in beside glycin's.
        XCTAssertFalse(caller("image/x-xpixmap", among: debianTesting))
        XCTAssertFalse(caller("image/x-xbitmap", among: debianTesting))
        // libheif's module, whose name is not that of a glycin loader, claims HEIF too.
        let withLibheif = debianTesting + [.init(name: "heif", mimeTypes: ["image/heif", "image/heic", "image/avif"], builtIn: false)]
        XCTAssertFalse(caller("image/heif", among: withLibheif))
        XCTAssertFalse(caller("image/avif", among: withLibheif))
        XCTAssertTrue(caller("image/png", among: withLibheif))
        // Where glycin has no SVG loader built in, librsvg's module named svg is not glycin's.
        let withoutGlycinSVG = debianTesting.filter { !($0.name == "svg" && $0.builtIn) }
        XCTAssertFalse(caller("image/svg+xml", among: withoutGlycinSVG))
        // A type no loader claims.
        XCTAssertFalse(caller("application/octet-stream", among: debianTesting))
    }

    func testThisProcesssLoadersAreToldBuiltInFromModules() throws {
        let loaders = GlycinFormats.installed
        XCTAssertTrue(loaders.contains { $0.name == "png" && $0.builtIn }, "\(loaders.map { "\($0.name) \($0.builtIn)" })")
        // webp-pixbuf-loader, installed by tools/install-deps.sh, is a module of loaders.cache.
        if loaders.contains(where: { $0.name == "webp" }) {
            XCTAssertTrue(loaders.contains { $0.name == "webp" && !$0.builtIn })
        }
        if !DecoderWorker.pixbufDecodesThroughGlycin {
            XCTAssertFalse(GlycinFormats.decodeInCaller(DocumentType(mimeType: "image/png")), "no glycin: everything goes to a worker")
        }
    }

    func testOnlyPicturesALoaderReadsAreDecodable() {
        func decodes(_ mimeType: String, among loaders: [GlycinFormats.Loader]) -> Bool {
            ImageFormats.decodes(DocumentType(mimeType: mimeType), among: loaders)
        }
        for type in ["image/png", "image/x-xpixmap", "image/x-xbitmap", "image/heic", "image/svg+xml"] {
            XCTAssertTrue(decodes(type, among: debianTesting), type)
        }
        // JPEG is libjpeg's in the worker, whatever GdkPixbuf has.
        XCTAssertTrue(decodes("image/jpeg", among: []))
        // Filed under image/ by shared-mime-info, read by no loader: GIMP's XCF, DXF, OpenEXR.
        for type in ["image/x-xcf", "image/vnd.dxf", "image/x-exr", "image/x-sgi"] {
            XCTAssertFalse(decodes(type, among: debianTesting), type)
        }
        XCTAssertFalse(decodes("image/heif", among: debianTesting.filter { $0.name != "heic" }))
        // On this machine, as the previewer asks.
        XCTAssertTrue(ImageFormats.decodes(DocumentType(mimeType: "image/png")))
        XCTAssertFalse(ImageFormats.decodes(DocumentType(mimeType: "image/x-xcf")))
        XCTAssertEqual(ImageFormats.loaderPackage(for: DocumentType(mimeType: "image/heic")), "heif-gdk-pixbuf")
        XCTAssertNil(ImageFormats.loaderPackage(for: DocumentType(mimeType: "image/x-xcf")))
    }
}
