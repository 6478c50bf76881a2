import CGLib
import DocumentCore
import Foundation
import GObjectSupport

/// `dossier`, `dossier DIR`, `dossier FILE…` (and `--sender`, `--annotation`), and
/// `dossier --gapplication-service` (D-Bus activation): the desktop application.
struct GraphicalCommand {
    let arguments: [String]

    /// Whether a command line is for the application rather than a command: nothing at all
    /// (with a display), GApplication's service flag, one of the launch options, or a first
    /// argument that is an existing path or a URI. Command names always win.
    static func handles(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return hasDisplay }
        if ["--gapplication-service", "--sender", "--annotation"].contains(where: { first == $0 || first.hasPrefix($0 + "=") }) {
            return true
        }
        if first.hasPrefix("-") { return false }
        if takeString(g_uri_parse_scheme(first)) != nil { return true }
        var status = stat()
        return lstat(first, &status) == 0
    }

    static var hasDisplay: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["DISPLAY"].map { !$0.isEmpty } == true || environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } == true
    }

    /// Says that the display named in the environment could not be opened (its server gone,
    /// or refusing), and gives the launch's status: nothing of GTK may run without a display.
    static func displayCannotBeOpened() -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        // Wayland's first, as GDK tries it.
        let name = [environment["WAYLAND_DISPLAY"], environment["DISPLAY"]].compactMap { $0 }.first { !$0.isEmpty } ?? "?"
        Output.error(tr("Cannot open the display %s: browsing and previewing need a graphical session.", name))
        return 1
    }

    @MainActor
    func run() -> Int32 {
        guard Self.hasDisplay else {
            Output.error(tr("No display: browsing and previewing need a graphical session (dossier ls and dossier info work without one)."))
            return 1
        }
        TemporaryFiles.keepInCache()
        return DossierApplication().run(arguments: ["dossier"] + arguments)
    }
}
