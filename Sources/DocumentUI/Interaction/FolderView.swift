import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Shows files in the file manager, selected (org.freedesktop.FileManager1 `ShowItems`), or,
/// without one on the session bus, opens their folder in the folder's default app.
enum FolderView {
    static func show(_ urls: [URL]) {
        let uris = urls.map(\.absoluteString)
        let folders = Array(Set(urls.map { $0.deletingLastPathComponent().parseName })).sorted()
        Task.detached {
            guard !showItems(uris) else { return }
            let registry = ApplicationRegistry()
            if let app = registry.defaultApplication(for: .folder) {
                try? registry.open(folders, with: app)
            }
        }
    }

    static func show(_ url: URL) { show([url]) }

    nonisolated static func showItems(_ uris: [String]) -> Bool {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(raw(bus)) }
        let type = g_variant_type_new("as")
        let builder = g_variant_builder_new(type)
        g_variant_type_free(type)
        for uri in uris { g_variant_builder_add_value(builder, g_variant_new_string(uri)) }
        let list = g_variant_builder_end(builder)
        g_variant_builder_unref(builder)
        var children: [OpaquePointer?] = [list, g_variant_new_string("")]
        let parameters = g_variant_new_tuple(&children, 2)
        let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                                                "org.freedesktop.FileManager1", "ShowItems", parameters, nil,
                                                GDBusCallFlags(rawValue: 0), 2000, nil, nil)
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }
}
