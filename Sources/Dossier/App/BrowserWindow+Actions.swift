import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport
import GtkSupport

/// The window's `win.` actions: New Window and the sidebar toggle. (Close is GTK's own
/// `window.close`; the shortcuts window adds `win.show-help-overlay`.)
extension BrowserWindow {
    func installActions() {
        addAction("new-window") { [weak self] in
            guard let self else { return }
            self.openWindow?(self.browser.location)
        }
        addAction("show-sidebar") { [weak self] in
            guard let self else { return }
            adw_flap_set_reveal_flap(self.flap, adw_flap_get_reveal_flap(self.flap) == 0 ? 1 : 0)
        }
    }

    /// Adds `win.NAME` to the window's own action map (a second "win" group inserted on the
    /// window would hide GTK's, and with it `win.show-help-overlay`).
    func addAction(_ name: String, _ handler: @escaping () -> Void) {
        let action = g_simple_action_new(name, nil)!
        connectSignal(raw(action), "activate") { (_: UnsafeMutableRawPointer?) in handler() }
        g_action_map_add_action(OpaquePointer(window), action)
        g_object_unref(raw(action))
    }
}

/// The About window.
@MainActor
enum AboutDossier {
    static func present(transientFor parent: WidgetPointer?) {
        dossier_about_present(parent, "Dossier", "io.github.dossier.Dossier", dossierVersion, tr("The Dossier developers"),
                              tr("Browse folders and preview documents, images, media and fonts"), GTK_LICENSE_GPL_3_0,
                              "https://github.com/dossier-app/dossier/issues")
    }
}
