import CGLib
import DocumentCore
import DocumentUI
import Foundation
import GObjectSupport

/// The previewer's side of the session bus: the `org.gnome.NautilusPreviewer2` object and the
/// `org.gnome.NautilusPreviewer` name, served on a thread of their own from the moment GTK is
/// initialised. D-Bus activation holds Nautilus's first `ShowFile` until the name is owned;
/// owning it before the application starts (libadwaita, styles, the application's own name,
/// all on the main thread) lets that first file's work (its type, an image's decode, a
/// PDF's first page) begin on another core meanwhile. Calls go on to the main thread, in order,
/// once the service is ready for them.
final class PreviewerBus: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [PreviewRequest] = []
    private var ready = false
    private var visible = false
    private var parentHandle = ""
    private var busConnection: OpaquePointer?
    nonisolated(unsafe) private var receiver: (@MainActor (PreviewRequest) -> Void)?
    /// Where the first `ShowFile`'s work begins, before the service is up.
    let prefetch: PreviewPrefetch

    private init(prefetch: PreviewPrefetch) {
        self.prefetch = prefetch
    }

    /// Connects and asks for the name on a new thread; a `ShowFile` that comes before the
    /// service is ready begins its work in `prefetch`.
    static func start(prefetch: PreviewPrefetch) -> PreviewerBus {
        let bus = PreviewerBus(prefetch: prefetch)
        let thread = Thread { bus.serve() }
        thread.name = "previewer-bus"
        thread.start()
        return bus
    }

    /// The connection, once made (for signals sent from the main thread).
    var connection: OpaquePointer? { lock.withLock { busConnection } }

    /// Whether the window is shown, for the `Visible` property (read on the bus thread).
    func setVisible(_ shown: Bool) { lock.withLock { visible = shown } }

    /// The window handle of the last `ShowFile`, for the `ParentHandle` property.
    func setParentHandle(_ handle: String) { lock.withLock { parentHandle = handle } }

    /// From now on calls go to `handler` on the main thread; those that came before go first.
    @MainActor
    func deliver(to handler: @escaping @MainActor (PreviewRequest) -> Void) {
        receiver = handler
        lock.withLock { ready = true }
        drain()
    }

    @MainActor
    private func drain() {
        guard let receiver else { return }
        while let call = lock.withLock({ pending.isEmpty ? nil : pending.removeFirst() }) {
            receiver(call)
        }
    }

    private func serve() {
        // Method calls are dispatched to the thread-default context at registration: this one.
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        do {
            let connection = try withGError { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }!
            lock.withLock { busConnection = connection }
            try register(on: connection)
        } catch {
            Output.error(tr("The previewer service could not start: %s", "\(error)"))
            return
        }
        g_main_loop_run(g_main_loop_new(context, 0))
    }

    private func register(on connection: OpaquePointer) throws {
        let node = try withGError { g_dbus_node_info_new_for_xml(NautilusPreviewerService.introspection, $0) }!
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable(method_call: { _, _, _, _, method, parameters, invocation, data in
            let bus = Unmanaged<PreviewerBus>.fromOpaque(data!).takeUnretainedValue()
            bus.handle(String(cString: method!), parameters, invocation)
        }, get_property: { _, _, _, _, property, _, data in
            let bus = Unmanaged<PreviewerBus>.fromOpaque(data!).takeUnretainedValue()
            switch String(cString: property!) {
            case "Visible": return g_variant_new_boolean(bus.lock.withLock { bus.visible } ? 1 : 0)
            case "ParentHandle": return g_variant_new_string(bus.lock.withLock { bus.parentHandle })
            default: return nil
            }
        }, set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        // Both forms of ShowFile: the interface (four arguments) and, routed to it by the
        // filter, the three-argument one (see dossier_previewer2_route).
        dossier_previewer2_accept_both_show_files(connection, NautilusPreviewerService.objectPath)
        for index in 0..<2 {
            _ = try withGError {
                g_dbus_connection_register_object(connection, NautilusPreviewerService.objectPath, node.pointee.interfaces[index],
                                                  &vtable, Unmanaged.passRetained(self).toOpaque(), nil, $0)
            }
        }
        g_bus_own_name_on_connection(connection, NautilusPreviewerService.busName,
                                     GBusNameOwnerFlags(rawValue: DOSSIER_G_BUS_NAME_OWNER_FLAGS_REPLACE | DOSSIER_G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT),
                                     nil, nil, nil, nil)
    }

    /// On the bus thread: answers at once (as Sushi does) and queues the call for the main one.
    /// Both forms of ShowFile come here (the three-argument one through the second interface).
    private func handle(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) {
        StageTrace.mark("bus got \(method)")
        guard let call = PreviewRequest(method: method, arguments: parameters) else {
            let error = PreviewRequest.isKnown(method: method)
                ? "org.freedesktop.DBus.Error.InvalidArgs" : "org.freedesktop.DBus.Error.UnknownMethod"
            g_dbus_method_invocation_return_dbus_error(invocation, error, method)
            return
        }
        g_dbus_method_invocation_return_value(invocation, nil)
        let early = lock.withLock { () -> Bool in
            pending.append(call)
            return !ready
        }
        // Before the service is up (the call that started it): its file's work begins now.
        if early, case .showFile(let url?, _, _, _) = call {
            prefetch.start(url)
        }
        DispatchQueue.main.async { self.drain() }
    }
}
