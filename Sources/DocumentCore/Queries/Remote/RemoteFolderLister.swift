import CGLib
import Foundation
import GObjectSupport

/// Lists one remote folder through GIO, in batches, on a worker thread:
/// `g_file_enumerate_children`, then `g_file_enumerator_next_files` until the folder is
/// exhausted, each batch handed on as it comes, so the first items show long before the last
/// arrive. The first batches are small (a first screenful at once), later ones larger. The
/// GCancellable ends a call waiting on the server at once.
///
/// Synchronous calls on a thread of their own, not GIO's asynchronous ones: GVFS's client
/// finishes an asynchronous call on a mount it already knows through an idle source on the
/// global default main context (gdaemonvfs.c, its mount-info cache hit), which only a GUI's
/// main loop runs. In the CLI and the tests every listing after the first waited forever, and
/// in the app each would wait for the main thread to be free. GVFS refuses asynchronous
/// `next_files` on an enumerator opened synchronously, so the whole listing is synchronous.
///
/// What the server sends is not trusted: names that cannot be a file's name (empty, ".",
/// "..", with a "/") are skipped, sizes below zero read as 0, and a listing larger than
/// `limit` ends on an error rather than filling the memory.
final class RemoteFolderLister: Sendable {
    enum Event: Sendable {
        /// Entries read, in the server's order.
        case items([QueryItem])
        /// The folder is exhausted.
        case finished
        /// The folder could not be listed, or the listing broke off.
        case failed(DirectoryQueryError)
    }

    /// The GIO attributes a listing asks for: what `QueryItem` carries for a remote item.
    static let attributes = [
        "standard::name", "standard::display-name", "standard::type", "standard::size", "standard::is-hidden",
        "standard::is-symlink", "standard::icon", "time::modified", "time::modified-usec", "thumbnail::path", "etag::value",
    ].joined(separator: ",")

    /// Entries in one folder past which the listing stops with an error.
    static let limit = 1_000_000

    let folder: QueryFolder
    let cancellable: ListingCancellable
    private let uri: String
    private let handler: @Sendable (Event) -> Void

    /// A lister of `folder`, found at `uri`, that reports to `handler` (on its worker thread)
    /// until it is cancelled; nothing happens until `start`.
    init(folder: QueryFolder, uri: String, cancellable: ListingCancellable, handler: @escaping @Sendable (Event) -> Void) {
        self.folder = folder
        self.uri = uri
        self.cancellable = cancellable
        self.handler = handler
    }

    func start() {
        DispatchQueue.global(qos: .userInitiated).async { [self] in list() }
    }

    private func list() {
        guard !cancellable.isCancelled else { return }
        let file = GVFSFiles.file(forURI: uri)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let enumerator = g_file_enumerate_children(file, Self.attributes, GFileQueryInfoFlags(rawValue: 0), cancellable.pointer, &error) else {
            return fail(error.map { GLibError(consuming: $0) }, whileListing: false)
        }
        defer {
            g_file_enumerator_close(enumerator, nil, nil)
            g_object_unref(enumerator)
        }
        let namer = TypeNamer()
        var batchSize = 32
        var count = 0
        var exhausted = false
        while !exhausted && !cancellable.isCancelled {
            var items: [QueryItem] = []
            while items.count < batchSize {
                guard let info = g_file_enumerator_next_file(enumerator, cancellable.pointer, &error) else {
                    if let error { return fail(GLibError(consuming: error), whileListing: true) }
                    exhausted = true
                    break
                }
                defer { g_object_unref(UnsafeMutableRawPointer(info)) }
                if let item = item(from: info, namer: namer) { items.append(item) }
            }
            count += items.count
            guard count <= Self.limit else {
                let reason = tr("the server listed more than %s entries", "\(Self.limit)")
                return handler(.failed(.failed(name: folder.displayName, reason: reason)))
            }
            guard !cancellable.isCancelled else { return }
            if !items.isEmpty { handler(.items(items)) }
            batchSize = min(batchSize * 2, 1024)
        }
        if exhausted && !cancellable.isCancelled { handler(.finished) }
    }

