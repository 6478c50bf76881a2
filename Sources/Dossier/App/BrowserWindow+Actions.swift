import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport

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
    static func present(transientFor parent: Widget?) {
        let about = adw_about_window_new()!
        let window = OpaquePointer(about)
        adw_about_window_set_application_name(window, "Dossier")
        adw_about_window_set_application_icon(window, "io.github.dossier.Dossier")
        adw_about_window_set_version(window, dossierVersion)
        adw_about_window_set_developer_name(window, tr("The Dossier developers"))
        adw_about_window_set_comments(window, tr("Browse folders and preview documents, images, media and fonts"))
        adw_about_window_set_license_type(window, GTK_LICENSE_GPL_3_0)
        adw_about_window_set_issue_url(window, "https://github.com/dossier-app/dossier/issues")
        if let parent { gtk_window_set_transient_for(cast(about), cast(parent)) }
        gtk_window_set_modal(cast(about), 1)
        gtk_window_present(cast(about))
    }
}
