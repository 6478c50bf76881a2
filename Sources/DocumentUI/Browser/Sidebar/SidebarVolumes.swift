import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport

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

    /// Ejects or unmounts `mount`, asking through a dialog on `parent` when GIO needs the user
    /// (a password, a busy file); `completion` gets a message to show when it failed.
    static func remove(_ mount: ObjectReference, parent: UnsafeMutablePointer<GtkWindow>?,
                       completion: @escaping (String?) -> Void) {
        guard let removal = removal(of: mount) else { return }
        let operation = gtk_mount_operation_new(parent)
        let name = takeString(g_mount_get_name(OpaquePointer(mount.pointer))) ?? ""
        let box = Unmanaged.passRetained(RemovalBox(mount: mount, removal: removal, name: name, completion: completion)).toOpaque()
        let finished: GAsyncReadyCallback = { source, result, data in
            let box = Unmanaged<RemovalBox>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let done = box.removal == .eject
                ? g_mount_eject_with_operation_finish(OpaquePointer(source), result, &error)
                : g_mount_unmount_with_operation_finish(OpaquePointer(source), result, &error)
            var message: String?
            if done == 0, let error {
                // The user cancelling a password dialog is no failure to report.
                if !(error.pointee.domain == g_io_error_quark() && error.pointee.code == G_IO_ERROR_FAILED_HANDLED.rawValue) {
                    let reason = String(cString: error.pointee.message)
                    message = box.removal == .eject ? tr("“%s” could not be ejected: %s", box.name, reason)
                        : tr("“%s” could not be unmounted: %s", box.name, reason)
                }
                g_error_free(error)
            }
            let completion = box.completion
            MainActor.assumeIsolated { completion(message) }
        }
        if removal == .eject {
            g_mount_eject_with_operation(OpaquePointer(mount.pointer), GMountUnmountFlags(rawValue: 0), operation, nil, finished, box)
        } else {
            g_mount_unmount_with_operation(OpaquePointer(mount.pointer), GMountUnmountFlags(rawValue: 0), operation, nil, finished, box)
        }
        if let operation { g_object_unref(raw(operation)) }
    }
}

/// What an eject or unmount in flight needs when it finishes.
private final class RemovalBox {
    let mount: ObjectReference
    let removal: SidebarVolumes.Removal
    let name: String
    let completion: (String?) -> Void

    init(mount: ObjectReference, removal: SidebarVolumes.Removal, name: String, completion: @escaping (String?) -> Void) {
        self.mount = mount
        self.removal = removal
        self.name = name
        self.completion = completion
    }
}
