import CGLib
import Foundation
import GObjectSupport

/// Names for locations that are not local paths (GVFS mounts: sftp://, smb://, dav://…), for
/// the window title and the path bar. Looked up in GIO's volume monitor, which keeps the
/// mounts in memory: no I/O.
@MainActor
public enum RemoteLocation {
    /// The mount holding `url`: its name and its root, or nil when no mount holds it.
    public static func mount(containing url: URL) -> (name: String, root: URL)? {
        guard let monitor = g_volume_monitor_get() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(monitor)) }
        guard let file = g_file_new_for_uri(url.absoluteString) else { return nil }
        defer { unref(file) }
        guard let list = g_volume_monitor_get_mounts(monitor) else { return nil }
        defer { g_list_free_full(list) { g_object_unref($0) } }
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            node = current.pointee.next
            guard let data = current.pointee.data else { continue }
            let mount = OpaquePointer(data)
            guard let root = g_mount_get_root(mount) else { continue }
            defer { unref(root) }
            guard g_file_equal(root, file) != 0 || g_file_has_prefix(file, root) != 0,
                  let uri = takeString(g_file_get_uri(root)), let rootURL = URL(string: uri) else { continue }
            return (takeString(g_mount_get_name(mount)) ?? uri, rootURL)
        }
        return nil
    }

    /// A short name for `url`: the mount's name at a mount's root, else the last component
    /// of its path, else its host or the whole URI.
    public static func title(for url: URL) -> String {
        if let mount = mount(containing: url), sameLocation(mount.root, url) { return mount.name }
        let last = url.lastPathComponent
        if !last.isEmpty && last != "/" { return last }
        if let host = url.host, !host.isEmpty { return host }
        return url.absoluteString
    }

    /// Two URIs of the same place, with or without a trailing slash.
    static func sameLocation(_ a: URL, _ b: URL) -> Bool {
        func trimmed(_ url: URL) -> String {
            var text = url.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        return trimmed(a) == trimmed(b)
    }
}
