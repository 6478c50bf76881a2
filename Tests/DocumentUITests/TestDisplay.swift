import CGtk
import DocumentUI
import Foundation

/// GTK in the test process itself, kept off the accessibility bus.
///
/// The UI tests in DossierTests read the real app's windows through AT-SPI, walking every
/// application on the bus. This process would be one of them once it made a widget, and it
/// never answers (it is busy running tests), so each of those walks would wait for the D-Bus
/// timeout and miss short-lived things such as toasts. GTK reads `GTK_A11Y` once, when the
/// first widget gets its accessibility context: set it for that moment only, so the apps the
/// tests start later keep theirs.
@MainActor
enum TestDisplay {
    static func initialize() -> Bool {
        setenv("GTK_A11Y", "none", 1)
        defer { unsetenv("GTK_A11Y") }
        guard Display.initialize() else { return false }
        let probe = gtk_label_new("")!
        g_object_ref_sink(UnsafeMutableRawPointer(probe))
        g_object_unref(UnsafeMutableRawPointer(probe))
        return true
    }
}
