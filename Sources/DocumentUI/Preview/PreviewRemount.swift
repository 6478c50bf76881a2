import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Mounts the location of a remote item again before a retry. A server that went away takes
/// its GVFS mount with it, slowly: SFTP's backend ends with its connection while gvfsd still
/// lists the mount for a while, and every call on it fails ("Backend currently unmounting",
/// or the backend's bus name is gone). So the location is asked about first; when that fails
/// on a mount that is there, the stale mount is unmounted (forced), then mounted again. A
/// password GVFS does not remember is asked for in GTK's dialog over the previewer.
///
/// GIO's asynchronous calls, made on the main thread: they finish through the main loop, and
/// the main thread never waits for the server.
@MainActor
enum PreviewRemount {
    /// Makes the location enclosing `url` reachable again if it can; nil when it is (or was),
    /// else why not.
    static func mountEnclosing(_ url: URL, parent: WidgetPointer?) async -> String? {
        let file = ObjectReference(adopting: UnsafeMutableRawPointer(g_file_new_for_uri(url.absoluteString)))
        let probe = await call { data in
            g_file_query_info_async(OpaquePointer(file.pointer), "standard::type", GFileQueryInfoFlags(rawValue: 0), G_PRIORITY_DEFAULT, nil, { source, result, data in
                var error: UnsafeMutablePointer<GError>?
                if let info = g_file_query_info_finish(OpaquePointer(source), result, &error) { unref(info) }
                RemountCall.finish(data, error)
            }, data)
        }
        guard let probe else { return nil }
        if !probe.isIOError(G_IO_ERROR_NOT_MOUNTED) {
            // A mount is listed but does not answer: let go of it first.
            _ = await call { data in
                g_file_find_enclosing_mount_async(OpaquePointer(file.pointer), G_PRIORITY_DEFAULT, nil, { source, result, data in
                    var error: UnsafeMutablePointer<GError>?
                    guard let mount = g_file_find_enclosing_mount_finish(OpaquePointer(source), result, &error) else {
                        return RemountCall.finish(data, error)
                    }
                    g_mount_unmount_with_operation(mount, GMountUnmountFlags(rawValue: DOSSIER_G_MOUNT_UNMOUNT_FORCE), nil, nil, { source, result, data in
                        var error: UnsafeMutablePointer<GError>?
                        g_mount_unmount_with_operation_finish(OpaquePointer(source), result, &error)
                        RemountCall.finish(data, error)
                    }, data)
                    unref(mount)
                }, data)
            }
        }
        let parentWindow = parent.flatMap { gtk_widget_get_root($0) }.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
        let mounted = await call { data in
            let operation = gtk_mount_operation_new(parentWindow)
            g_file_mount_enclosing_volume(OpaquePointer(file.pointer), GMountMountFlags(rawValue: 0),
                                          operation.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GMountOperation.self) },
                                          nil, { source, result, data in
                var error: UnsafeMutablePointer<GError>?
                g_file_mount_enclosing_volume_finish(OpaquePointer(source), result, &error)
                RemountCall.finish(data, error)
            }, data)
            if let operation { g_object_unref(UnsafeMutableRawPointer(operation)) }
        }
        guard let mounted, !mounted.isIOError(G_IO_ERROR_ALREADY_MOUNTED), !mounted.isIOError(G_IO_ERROR_NOT_SUPPORTED) else { return nil }
        return mounted.message
    }

    /// Starts a GIO call given the user data its callback hands to `RemountCall.finish`;
    /// returns its error, if any.
    private static func call(_ start: (UnsafeMutableRawPointer) -> Void) async -> GLibError? {
        await withCheckedContinuation { (continuation: CheckedContinuation<GLibError?, Never>) in
            start(Unmanaged.passRetained(RemountCall(continuation)).toOpaque())
        }
    }
}

private final class RemountCall {
    let continuation: CheckedContinuation<GLibError?, Never>
    init(_ continuation: CheckedContinuation<GLibError?, Never>) { self.continuation = continuation }

    static func finish(_ data: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<GError>?) {
        Unmanaged<RemountCall>.fromOpaque(data!).takeRetainedValue().continuation.resume(returning: error.map { GLibError(consuming: $0) })
    }
}
