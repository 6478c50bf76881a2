import CGLib
import Foundation
import GObjectSupport

/// One file read from its server into a temporary file of its cache entry, through GIO's
/// asynchronous reads on the I/O loop: never more bytes than the server announced, the
/// temporary file renamed to the copy's name only when it holds all of them, and removed when
/// anything fails. Runs once; `completion` is called once, on the I/O loop.
final class RemoteTransfer: @unchecked Sendable {
    // @unchecked: the mutable state is touched on the I/O loop only; `cancellable` is thread-safe.
    static let chunk = 256 << 10

    let info: RemoteFileInfo
    let cache: RemoteCache
    let ioPriority: Int32
    let cancellable = IOCancellable()
    /// Bytes received so far; called on the I/O loop after each read.
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
        RemoteIOLoop.shared.perform { self.begin() }
    }

    func cancel() { cancellable.cancel() }

    private func begin() {
        do throws(RemoteDownloadError) {
            (fd, partialPath) = try cache.makePartial(for: info)
        } catch {
            return finish(.failure(error))
        }
        file = g_file_new_for_uri(info.uri)
        g_file_read_async(file, ioPriority, cancellable.pointer, { source, result, data in
            let transfer = Unmanaged<RemoteTransfer>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let stream = g_file_read_finish(OpaquePointer(source), result, &error)
            if let error {
                transfer.fail(GLibError(consuming: error), opening: true)
            } else if let stream {
                transfer.stream = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self)
                transfer.readNext()
            } else {
                transfer.finish(.failure(.unreachable(name: transfer.info.displayName, reason: "")))
            }
        }, Unmanaged.passRetained(self).toOpaque())
    }

    private func readNext() {
        g_input_stream_read_async(stream, buffer, gsize(Self.chunk), ioPriority, cancellable.pointer, { source, result, data in
            let transfer = Unmanaged<RemoteTransfer>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let count = g_input_stream_read_finish(UnsafeMutableRawPointer(source!).assumingMemoryBound(to: GInputStream.self), result, &error)
            if let error {
                transfer.fail(GLibError(consuming: error), opening: false)
            } else {
                transfer.received(Int(count))
            }
        }, Unmanaged.passRetained(self).toOpaque())
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
        readNext()
    }

    private func finishReading() {
        guard close(fd) == 0 else {
            fd = -1
            return finish(.failure(.cache(reason: String(cString: strerror(errno)))))
        }
        fd = -1
        guard let partialPath else { return finish(.failure(.cache(reason: ""))) }
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
            g_input_stream_close_async(stream, G_PRIORITY_LOW, nil, nil, nil)
        }
        completion?(result)
        completion = nil
        progress = nil
    }
}
