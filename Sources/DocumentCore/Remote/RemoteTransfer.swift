import CGLib
import Foundation
import GObjectSupport

/// One file read from its server into a temporary file of its cache entry, on a thread of its
/// own (never the main thread), cancellable: never more bytes than the server announced, the
/// temporary file renamed to the copy's name only when it holds all of them, and removed when
/// anything fails. Runs once; `completion` is called once, on that thread.
final class RemoteTransfer: @unchecked Sendable {
    // @unchecked: the mutable state is touched on the transfer's thread only; `cancellable` is thread-safe.
    static let chunk = 256 << 10

    let info: RemoteFileInfo
    let cache: RemoteCache
    let ioPriority: Int32
    let cancellable = IOCancellable()
    /// Bytes received so far; called on the transfer's thread after each read.
    var progress: (@Sendable (Int64) -> Void)?
    var completion: (@Sendable (Result<Void, RemoteDownloadError>) -> Void)?

    private var fd: Int32 = -1
    private var partialPath: String?
    private var file: OpaquePointer?
    private var stream: UnsafeMutablePointer<GInputStream>?
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: RemoteTransfer.chunk, alignment: 16)
    private var received: Int64 = 0
    private var finished = false

    init(info: RemoteFileInfo, cache: RemoteCache, ioPriority: Int32) {
        self.info = info
        self.cache = cache
        self.ioPriority = ioPriority
    }

    deinit {
        buffer.deallocate()
        if let stream { g_object_unref(stream) }
        unref(file)
    }

    func start() {
        let thread = Thread { [self] in
            // Below the UI, as the thumbnailers: a download for a thumbnail never takes the CPU
            // from the main thread (Linux keeps a nice value per thread).
            if ioPriority > G_PRIORITY_DEFAULT { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
            run()
        }
        thread.name = "dossier-download"
        thread.start()
    }

    func cancel() { cancellable.cancel() }

    /// Reads the file on this thread of its own, through GIO's blocking calls with the
    /// transfer's cancellable (a cancel interrupts a read that waits for the server).
    /// GIO's asynchronous reads of GVFS daemon files, on a context of another thread, never
    /// delivered their first chunk here (GLib 2.74, gvfs 1.50); the blocking calls are the
    /// ones GVFS serves on the calling thread's own connection.
    private func run() {
        do throws(RemoteDownloadError) {
            (fd, partialPath) = try cache.makePartial(for: info)
        } catch {
            return finish(.failure(error))
        }
        file = GVFSFiles.file(forURI: info.uri)
        var error: UnsafeMutablePointer<GError>?
        guard let opened = g_file_read(file, cancellable.pointer, &error) else {
            return error.map { fail(GLibError(consuming: $0), opening: true) }
                ?? finish(.failure(.unreachable(name: info.displayName, reason: "")))
        }
        stream = UnsafeMutableRawPointer(opened).assumingMemoryBound(to: GInputStream.self)
        while !finished {
            let count = g_input_stream_read(stream, buffer, gsize(Self.chunk), cancellable.pointer, &error)
            if let failure = error {
                error = nil
                return fail(GLibError(consuming: failure), opening: false)
            }
            received(Int(count))
        }
    }

    private func received(_ count: Int) {
        guard count > 0 else { return finishReading() }
        // A server that sends more than it announced is stopped at once: nothing past the
        // announced size is written.
        if info.size >= 0, received + Int64(count) > info.size {
            return finish(.failure(.sizeMismatch(name: info.displayName, expected: info.size, received: received + Int64(count))))
        }
        if info.size < 0, received + Int64(count) > cache.limit {
            return finish(.failure(.tooLarge(name: info.displayName, size: received + Int64(count), limit: cache.limit)))
        }
        var written = 0
        while written < count {
            let result = write(fd, buffer + written, count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return finish(.failure(.cache(reason: String(cString: strerror(errno)))))
            }
            written += result
        }
        received += Int64(count)
        progress?(received)
        if cancellable.isCancelled { return finish(.failure(.cancelled(name: info.displayName))) }
    }

    private func finishReading() {
        guard close(fd) == 0 else {
            fd = -1
            return finish(.failure(.cache(reason: String(cString: strerror(errno)))))
        }
        fd = -1
        guard let partialPath else { return finish(.failure(.cache(reason: ""))) }
        // Cancelled while the last chunk came: nothing is kept (the waiters were told).
        if cancellable.isCancelled { return finish(.failure(.cancelled(name: info.displayName))) }
        if info.size >= 0, received != info.size {
            return finish(.failure(.sizeMismatch(name: info.displayName, expected: info.size, received: received)))
        }
        do throws(RemoteDownloadError) {
            try cache.complete(partial: partialPath, received: received, for: info)
            self.partialPath = nil
            finish(.success(()))
        } catch {
            finish(.failure(error))
        }
    }

    private func fail(_ error: GLibError, opening: Bool) {
        if error.isIOError(G_IO_ERROR_CANCELLED) { return finish(.failure(.cancelled(name: info.displayName))) }
        if error.isIOError(G_IO_ERROR_IS_DIRECTORY) { return finish(.failure(.notAFile(name: info.displayName))) }
        finish(.failure(opening ? .unreachable(name: info.displayName, reason: error.message)
                                : .interrupted(name: info.displayName, reason: error.message)))
    }

    /// Ends the transfer: a failure leaves no temporary file (and no empty entry folder).
    private func finish(_ result: Result<Void, RemoteDownloadError>) {
        guard !finished else { return }
        finished = true
        if fd >= 0 { close(fd) }
        fd = -1
        if let partialPath {
            unlink(partialPath)
            rmdir((partialPath as NSString).deletingLastPathComponent)
        }
        if let stream {
            // Not waiting for a server that is gone: a cancelled close returns at once.
            cancellable.cancel()
            g_input_stream_close(stream, cancellable.pointer, nil)
        }
        completion?(result)
        completion = nil
        progress = nil
    }
}
