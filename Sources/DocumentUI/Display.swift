import CGtk
import GObjectSupport

/// The connection to the display, for programs and tests that may run without one.
@MainActor
public enum Display {
    private static var state: Bool?

    /// Initializes GTK and libadwaita once; false when no display can be opened (a headless
    /// CI job, an SSH session), in which case nothing GTK may be used.
    public static func initialize() -> Bool {
        if let state { return state }
        let available = gtk_init_check() != 0
        if available {
            adw_init()
            MainLoopBridge.install()
        }
        state = available
        return available
    }
}
