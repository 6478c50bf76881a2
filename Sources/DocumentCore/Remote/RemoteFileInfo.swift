import CGLib
import Foundation
import GObjectSupport

/// A `GCancellable` owned from Swift; `cancel()` may be called from any thread.
final class IOCancellable: @unchecked Sendable {
    // @unchecked: GCancellable is thread-safe.
    let pointer: UnsafeMutablePointer<GCancellable>

    init() { pointer = g_cancellable_new() }

    func cancel() { g_cancellable_cancel(pointer) }

    var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }

    deinit { g_object_unref(pointer) }
}

/// What the server says about a remote file: enough to name its download and to tell
/// whether a copy in the cache is still this version.
package struct RemoteFileInfo: Sendable, Hashable, Codable {
    /// GIO's URI of the file (the key of the download cache and of the thumbnail cache).
    package let uri: String
    /// The file's name on the server, as GIO decodes it (not yet checked as a file name).
    package let name: String
    /// The name shown to people.
    package let displayName: String
    /// The size in bytes the server reports.
    package let size: Int64
    /// The server's entity tag, when its backend has one (WebDAV, SMB, SFTP through GVFS).
    package let etag: String?
    /// Seconds since 1970, and the microseconds within it.
    package let modified: Int64
    /// The microseconds past `modified`.
    package let modifiedMicroseconds: Int64
    /// Whether it is a regular file (not a folder, a link or a special file).
    package let isRegularFile: Bool

    /// What tells this version of the file from another: the ETag, else size and time.
    package var versionKey: String {
        if let etag, !etag.isEmpty { return "etag:" + etag }
        return "size:\(size),mtime:\(modified).\(modifiedMicroseconds)"
    }

    static let attributes = "standard::type,standard::name,standard::display-name,standard::size,"
        + "etag::value,time::modified,time::modified-usec"

    /// Asks the server about `url` on a thread of its own (the caller's task waits, not a
    /// thread of Swift's pool), with `cancellable`.
    ///
    /// Blocking GIO on a thread rather than `g_file_query_info_async`: GVFS's client finishes
    /// an async call on a mount it knows through an idle source on the global default main
    /// context, which only a GUI's main loop runs (the CLI and the tests would wait forever),
    /// and in the app the main thread would have to be free for it.
    static func query(_ url: URL, priority: Int32, cancellable: IOCancellable) async throws(RemoteDownloadError) -> RemoteFileInfo {
        let name = RemoteFiles.displayName(of: url)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RemoteFileInfo, RemoteDownloadError>, Never>) in
            let thread = Thread {
                if priority > G_PRIORITY_DEFAULT { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
                switch asked(url, cancellable: cancellable) {
                case .success(let info): continuation.resume(returning: .success(info))
                case .failure(let failure):
                    continuation.resume(returning: .failure(failure.isIOError(G_IO_ERROR_CANCELLED)
                        ? .cancelled(name: name) : .unreachable(name: name, reason: failure.message)))
                }
            }
            thread.name = "dossier-remote-info"
            thread.start()
        }
        return try result.get()
    }

    /// Asks the server about `url` with GIO's blocking call, on the calling thread (one that
    /// may wait on the network, never the main thread).
    static func asked(_ url: URL, cancellable: IOCancellable?) -> Result<RemoteFileInfo, GLibError> {
        let file = RemoteFiles.file(for: url)
        defer { unref(file) }
        var error: UnsafeMutablePointer<GError>?
        let info = g_file_query_info(file, attributes, GFileQueryInfoFlags(rawValue: 0), cancellable?.pointer, &error)
        if let error { return .failure(GLibError(consuming: error)) }
        guard let info else { return .failure(GLibError(domain: "dossier", code: 0, message: "")) }
        defer { unref(info) }
        return .success(RemoteFileInfo(file: file, info: info, fallbackName: RemoteFiles.displayName(of: url)))
    }

    /// `query`, waiting on the calling thread (never the main thread).
    package static func queryBlocking(_ url: URL, priority: Int32 = G_PRIORITY_DEFAULT) throws(RemoteDownloadError) -> RemoteFileInfo {
        try waitFor { () async throws(RemoteDownloadError) in
            try await query(url, priority: priority, cancellable: IOCancellable())
        }
    }

    /// Asks the server about `url`, asynchronously on the I/O loop; cancelling the calling
    /// task cancels the question.
    package static func query(_ url: URL, priority: Int32 = G_PRIORITY_DEFAULT) async throws(RemoteDownloadError) -> RemoteFileInfo {
        let cancellable = IOCancellable()
        let result = await withTaskCancellationHandler { () async -> Result<RemoteFileInfo, RemoteDownloadError> in
            do throws(RemoteDownloadError) {
                return .success(try await query(url, priority: priority, cancellable: cancellable))
            } catch {
                return .failure(error)
            }
        } onCancel: {
            cancellable.cancel()
        }
        return try result.get()
    }

    private init(file: OpaquePointer, info: OpaquePointer, fallbackName: String) {
        uri = takeString(g_file_get_uri(file)) ?? ""
        name = borrowString(g_file_info_get_name(info)) ?? takeString(g_file_get_basename(file)) ?? fallbackName
        displayName = borrowString(g_file_info_get_display_name(info)) ?? name
        size = g_file_info_has_attribute(info, "standard::size") != 0 ? Int64(g_file_info_get_size(info)) : -1
        etag = borrowString(g_file_info_get_etag(info))
        modified = Int64(g_file_info_get_attribute_uint64(info, "time::modified"))
        modifiedMicroseconds = Int64(g_file_info_get_attribute_uint32(info, "time::modified-usec"))
        isRegularFile = g_file_info_get_file_type(info) == G_FILE_TYPE_REGULAR
    }

    /// For tests: a version with the given keys.
    init(uri: String, name: String, size: Int64, etag: String?, modified: Int64) {
        self.uri = uri
        self.name = name
        displayName = name
        self.size = size
        self.etag = etag
        self.modified = modified
        modifiedMicroseconds = 0
        isRegularFile = true
    }
}

