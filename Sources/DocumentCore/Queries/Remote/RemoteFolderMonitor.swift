import CGLib
import Foundation
import GObjectSupport

/// Follows a remote folder with a GFileMonitor where its GVFS backend can (most cannot:
/// SFTP, SMB and WebDAV report no changes), on the listing loop. `start` answers whether it
/// follows the folder; the query lists again periodically when it does not.
final class RemoteFolderMonitor: @unchecked Sendable {
    // @unchecked: the monitor is made, signalled and released on the listing loop's thread.

    enum Event: Sendable {
        /// Something in the folder changed (which item does not matter: it is listed again).
        case changed
        /// The folder's mount went away.
        case unmounted
    }

    private let uri: String
    private let cancellable: ListingCancellable
    private let handler: @Sendable (Event) -> Void
    private let loop: ListingLoop
    private var monitor: UnsafeMutablePointer<GFileMonitor>?

    init(uri: String, cancellable: ListingCancellable, loop: ListingLoop = .shared,
         handler: @escaping @Sendable (Event) -> Void) {
        self.uri = uri
        self.cancellable = cancellable
        self.loop = loop
        self.handler = handler
    }

    /// Asks GIO for a monitor; `answer` hears (on the loop) whether there is one.
    func start(_ answer: @escaping @Sendable (Bool) -> Void) {
        loop.perform { [self] in
            guard !cancellable.isCancelled else { return answer(false) }
            let file = GVFSFiles.file(forURI: uri)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            var error: UnsafeMutablePointer<GError>?
            monitor = g_file_monitor_directory(file, GFileMonitorFlags(rawValue: 0), cancellable.pointer, &error)
            if let error { g_error_free(error) }
            guard let monitor else { return answer(false) }
            let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
            _ = dossier_g_signal_connect_data(
                monitor, "changed", unsafeBitCast(changed, to: GCallback.self), box,
                { data, _ in Unmanaged<HandlerBox>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
            answer(true)
        }
    }

    /// Stops following; the monitor is released on the loop.
    func stop() {
        loop.perform { [self] in
            if let monitor {
                g_file_monitor_cancel(monitor)
                g_object_unref(monitor)
            }
            monitor = nil
        }
    }
}

private final class HandlerBox {
    let handler: @Sendable (RemoteFolderMonitor.Event) -> Void
    init(_ handler: @escaping @Sendable (RemoteFolderMonitor.Event) -> Void) { self.handler = handler }
}

// GFileMonitor::changed (monitor, file, other file, event type).
private typealias Changed = @convention(c) (gpointer?, gpointer?, gpointer?, UInt32, gpointer?) -> Void
private let changed: Changed = { _, _, _, event, data in
    let handler = Unmanaged<HandlerBox>.fromOpaque(data!).takeUnretainedValue().handler
    switch GFileMonitorEvent(rawValue: event) {
    case G_FILE_MONITOR_EVENT_UNMOUNTED: handler(.unmounted)
    case G_FILE_MONITOR_EVENT_PRE_UNMOUNT, G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT: break
    default: handler(.changed)
    }
}
