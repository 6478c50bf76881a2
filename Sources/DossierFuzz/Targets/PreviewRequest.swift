import CGLib
import DocumentUI
import Foundation

extension FuzzTarget {
    /// A D-Bus message as the previewer service gets it from Nautilus: GDBus reads it off the
    /// wire, the service's connection filter routes the three-argument ShowFile, and the
    /// method call's arguments become a `PreviewRequest`.
    static let previewRequest = FuzzTarget("dbus-previewer", "NautilusPreviewer2 calls (D-Bus message, route, PreviewRequest)") { data in
        var bytes = [UInt8](data)
        guard let message = bytes.withUnsafeMutableBufferPointer({ buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress else { return nil }
            return g_dbus_message_new_from_blob(start, gsize(buffer.count), GDBusCapabilityFlags(rawValue: 0), nil)
        }) else { return }
        let routed = "/org/gnome/NautilusPreviewer".withCString { path in
            dossier_previewer2_route(nil, message, 1, UnsafeMutableRawPointer(mutating: path))
        }
        guard let routed else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(routed)) }
        guard g_dbus_message_get_message_type(routed) == G_DBUS_MESSAGE_TYPE_METHOD_CALL,
              let member = g_dbus_message_get_member(routed)
        else { return }
        _ = PreviewRequest(method: String(cString: member), arguments: g_dbus_message_get_body(routed))
    }
}
