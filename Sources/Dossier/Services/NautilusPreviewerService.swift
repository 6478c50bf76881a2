import CGLib
import CGtk
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport
import GtkSupport

/// Dossier as GNOME's previewer: owns `org.gnome.NautilusPreviewer` on the session bus (its
/// `PreviewerBus`, from the start of the process) and serves `org.gnome.NautilusPreviewer2` in
/// every dialect Nautilus has spoken since 43, at once:
///
/// - `ShowFile(uri, windowHandle, closeIfAlreadyShown)` (Nautilus 43 to 49) and
///   `ShowFile(uri, windowHandle, closeIfAlreadyShown, activationToken)` (50 on) show a file,
///   or close the window when it already shows that file and the flag is set; the token lets
///   the window take the focus (an X11 startup id or an xdg-activation token);
/// - `Close()` closes it; `Visible` says whether it is shown; `ParentHandle` is the window
///   handle of the last file shown (Sushi 45 on);
/// - arrow keys send `SelectionEvent(u direction)`: Nautilus moves its selection and calls
///   `ShowFile` again;
/// - for a host that speaks the four-argument dialect, the window's menu offers Rename… (F2),
///   Move to Trash (Delete) and, for a folder, Open Folder: the window closes and
///   `Rename(s uri)`, `Trash(s uri)` or `NavigateTo(s uri)` asks Nautilus 51 to do it.
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
              <arg type="s" name="ActivationToken" direction="in"/>
            </method>
            <method name="Close"/>
            <property name="Visible" type="b" access="read"/>
            <property name="ParentHandle" type="s" access="read"/>
            <signal name="SelectionEvent">
              <arg type="u" name="direction"/>
            </signal>
            <signal name="NavigateTo"><arg type="s" name="uri"/></signal>
            <signal name="Rename"><arg type="s" name="uri"/></signal>
            <signal name="Trash"><arg type="s" name="uri"/></signal>
          </interface>
          <interface name="\(DOSSIER_PREVIEWER2_THREE_ARGUMENTS)">
            <method name="ShowFile">
              <arg type="s" name="Uri" direction="in"/>
              <arg type="s" name="WindowHandle" direction="in"/>
              <arg type="b" name="CloseIfAlreadyShown" direction="in"/>
            </method>
          </interface>
        </node>
        """

    private let controller: PreviewController
    private let items = PreviewItemList([])
    private let bus: PreviewerBus
    private let application: UnsafeMutablePointer<GtkApplication>

    /// Serves the calls `bus` receives (the object and the name are its own, owned early).
    init(application: UnsafeMutablePointer<GtkApplication>, bus: PreviewerBus) {
        self.application = application
        self.bus = bus
        controller = PreviewController(prefetch: bus.prefetch)
        controller.dataSource = items
        controller.navigationHandler = { [weak self] direction in self?.emitSelectionEvent(direction) }
        controller.visibilityDidChange = { [weak self] visible in
            guard let self else { return }
            self.bus.setVisible(visible)
            self.emitPropertyChanged("Visible", g_variant_new_boolean(visible ? 1 : 0))
            // Alive while the window is up; the inactivity timeout ends an idle service.
            let app = UnsafeMutableRawPointer(self.application).assumingMemoryBound(to: GApplication.self)
            visible ? g_application_hold(app) : g_application_release(app)
            if !visible { Self.returnFreedMemory() }
        }
        bus.deliver { [weak self] call in self?.handle(call) }
    }

    /// Gives the memory the closed window's items freed back to the system. glibc keeps what
    /// is freed in its heaps for the next allocation, and a previewer allocates in bursts of
    /// every size on several threads (a decoded picture, a PDF page, a parsed table), so
    /// without a trim the service's anonymous memory keeps growing from one closed window to
    /// the next (`make soak` checks it).
    /// Off the main thread: trimming walks every arena.
    private static func returnFreedMemory() {
        Task.detached(priority: .background) { _ = malloc_trim(0) }
    }

    private func handle(_ call: PreviewRequest) {
        switch call {
        case .showFile(let url, let parent, let close, let token):
            guard let url else { return }
            showFile(url, parent: parent, closeIfAlreadyShown: close, activationToken: token)
        case .close:
            controller.dismiss()
        }
    }

    private func showFile(_ url: URL, parent: String, closeIfAlreadyShown: Bool, activationToken: String?) {
        if closeIfAlreadyShown, controller.isPresented, controller.currentItem?.url.standardizedFileURL == url.standardizedFileURL {
            controller.dismiss()
            return
        }
        // Only a host of the four-argument dialect listens for Rename, Trash and NavigateTo.
        let speaksActions = activationToken != nil
        if speaksActions != !controller.hostActions.isEmpty {
            controller.hostActions = speaksActions ? hostActions() : []
        }
        StageTrace.mark("showFile on main")
        items.items = [PreviewItem(url: url)]
        controller.reloadData()
        controller.currentIndex = 0
        controller.present(application: AppInstance(gtkApplication: application), activationToken: activationToken)
        StageTrace.mark("presented")
        controller.setTransientFor(handle: parent)
        bus.setParentHandle(parent)
        emitPropertyChanged("ParentHandle", g_variant_new_string(parent))
    }

    /// Nautilus 51's own actions on its selected item, asked for with a signal once the
    /// previewer has closed (Rename a moment later, when Nautilus's window has the focus again).
    private func hostActions() -> [PreviewHostAction] {
        [
            PreviewHostAction(name: "navigate-to", label: tr("Open Folder"), key: UInt32(GDK_KEY_Return), foldersOnly: true) { [weak self] item in
                self?.emitSignal("NavigateTo", uri: item.url.absoluteString)
            },
            PreviewHostAction(name: "rename", label: tr("Rename…"), key: UInt32(GDK_KEY_F2)) { [weak self] item in
                let uri = item.url.absoluteString
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { self?.emitSignal("Rename", uri: uri) }
            },
            PreviewHostAction(name: "trash", label: tr("Move to Trash"), key: UInt32(GDK_KEY_Delete)) { [weak self] item in
                self?.emitSignal("Trash", uri: item.url.absoluteString)
            },
        ]
    }

    private func emitSignal(_ name: String, uri: String) {
        guard let connection = bus.connection else { return }
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, Self.interfaceName, name, dossier_variant_tuple_s(uri), nil)
    }

    private func emitSelectionEvent(_ direction: GtkDirectionType) {
        guard let connection = bus.connection else { return }
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, Self.interfaceName, "SelectionEvent",
                                      dossier_variant_tuple_u(direction.rawValue), nil)
    }

    private func emitPropertyChanged(_ name: String, _ value: OpaquePointer) {
        guard let connection = bus.connection else { return }
        g_dbus_connection_emit_signal(connection, nil, Self.objectPath, "org.freedesktop.DBus.Properties",
                                      "PropertiesChanged", dossier_variant_properties_changed(Self.interfaceName, name, value), nil)
    }
}
