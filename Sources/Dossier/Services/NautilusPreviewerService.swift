import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport

/// Dossier as GNOME's previewer: owns `org.gnome.NautilusPreviewer` on the session bus (its
/// `PreviewerBus`, from the start of the process) and
/// serves `org.gnome.NautilusPreviewer2` as Nautilus 43 calls it, the way Sushi does.
/// `ShowFile(uri, windowHandle, closeIfAlreadyShown)` shows a file (or closes the window
/// when it already shows that file and the flag is set); `Close()` closes it; `Visible`
/// says whether it is shown; arrow keys in the window send `SelectionEvent(direction)`, and
/// Nautilus answers by moving its selection and calling `ShowFile` again.
@MainActor
final class NautilusPreviewerService {
    nonisolated static let busName = "org.gnome.NautilusPreviewer"
    nonisolated static let objectPath = "/org/gnome/NautilusPreviewer"
    nonisolated static let interfaceName = "org.gnome.NautilusPreviewer2"
    nonisolated static let introspection = """
        <node>
          <interface name="org.gnome.NautilusPreviewer2">
            <method name="ShowFile">
              <arg type="s" name="Uri" direction="in"/>
              <arg type="s" name="WindowHandle" direction="in"/>
              <arg type="b" name="CloseIfAlreadyShown" direction="in"/>
            </method>
            <method name="Close"/>
            <property name="Visible" type="b" access="read"/>
            <signal name="SelectionEvent">
              <arg type="u" name="direction"/>
            </signal>
          </interface>
        </node>
        """

    private let controller = PreviewController()
    private let items = PreviewItemList([])
    private let bus: PreviewerBus
    private let application: UnsafeMutablePointer<GtkApplication>

    /// Serves the calls `bus` receives (the object and the name are its own, owned early).
    init(application: UnsafeMutablePointer<GtkApplication>, bus: PreviewerBus) {
        self.application = application
        self.bus = bus
        controller.dataSource = items
        controller.navigationHandler = { [weak self] direction in self?.emitSelectionEvent(direction) }
        controller.visibilityDidChange = { [weak self] visible in
            guard let self else { return }
            self.bus.setVisible(visible)
            self.emitVisibleChanged(visible)
            // Alive while the window is up; the inactivity timeout ends an idle service.
            let app = UnsafeMutableRawPointer(self.application).assumingMemoryBound(to: GApplication.self)
            visible ? g_application_hold(app) : g_application_release(app)
        }
        bus.deliver { [weak self] call in self?.handle(call) }
    }

    private func handle(_ call: PreviewerBus.Call) {
        switch call {
        case .showFile(let uri, let parent, let close):
            showFile(uri, parent: parent, closeIfAlreadyShown: close)
        case .close:
            controller.dismiss()
        }
    }

    private func showFile(_ uri: String, parent: String, closeIfAlreadyShown: Bool) {
        guard let url = URL(string: uri), url.isFileURL else { return }
        if closeIfAlreadyShown, controller.isPresented, controller.currentItem?.url.standardizedFileURL == url.standardizedFileURL {
            controller.dismiss()
            return
        }
        items.items = [PreviewItem(url: url)]
        controller.reloadData()
        controller.currentIndex = 0
        controller.present(application: application)
        controller.setTransientFor(handle: parent)
    }

    private func emitSelectionEvent(_ direction: GtkDirectionType) {
        guard let connection = bus.connection else { return }
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, Self.interfaceName, "SelectionEvent",
                                      dossier_variant_tuple_u(direction.rawValue), nil)
    }

    private func emitVisibleChanged(_ visible: Bool) {
        guard let connection = bus.connection else { return }
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, "org.freedesktop.DBus.Properties",
                                      "PropertiesChanged", dossier_variant_properties_changed_b(Self.interfaceName, "Visible", visible ? 1 : 0), nil)
    }
}
