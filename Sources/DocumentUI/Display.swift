import CDisplay
import CGtk
import GObjectSupport
import GtkSupport

/// The connection to the display, for programs and tests that may run without one.
@MainActor
public enum Display {
    private static var state: Bool?

    /// Initializes GTK and libadwaita once; false when no display can be opened (a headless
    /// CI job, an SSH session), in which case nothing GTK may be used.
    public static func initialize() -> Bool {
        if let state { return state }
        let available = initializingGTK { gtk_init_check() != 0 }
        if available {
            loadStyles()
            MainLoopBridge.install()
        }
        state = available
        return available
    }

    /// Runs `initialize` (`gtk_init`) with GTK's media modules registered without being loaded
    /// (`dossier_lazy_media_modules_path`), so that a start does not wait for them; then sets
    /// `GTK_PATH` back as it was, so that the programs Dossier opens do not inherit it. On the
    /// main thread, before other threads read the environment.
    public static func initializingGTK<T>(_ initialize: () -> T) -> T {
        let cache = String(cString: g_get_user_cache_dir()) + "/dossier"
        guard let folder = dossier_lazy_media_modules_path(cache) else { return initialize() }
        let own = String(cString: folder)
        g_free(folder)
        let previous = getenv("GTK_PATH").map { String(cString: $0) }
        setenv("GTK_PATH", previous.map { "\(own):\($0)" } ?? own, 1)
        defer {
            if let previous { setenv("GTK_PATH", previous, 1) } else { unsetenv("GTK_PATH") }
        }
        return initialize()
    }

    /// Initializes libadwaita (`adw_init`) once GTK is, without parsing GTK's own theme first
    /// (`loadTheme`). Call on the main thread after `gtk_init`, before any window or
    /// application startup; later calls do nothing.
    public static func loadStyles() {
        guard !stylesLoaded else { return }
        stylesLoaded = true
        loadTheme()
        adw_init()
    }

    /// Makes GTK's settings for the display with libadwaita's empty theme, as `adw_init` will
    /// want it, instead of GTK's Default theme.
    ///
    /// GTK loads its theme when the display's settings are made, and libadwaita then replaces
    /// it with an empty one and its own stylesheet: GTK's Default theme would be parsed before the
    /// first window, only to be thrown away. When the settings are made here
    /// with `GTK_THEME=Adwaita-empty`, GTK loads the empty theme at once. The variable is gone
    /// again before libadwaita looks at it (it leaves a theme the user chose through
    /// `GTK_THEME` alone, and so does this) and before the programs Dossier opens could
    /// inherit it. Call on the main thread after `gtk_init`, before any thread that reads the
    /// environment starts (then `adw_init` may run while other threads work); later calls do
    /// nothing.
    public static func loadTheme() {
        guard !themeLoaded else { return }
        themeLoaded = true
        if getenv("GTK_THEME") == nil {
            setenv("GTK_THEME", "Adwaita-empty", 1)
            _ = gtk_settings_get_default()
            unsetenv("GTK_THEME")
        }
    }

    private static var themeLoaded = false
    private static var stylesLoaded = false

    /// Keeps the shared memory that frames reach the X server through, once `window` (just
    /// presented) has drawn. cairo-xlib would otherwise free it
    /// whenever no frame is on its way, and the first frame of a window shown again (the
    /// previewer's, hidden between items) would page-fault through new memory the size of the
    /// window. Touching it once costs as much, but at low priority rather than in a frame.
    /// Not for the browser: while it scrolls the memory stays anyway, and touching it in the
    /// middle of a scroll would delay a frame. Once per process; nothing on Wayland.
    public static func keepFrameMemory(after window: WindowWidget) {
        keepFrameMemory(after: window.gtkWidget)
    }

    static func keepFrameMemory(after window: WidgetPointer) {
        dossier_keep_frame_pool_after_paint(window)
    }
}
