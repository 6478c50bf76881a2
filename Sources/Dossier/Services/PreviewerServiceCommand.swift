import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport
import GtkSupport

/// `dossier previewer-service`: runs the Nautilus previewer service (started by D-Bus
/// activation of `org.gnome.NautilusPreviewer`; it stays up for a while after the window
/// closes, so the next Space is instant).
///
/// `dossier previewer-service --install-user` makes Dossier the previewer for this user
/// instead of Sushi: a service file in `$XDG_DATA_HOME/dbus-1/services/`, which the session
/// bus prefers over the system's. `--uninstall-user` removes it.
struct PreviewerServiceCommand {
    let arguments: [String]
    static let idleTimeout: guint = 5 * 60 * 1000

    static var userServiceFile: URL {
        URL(fileURLWithPath: String(cString: g_get_user_data_dir()))
            .appendingPathComponent("dbus-1/services/\(NautilusPreviewerService.busName).service")
    }

    @MainActor
    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: ["--install-user", "--uninstall-user"]) else { return 2 }
        if parsed.flags.contains("--install-user") { return install() }
        if parsed.flags.contains("--uninstall-user") { return uninstall() }
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else {
            Output.error(tr("No display: the previewer needs a graphical session (dossier info works without one)."))
            return 1
        }
        TemporaryFiles.keepInCache()
        Self.keepLargeBlocksOutOfTheHeaps()
        return Self.serve()
    }

    /// Every block of 128 KB or more is mapped on its own and unmapped when freed. glibc's
    /// threshold otherwise rises to the largest block freed (up to 32 MB), after which blocks
    /// of that size come from the heaps, and a service that allocates a file's worth at a time
    /// (a text's 256 KB, a table's rows, a page's pixels) keeps its peak in them, and its
    /// anonymous memory keeps growing over a long run of showings (`tools/soak.py` shows it).
    private static func keepLargeBlocksOutOfTheHeaps() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 << 10)
        _ = mallopt(M_TRIM_THRESHOLD, 128 << 10)
    }

    @MainActor
    private static func serve() -> Int32 {
        // The first decoder worker starts before GTK: it loads its libraries on the other core
        // while GTK starts on this one (only the process is made here, which is quick), and the
        // first item's request finds it ready. Nothing of it reads the environment after this.
        PreviewWorkers.prestart()
        StageTrace.mark("worker started")
        openDisplay()
        StageTrace.mark("gtk up")
        // Started by D-Bus for an item that is about to come: what it will need loads on
        // another core meanwhile (after openDisplay: no thread may run while it sets and unsets
        // the variables that turn GL off and choose GTK_THEME), and the name is owned now, so
        // that item's own work starts while libadwaita and the application do.
        PreviewController.prepareInBackground()
        let prefetch = PreviewPrefetch()
        prefetch.readDisplay()
        // The item's type and file work start at once; its libraries load once adw_init has
        // made its thread (a thread cannot start while another thread's dlopen runs).
        prefetch.holdLibraryLoading()
        let bus = PreviewerBus.start(prefetch: prefetch)
        StageTrace.mark("bus started")
        Display.loadStyles()
        StageTrace.mark("styles loaded")
        prefetch.allowLibraryLoading()
        // A first font is drawn ahead for the window's measures, which need the stylesheet.
        prefetch.stylesAreLoaded()
        StageTrace.mark("font measured")
        let application = adw_application_new("io.github.dossier.Dossier.Previewer", GApplicationFlags(rawValue: DOSSIER_G_APPLICATION_IS_SERVICE))!
        let app = UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)
        g_application_set_inactivity_timeout(app, idleTimeout)
        nonisolated(unsafe) var service: NautilusPreviewerService?
        connectSignal(UnsafeMutableRawPointer(application), "startup") { () -> Void in
            StageTrace.mark("app startup")
            service = NautilusPreviewerService(application: UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self),
                                               bus: bus)
        }
        MainLoopBridge.install()
        // A service (G_APPLICATION_IS_SERVICE) waits for its inactivity timeout.
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("dossier"), nil]
        defer { argv.forEach { free($0) } }
        let status = g_application_run(app, 1, &argv)
        _ = service
        return status
    }

    /// Opens the display before the application starts. GDK probes OpenGL when it opens an
    /// X11 display (and Vulkan too from GTK 4.16), and with GL the first frame waits for its
    /// renderer. Where GL can only be drawn in software (no GPU, or an X server without direct
    /// rendering: Mesa's llvmpipe) that costs more than it gives: loading the driver and
    /// compiling GTK's shaders with LLVM take much of a cold start's CPU, and llvmpipe draws
    /// GTK 4.8's frames no faster than cairo. There, and with `GSK_RENDERER=cairo`, GL is left
    /// out and GTK draws with cairo (from GTK 4.16 Vulkan is turned off with GL). An explicit
    /// `GSK_RENDERER`, or the variable that turns GL off, is left alone. The setting is
    /// gone again before any thread starts: applications opened from the previewer do not
    /// inherit it. GTK's settings are made here too, with libadwaita's empty theme
    /// (`Display.loadTheme`); `adw_init` comes after, while other threads may run.
    @MainActor
    private static func openDisplay() {
        let renderer = getenv("GSK_RENDERER").map { String(cString: $0) }
        // GDK_DISABLE=gl,vulkan from GTK 4.16, GDK_DEBUG=gl-disable before (CGtk's compat.h).
        let variable = dossier_gl_disable_variable()!
        let skipGL = getenv(variable) == nil && (renderer == "cairo" || (renderer == nil && dossier_gl_is_software() != 0))
        if skipGL { setenv(variable, dossier_gl_disable_value(), 0) }
        Display.initializingGTK { gtk_init() }
        if skipGL { unsetenv(variable) }
        Display.loadTheme()
    }

    private func install() -> Int32 {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let text = "[D-BUS Service]\nName=\(NautilusPreviewerService.busName)\nExec=\(binary) previewer-service\n"
        do {
            try FileManager.default.createDirectory(at: Self.userServiceFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SafeSave.write(Data(text.utf8), to: Self.userServiceFile)
        } catch {
            Output.error(tr("The service file could not be written: %s", "\(error)"))
            return 1
        }
        Self.reloadBusConfiguration()
        print(tr("Dossier is now the previewer for Space in Files (%s).", Self.userServiceFile.path))
        print(tr("If Sushi is running, it keeps the name until it quits: run 'pkill -f sushi' once."))
        return 0
    }

    /// Asks the session bus to read its service folders again: it does not watch a folder
    /// that did not exist when it started.
    private static func reloadBusConfiguration() {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return }
        let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                "ReloadConfig", nil, nil, GDBusCallFlags(rawValue: 0), 5000, nil, nil)
        if let reply { g_variant_unref(reply) }
        g_object_unref(UnsafeMutableRawPointer(bus))
    }

    private func uninstall() -> Int32 {
        do {
            try FileManager.default.removeItem(at: Self.userServiceFile)
        } catch {
            Output.error(tr("'%s' could not be removed: %s", Self.userServiceFile.path, error.localizedDescription))
            return 1
        }
        Self.reloadBusConfiguration()
        print(tr("Dossier is no longer the previewer for Space in Files."))
        return 0
    }
}
