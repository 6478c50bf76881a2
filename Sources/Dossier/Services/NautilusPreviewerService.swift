import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport

/// Dossier as GNOME's previewer: owns `org.gnome.NautilusPreviewer` on the session bus and
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
    static let introspection = """
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
    private var connection: OpaquePointer?
    private let application: UnsafeMutablePointer<GtkApplication>

    init(application: UnsafeMutablePointer<GtkApplication>) {
        self.application = application
        controller.dataSource = items
        controller.navigationHandler = { [weak self] direction in self?.emitSelectionEvent(direction) }
        controller.visibilityDidChange = { [weak self] visible in
            guard let self else { return }
            self.emitVisibleChanged(visible)
            // Alive while the window is up; the inactivity timeout ends an idle service.
            let app = UnsafeMutableRawPointer(self.application).assumingMemoryBound(to: GApplication.self)
            visible ? g_application_hold(app) : g_application_release(app)
        }
    }

    /// Registers the object on `connection` and asks for the bus name.
    func register(on connection: OpaquePointer) throws {
        self.connection = connection
        let node = try withGError { g_dbus_node_info_new_for_xml(Self.introspection, $0) }!
        defer { g_dbus_node_info_unref(node) }
        let interface = node.pointee.interfaces[0]!
        var vtable = GDBusInterfaceVTable(method_call: { connection, _, _, _, method, parameters, invocation, data in
            let service = Unmanaged<NautilusPreviewerService>.fromOpaque(data!).takeUnretainedValue()
            let name = String(cString: method!)
            nonisolated(unsafe) let parameters = parameters, invocation = invocation
            MainActor.assumeIsolated { service.handle(name, parameters, invocation) }
        }, get_property: { _, _, _, _, property, _, data in
            let service = Unmanaged<NautilusPreviewerService>.fromOpaque(data!).takeUnretainedValue()
            guard String(cString: property!) == "Visible" else { return nil }
            let visible = MainActor.assumeIsolated { service.controller.isPresented }
            return g_variant_new_boolean(visible ? 1 : 0)
        }, set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        _ = try withGError {
            g_dbus_connection_register_object(connection, Self.objectPath, interface, &vtable,
                                              Unmanaged.passRetained(self).toOpaque(), nil, $0)
        }
        g_bus_own_name_on_connection(connection, Self.busName,
                                     GBusNameOwnerFlags(G_BUS_NAME_OWNER_FLAGS_REPLACE.rawValue | G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT.rawValue),
                                     nil, nil, nil, nil)
    }

    private func handle(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) {
        switch method {
        case "ShowFile":
            var uri: UnsafeMutablePointer<gchar>?
            var handle: UnsafeMutablePointer<gchar>?
            var close: gboolean = 0
            dossier_variant_get_ssb(parameters, &uri, &handle, &close)
            let target = takeString(uri) ?? ""
            let parent = takeString(handle) ?? ""
            g_dbus_method_invocation_return_value(invocation, nil)
            showFile(target, parent: parent, closeIfAlreadyShown: close != 0)
        case "Close":
            g_dbus_method_invocation_return_value(invocation, nil)
            controller.dismiss()
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", method)
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
        guard let connection else { return }
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, Self.interfaceName, "SelectionEvent",
                                      dossier_variant_tuple_u(direction.rawValue), nil)
    }

    private func emitVisibleChanged(_ visible: Bool) {
        guard let connection else { return }
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, "org.freedesktop.DBus.Properties",
                                      "PropertiesChanged", dossier_variant_properties_changed_b(Self.interfaceName, "Visible", visible ? 1 : 0), nil)
    }
}
