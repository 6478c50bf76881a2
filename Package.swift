// swift-tools-version: 6.0
// Dossier: a document browser and previewer for the Linux desktop.
// No package dependencies: GLib, GIO, GTK 4 and libadwaita come in through module maps
// over the Debian -dev packages (see the Makefile's `deps` target).
import PackageDescription

let package = Package(
    name: "Dossier",
    products: [
        .library(name: "DocumentCore", targets: ["DocumentCore"]),
        .library(name: "DocumentUI", targets: ["DocumentUI"]),
        .executable(name: "dossier", targets: ["Dossier"]),
        .executable(name: "dossier-decoder", targets: ["DossierDecoder"]),
        .executable(name: "sketchbook", targets: ["Sketchbook"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGLib",
            pkgConfig: "gio-unix-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4 gtk4-unix-print libadwaita-1 gtksourceview-5",
            providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev", "libgtksourceview-5-dev"])]
        ),
        .systemLibrary(
            name: "CImaging",
            // Font files are drawn in the decoder worker with fontconfig and Pango's fontconfig
            // font map: in this module too, since a header included by two modules (pango's)
            // gives its constants to one of them only (the fuzz build lost cairo's and pango's).
            pkgConfig: "gdk-pixbuf-2.0 pangocairo pangoft2 fontconfig freetype2 libjpeg libpng",
            providers: [.apt(["libgdk-pixbuf-2.0-dev", "libpango1.0-dev", "libfontconfig-dev", "libfreetype-dev", "libjpeg62-turbo-dev", "libpng-dev"])]
        ),
        // The renderers' heaviest libraries (WebKitGTK, GStreamer, libarchive, poppler) are opened
        // with dlopen() when first used, not linked: every start of Dossier would pay for loading them.
        .target(name: "CLoader", dependencies: ["CGLib"], linkerSettings: [.linkedLibrary("gmodule-2.0")]),
        .target(name: "CWebKit", dependencies: ["CGtk", "CLoader"]),
        .target(name: "CPoppler", dependencies: ["CGLib", "CLoader"]),
        .target(name: "CGStreamer", dependencies: ["CGLib", "CLoader"]),
        .target(name: "CArchive", dependencies: ["CGLib", "CLoader"]),
        // cmark-gfm, for Markdown: opened in the decoder worker only, like libarchive.
        .target(name: "CMarkdown", dependencies: ["CGLib", "CLoader"]),
        // Pictures GTK 4.8's cairo renderer draws without converting them on every frame.
        .target(name: "CDisplay", dependencies: ["CGtk"]),
        // Text in legacy encodings: the charset detector (see DocumentCore/Text/CharsetDetector.swift).
        .systemLibrary(name: "CUchardet", pkgConfig: "uchardet", providers: [.apt(["libuchardet-dev"])]),
        .systemLibrary(name: "CX11", pkgConfig: "x11 xdamage", providers: [.apt(["libx11-dev", "libxdamage-dev"])]),
        // The decoder worker's confinement (limits, a seccomp filter) and its socket (see DecoderWorker).
        .target(name: "CSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
        // The decoder worker's wire protocol: typed requests and replies, the handshake, the packets.
        .target(name: "DecoderWire", dependencies: ["CSandbox"]),
        .target(name: "GObjectSupport", dependencies: ["CGLib"]),
        // The GTK side of the glue: the signal trampolines, the casts, and the wrappers DocumentUI's
        // public API speaks (Widget, WindowWidget, Icon, AppInstance).
        .target(name: "GtkSupport", dependencies: ["GObjectSupport", "CGLib", "CGtk"]),
        .target(
            name: "DocumentCore",
            dependencies: ["GObjectSupport", "CGLib", "CImaging", "CUchardet", "CSandbox", "DecoderWire", "CGStreamer"]
        ),
        // What runs confined, inside the decoder worker: the worker's loop and every parser and
        // drawer of outside data (poppler, libarchive, cmark-gfm, fontconfig, GStreamer's
        // discoverer). Only the worker executables (and the fuzzer, which calls the parsers in
        // its own process) import it; DocumentCore keeps the client and what both sides share.
        .target(
            name: "DecoderService",
            dependencies: ["DocumentCore", "DecoderWire", "CSandbox", "GObjectSupport", "CGLib", "CImaging", "CPoppler", "CArchive", "CMarkdown", "CGStreamer", "CUchardet"]
        ),
        .target(name: "DocumentUI", dependencies: ["DocumentCore", "GObjectSupport", "GtkSupport", "CGtk", "CDisplay", "CWebKit"]),
        .executableTarget(
            name: "Dossier",
            dependencies: ["DocumentUI", "DocumentCore", "GObjectSupport", "GtkSupport", "CGLib", "CGtk"]
        ),
        // The sample document-based app (Examples/Sketchbook): DocumentCore's and DocumentUI's
        // public API only (without package access it sees none of the `package` declarations, as
        // an app outside this package would not), and cairo for its drawing.
        .executableTarget(
            name: "Sketchbook",
            dependencies: ["DocumentUI", "DocumentCore", "CGLib", "CGtk"],
            path: "Examples/Sketchbook/Sources",
            packageAccess: false
        ),
        // The decoder worker: untrusted files decoded in a confined process of their own.
        .executableTarget(name: "DossierDecoder", dependencies: ["DecoderService"]),
        // The same worker with the misbehaviours the containment tests ask for (not installed).
        .executableTarget(name: "DossierTestDecoder", dependencies: ["DecoderService", "DocumentCore", "DecoderWire", "CSandbox"], path: "Tests/DossierTestDecoder"),
        .target(name: "DossierFixtures", dependencies: ["GObjectSupport", "CGLib", "CX11"], path: "Sources/DossierFixtures"),
        // A second process for the coordination tests (not installed).
        .executableTarget(name: "CoordinationProbe", dependencies: ["DocumentCore"]),
        // The fixtures written to folders, for `make soak` (not installed).
        .executableTarget(name: "WriteFixtures", dependencies: ["DossierFixtures"]),
        .executableTarget(
            name: "DossierBench",
            dependencies: ["DocumentCore", "DossierFixtures", "GObjectSupport", "CGLib", "CImaging", "CX11"]
        ),
        // Fuzz targets for the parsers of outside data (`make fuzz`, see Tests/Fuzz/README.md):
        // built with `-sanitize=fuzzer,address` by `make fuzz`; a plain build replays files.
        .target(name: "CFuzzing", dependencies: ["CGLib"]),
        .executableTarget(
            name: "DossierFuzz",
            dependencies: ["DocumentUI", "DocumentCore", "DecoderService", "GObjectSupport", "CGLib", "CFuzzing"]
        ),
        .testTarget(name: "GObjectSupportTests", dependencies: ["GObjectSupport", "GtkSupport", "CGLib", "CGtk"]),
        .testTarget(name: "DocumentCoreTests", dependencies: ["DocumentCore", "DecoderService", "DecoderWire", "DossierFixtures", "CGLib", "CImaging"]),
        .testTarget(name: "DocumentUITests", dependencies: ["DocumentUI", "DocumentCore", "DossierFixtures", "GObjectSupport", "GtkSupport", "CGtk", "CImaging", "CPoppler", "CDisplay"]),
        .testTarget(name: "DossierTests", dependencies: ["DocumentCore", "DossierFixtures"]),
        // Remote locations against real servers on 127.0.0.1 (sshd, smbd, Apache with mod_dav)
        // mounted through the session's GVFS: `make test` runs them, not make test-distros.
        .testTarget(name: "RemoteLocationTests", dependencies: ["DocumentCore", "DocumentUI", "DossierFixtures", "GObjectSupport", "GtkSupport", "CGLib", "CGtk", "CImaging"]),
    ],
    swiftLanguageModes: [.v6]
)
