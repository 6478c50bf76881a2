import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// Mounts the location of a remote item again before a retry: a server that went away takes
/// its GVFS mount with it (SFTP's backend ends with its connection), and a download of a
/// location no longer mounted fails at once. A password GVFS does not remember is asked for
/// in GTK's dialog over the previewer.
@MainActor
enum PreviewRemount {
    /// Mounts the location enclosing `url` unless it is mounted; nil when it is (or was), else
    /// why not. Asynchronous: the main thread does not wait for the server.
    static func mountEnclosing(_ url: URL, parent: Widget?) async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let file = g_file_new_for_uri(url.absoluteString)
            let parentWindow = parent.flatMap { gtk_widget_get_root($0) }.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
            let operation = gtk_mount_operation_new(parentWindow)
            let box = Unmanaged.passRetained(RemountCall(continuation)).toOpaque()
            g_file_mount_enclosing_volume(file, G_MOUNT_MOUNT_NONE, operation.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GMountOperation.self) },
                                          nil, { source, result, data in
                let call = Unmanaged<RemountCall>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                g_file_mount_enclosing_volume_finish(OpaquePointer(source), result, &error)
                guard let error else { return call.finish(nil) }
                let failure = GLibError(consuming: error)
                if failure.isIOError(G_IO_ERROR_ALREADY_MOUNTED) || failure.isIOError(G_IO_ERROR_NOT_SUPPORTED) {
                    return call.finish(nil)
                }
                call.finish(failure.message)
            }, box)
            if let operation { g_object_unref(UnsafeMutableRawPointer(operation)) }
            unref(file)
        }
    }
}

private final class RemountCall {
    let continuation: CheckedContinuation<String?, Never>
    init(_ continuation: CheckedContinuation<String?, Never>) { self.continuation = continuation }
    func finish(_ message: String?) { continuation.resume(returning: message) }
}