    private func fail(_ error: GLibError?, whileListing: Bool) {
        guard let error, !error.isIOError(G_IO_ERROR_CANCELLED), !cancellable.isCancelled else { return }
        handler(.failed(DirectoryQueryError(remote: error, folder: folder, whileListing: whileListing)))
    }

    /// The item a GFileInfo describes, or nil for an entry no file could have.
    private func item(from info: OpaquePointer, namer: TypeNamer) -> QueryItem? {
        guard let rawName = g_file_info_get_name(info) else { return nil }
        let name = String(cString: rawName)
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else { return nil }
        let fileType = g_file_info_get_file_type(info)
        // A share or a mountable entry (smb://host/ lists its shares so) opens like a folder.
        let isDirectory = fileType == G_FILE_TYPE_DIRECTORY || fileType == G_FILE_TYPE_MOUNTABLE
            || fileType == G_FILE_TYPE_SHORTCUT
        let isSymlink = g_file_info_get_is_symlink(info) != 0
        let type: DocumentType
        switch fileType {
        case G_FILE_TYPE_REGULAR: type = namer.type(forName: name)
        case _ where isDirectory: type = .folder
        case G_FILE_TYPE_SYMBOLIC_LINK: type = .symbolicLink
        default: type = .data
        }
        let size = fileType == G_FILE_TYPE_REGULAR ? max(0, Int64(g_file_info_get_size(info))) : 0
        let seconds = g_file_info_get_attribute_uint64(info, G_FILE_ATTRIBUTE_TIME_MODIFIED)
        let microseconds = g_file_info_get_attribute_uint32(info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC)
        let displayName = borrowString(g_file_info_get_display_name(info))
        let icon = g_file_info_get_icon(info).flatMap { takeString(g_icon_to_string($0)) }
        let details = RemoteItemDetails(
            displayName: displayName == name ? nil : displayName, icon: icon,
            thumbnailPath: borrowString(g_file_info_get_attribute_byte_string(info, G_FILE_ATTRIBUTE_THUMBNAIL_PATH)),
            etag: borrowString(g_file_info_get_etag(info)))
        return QueryItem(
            name: name, parent: folder, isDirectory: isDirectory, isSymlink: isSymlink,
            isHidden: name.hasPrefix(".") || g_file_info_get_is_hidden(info) != 0, size: size,
            modified: Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(microseconds) / 1_000_000),
            type: type, remote: details)
    }
}

extension DirectoryQueryError {
    /// What a GIO error from listing the remote `folder` means for the person: not mounted,
    /// unreachable, a connection lost while listing (`whileListing`), or the local errors'
    /// equivalents.
    init(remote error: GLibError, folder: QueryFolder, whileListing: Bool) {
        let name = folder.displayName
        guard error.domain == String(cString: g_quark_to_string(g_io_error_quark())) else {
            self = whileListing ? .connectionLost(name: name, reason: error.message) : .failed(name: name, reason: error.message)
            return
        }
        switch GIOErrorEnum(rawValue: UInt32(error.code)) {
        case G_IO_ERROR_NOT_MOUNTED: self = .notMounted(location: folder.path)
        case G_IO_ERROR_NOT_FOUND: self = .notFound(name: name)
        case G_IO_ERROR_NOT_DIRECTORY: self = .notAFolder(name: name)
        case G_IO_ERROR_PERMISSION_DENIED: self = .permissionDenied(name: name)
        case G_IO_ERROR_HOST_NOT_FOUND, G_IO_ERROR_HOST_UNREACHABLE, G_IO_ERROR_NETWORK_UNREACHABLE,
            G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_TIMED_OUT:
            self = .unreachable(name: name, reason: error.message)
        case G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_CLOSED:
            self = .connectionLost(name: name, reason: error.message)
        case G_IO_ERROR_FAILED:
            // What GVFS's backends say when their connection ends under them ("The connection
            // is closed (the underlying SSH process exited)"), in their words.
            self = .connectionLost(name: name, reason: error.message)
        default:
            self = whileListing ? .connectionLost(name: name, reason: error.message) : .failed(name: name, reason: error.message)
        }
    }
}
