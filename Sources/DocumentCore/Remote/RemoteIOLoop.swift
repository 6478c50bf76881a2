import CGLib
import Foundation
import GObjectSupport

/// The thread that runs remote files' GIO calls: a GLib main context of its own, so GIO's
/// asynchronous calls (and GVFS's D-Bus traffic behind them) complete there, in the app, in the
/// CLI and in tests alike, and never on the main thread, which only hears the results.
final class RemoteIOLoop: @unchecked Sendable {
    // @unchecked: `context` is set once before the thread starts and is thread-safe in GLib.
    static let shared = RemoteIOLoop()

    private let context: OpaquePointer

    private init() {
        context = g_main_context_new()
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            let loop = g_main_loop_new(context, 0)
            g_main_loop_run(loop)
        }
        thread.name = "dossier-remote-io"
        thread.start()
    }

    /// Runs `work` on the loop's thread, where GIO calls made in it call back.
    func perform(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(LoopWork(work)).toOpaque()
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
            Unmanaged<LoopWork>.fromOpaque(data!).takeUnretainedValue().work()
            return 0  // G_SOURCE_REMOVE
        }, box, { data in Unmanaged<LoopWork>.fromOpaque(data!).release() })
    }
}

private final class LoopWork {
    let work: @Sendable () -> Void
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }
}

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
public struct RemoteFileInfo: Sendable, Hashable {
    /// GIO's URI of the file (the key of the download cache and of the thumbnail cache).
    public let uri: String
    /// The file's name on the server, as GIO decodes it (not yet checked as a file name).
    public let name: String
    /// The name shown to people.
    public let displayName: String
    public let size: Int64
    /// The server's entity tag, when its backend has one (WebDAV, SMB, SFTP through GVFS).
    public let etag: String?
    /// Seconds since 1970, and the microseconds within it.
    public let modified: Int64
    public let modifiedMicroseconds: Int64
    public let isRegularFile: Bool

    /// What tells this version of the file from another: the ETag, else size and time.
    public var versionKey: String {
        if let etag, !etag.isEmpty { return "etag:" + etag }
        return "size:\(size),mtime:\(modified).\(modifiedMicroseconds)"
    }

    static let attributes = "standard::type,standard::name,standard::display-name,standard::size,"
        + "etag::value,time::modified,time::modified-usec"

    /// Asks the server about `url` (asynchronously, on the I/O loop).
    static func query(_ url: URL, priority: Int32, cancellable: IOCancellable) async throws(RemoteDownloadError) -> RemoteFileInfo {
        let name = RemoteFiles.displayName(of: url)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RemoteFileInfo, RemoteDownloadError>, Never>) in
            let request = InfoRequest(url: url, name: name, continuation: continuation)
            RemoteIOLoop.shared.perform {
                let file = RemoteFiles.file(for: request.url)
                request.file = file
                g_file_query_info_async(file, attributes, GFileQueryInfoFlags(rawValue: 0), priority, cancellable.pointer, { source, result, data in
                    let request = Unmanaged<InfoRequest>.fromOpaque(data!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    let info = g_file_query_info_finish(OpaquePointer(source), result, &error)
                    if let error {
                        let failure = GLibError(consuming: error)
                        request.finish(.failure(failure.isIOError(G_IO_ERROR_CANCELLED)
                            ? .cancelled(name: request.name) : .unreachable(name: request.name, reason: failure.message)))
                    } else if let info {
                        request.finish(.success(RemoteFileInfo(file: request.file!, info: info, fallbackName: request.name)))
                        unref(info)
                    } else {
                        request.finish(.failure(.unreachable(name: request.name, reason: "")))
                    }
                }, Unmanaged.passRetained(request).toOpaque())
            }
        }
        return try result.get()
    }

    /// `query`, waiting on the calling thread (never the main thread).
    public static func queryBlocking(_ url: URL, priority: Int32 = G_PRIORITY_DEFAULT) throws(RemoteDownloadError) -> RemoteFileInfo {
        try waitFor { () async throws(RemoteDownloadError) in
            try await query(url, priority: priority, cancellable: IOCancellable())
        }
    }

    /// Asks the server about `url`, asynchronously on the I/O loop; cancelling the calling
    /// task cancels the question.
    public static func query(_ url: URL, priority: Int32 = G_PRIORITY_DEFAULT) async throws(RemoteDownloadError) -> RemoteFileInfo {
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

/// One info query in flight; its GFile lives as long as the query.
private final class InfoRequest: @unchecked Sendable {
    // @unchecked: touched on the I/O loop only, after the continuation is set.
    let url: URL
    let name: String
    var file: OpaquePointer?
    private let continuation: CheckedContinuation<Result<RemoteFileInfo, RemoteDownloadError>, Never>

    init(url: URL, name: String, continuation: CheckedContinuation<Result<RemoteFileInfo, RemoteDownloadError>, Never>) {
        self.url = url
        self.name = name
        self.continuation = continuation
    }

    func finish(_ result: Result<RemoteFileInfo, RemoteDownloadError>) { continuation.resume(returning: result) }

    deinit { unref(file) }
}
