import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The mounted volumes GIO knows (USB sticks, discs, network shares, other partitions), kept
/// current through GVolumeMonitor's mount-added, mount-removed and mount-changed signals.
@MainActor
final class SidebarVolumes {
    private let monitor: ObjectReference
    /// Called after every change.
    var didChange: (() -> Void)?
    /// Called with the root of a mount that went away (before `didChange`).
    var didRemove: ((URL) -> Void)?

    init() {
        monitor = ObjectReference(adopting: UnsafeMutableRawPointer(g_volume_monitor_get()!))
        for signal in ["mount-added", "mount-changed"] {
            connectSignal(monitor.pointer, signal) { [weak self] (_: UnsafeMutableRawPointer?) in self?.didChange?() }
        }
        connectSignal(monitor.pointer, "mount-removed") { [weak self] (mount: UnsafeMutableRawPointer?) in
            if let mount, let root = g_mount_get_root(OpaquePointer(mount)) {
                let uri = takeString(g_file_get_uri(root))
                unref(root)
                if let uri, let url = URL(string: uri) { self?.didRemove?(url) }
            }
            self?.didChange?()
        }
    }

    /// Whether `url` is the mount root `root` or inside it.
    static func location(_ url: URL, isOn root: URL) -> Bool {
        func trimmed(_ url: URL) -> String {
            var text = url.isFileURL ? url.standardizedFileURL.absoluteString : url.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        let location = trimmed(url), mountRoot = trimmed(root)
        return location == mountRoot || location.hasPrefix(mountRoot + "/")
    }

    /// A row for every mount a user would want in the sidebar: not shadowed by another, not
    /// the root file system or the home folder's own (those are Home already).
    var items: [SidebarItem] {
        var items: [SidebarItem] = []
        guard let list = g_volume_monitor_get_mounts(monitor.cast()) else { return items }
        defer { g_list_free_full(list) { g_object_unref($0) } }
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            node = current.pointee.next
            guard let data = current.pointee.data else { continue }
            let mount = OpaquePointer(data)
            guard g_mount_is_shadowed(mount) == 0, let root = g_mount_get_root(mount) else { continue }
            defer { unref(root) }
            let uri = takeString(g_file_get_uri(root)) ?? ""
            let path = takeString(g_file_get_path(root))
            if path == "/" || path == NSHomeDirectory() { continue }
            let name = takeString(g_mount_get_name(mount)) ?? uri
            let icon: SidebarItem.Icon = g_mount_get_symbolic_icon(mount).map { .gicon(ObjectReference(adopting: raw($0))) }
                ?? .named("drive-harddisk-symbolic")
            let url = path.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? URL(string: uri) ?? URL(fileURLWithPath: "/")
            var item = SidebarItem(section: .volumes, title: name, icon: icon, location: .folder(url), tooltip: path ?? uri)
            item.mount = ObjectReference(retaining: data)
            items.append(item)
        }
        return items
    }

    /// Whether the mount can be ejected (a removable drive) or else unmounted; nil when neither.
    static func removal(of mount: ObjectReference) -> Removal? {
        let pointer = OpaquePointer(mount.pointer)
        if g_mount_can_eject(pointer) != 0 { return .eject }
        if g_mount_can_unmount(pointer) != 0 { return .unmount }
        return nil
    }

    enum Removal {
        case eject, unmount
    }

    /// Ejects or unmounts `mount`, asking through a dialog over `parent`'s window when GIO
    /// needs the user (files still open); `completion` gets a message to show when it failed.
    static func remove(_ mount: ObjectReference, parent: WidgetPointer, completion: @escaping (String?) -> Void) {
        guard removal(of: mount) != nil else { return }
        let dialogs = MountDialogs(parent: parent)
        Task { @MainActor in
            do throws(MountRemovalError) {
                try await ServerConnection.remove(mount, prompt: dialogs)
                completion(nil)
            } catch {
                // Keeping it (a question answered "no") is no failure to report.
                completion(error == .cancelled ? nil : error.description)
            }
        }
    }
}
