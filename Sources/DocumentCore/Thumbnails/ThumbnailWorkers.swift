import CGLib
import CImaging
import DecoderWire
import Foundation
import GObjectSupport

/// The built-in thumbnailers (images, PDF, text, fonts, office documents, audio) run in decoder
/// workers, never in the process that asked: the file goes to a worker as an open descriptor,
/// and the thumbnail's pixels come back in a sealed memfd. A worker per core, kept between thumbnails, at nice 10 as the
/// generator's threads: a browser's frames go first (`DecoderWorker.Limits.niceness`).
package enum ThumbnailWorkers {
    package static let pool = DecoderWorkerPool(count: max(2, ProcessInfo.processInfo.activeProcessorCount), limits: limits)

    /// The default limits, at a low priority.
    package static var limits: DecoderWorker.Limits {
        var limits = DecoderWorker.Limits()
        limits.niceness = 10
        return limits
    }

    /// Makes `source`'s picture at `edge` pixels with the thumbnailer `kind` in a worker.
    static func thumbnail(of source: inout ThumbnailSource, kind: String, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let fd = open(source.path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw .unreadable(name: source.name, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        guard let thumbnailerKind = ThumbnailOptions.Kind(rawValue: kind) else {
            throw .decodingFailed(name: source.name, reason: "no thumbnailer \(kind)")
        }
        let options = ThumbnailOptions(kind: thumbnailerKind, edge: edge, name: source.name, type: source.type.identifier)
        let output = try perform(input: fd, options: options, name: source.name, thumbnailer: kind)
        if let width = output.values["imageWidth"].flatMap(Int.init), let height = output.values["imageHeight"].flatMap(Int.init) {
            source.dimensions = (width, height)
        }
        guard let image = pixbuf(output) else {
            throw .decodingFailed(name: source.name, reason: tr("the image is empty"))
        }
        return image
    }

    /// The PNG the external `thumbnailer` wrote at `path` for `source`, decoded in a worker (its
    /// output is as untrusted as its input) and fitted to `edge` pixels.
    static func decodeOutput(atPath path: String, of source: ThumbnailSource, thumbnailer: String, edge: Int) throws(ThumbnailError) -> Pixbuf {
        let fd: Int32
        do { fd = try WorkerInput.open(path) } catch {
            throw .thumbnailerFailed(name: source.name, thumbnailer: thumbnailer, reason: tr("it produced no image"))
        }
        defer { close(fd) }
        let options = ThumbnailOptions(kind: .external, edge: edge, name: source.name, thumbnailer: thumbnailer)
        guard let image = pixbuf(try perform(input: fd, options: options, name: source.name, thumbnailer: thumbnailer)) else {
            throw .thumbnailerFailed(name: source.name, thumbnailer: thumbnailer, reason: tr("its image could not be read"))
        }
        return image
    }

    /// One thumbnail request, the worker's failures as `ThumbnailError`s.
    private static func perform(input: Int32, options: ThumbnailOptions, name: String,
                                thumbnailer: String) throws(ThumbnailError) -> DecoderWorker.Output {
        try pool.perform(.thumbnail(options), input: input) { failure -> ThumbnailError in
            switch failure {
            case .refused(let message): .decodingFailed(name: name, reason: message)
            case .stopped(let how): .decodingFailed(name: name, reason: tr("the decoder stopped: %s", how))
            case .timedOut(let seconds): .timedOut(name: name, thumbnailer: thumbnailer, seconds: seconds)
            case .unavailable(let why): .unreadable(name: name, reason: why)
            case .cancelled: .cancelled(name: name)
            }
        }
    }

    /// The worker's pixels as a pixbuf (copied: a thumbnail is small), once their layout is checked.
    private static func pixbuf(_ output: DecoderWorker.Output) -> Pixbuf? {
        guard let blob = output.blob,
              let width = output.values["width"].flatMap(Int.init), let height = output.values["height"].flatMap(Int.init),
              let stride = output.values["stride"].flatMap(Int.init), let channels = output.values["channels"].flatMap(Int.init),
              width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, channels == 3 || channels == 4,
              stride >= width * channels, stride <= 1 << 20,  // bounded before it is multiplied
              blob.count >= stride * (height - 1) + width * channels
        else { return nil }
        let bytes = blob.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        return gdk_pixbuf_new_from_bytes(bytes, GDK_COLORSPACE_RGB, channels == 4 ? 1 : 0, 8,
                                         Int32(width), Int32(height), Int32(stride)).map(Pixbuf.init(adopting:))
    }
}

/// A few decoder workers shared by callers on many threads: each request takes a free worker,
/// or waits for one. A worker starts at its first request, and the one freed last is taken
/// first: the others start only when requests overlap.
package final class DecoderWorkerPool: Sendable {
    package let limits: DecoderWorker.Limits
    private let workers: [DecoderWorker]
    private let free: Locked<[Int]>
    private let available: DispatchSemaphore

    /// `count` workers within `limits`; `testFormats` starts the test decoder, which also misbehaves
    /// on request.
    package init(count: Int, limits: DecoderWorker.Limits = DecoderWorker.Limits(), testFormats: Bool = false) {
        self.limits = limits
        workers = (0..<count).map { _ in DecoderWorker(limits: limits, testFormats: testFormats) }
        free = Locked(Array(0..<count))
        available = DispatchSemaphore(value: count)
    }

    /// Starts the worker the next request takes, if it is not running (blocks while its process
    /// is made, not while it loads).
    package func prestart() {
        guard let index = free.withLock({ $0.last }) else { return }
        workers[index].prestart()
    }

    /// Starts every free worker that is not running (each blocks while its process is made).
    package func prestartAll() {
        for index in free.withLock({ $0 }) { workers[index].prestart() }
    }

    /// Whether each worker's process runs now (for tests).
    package var running: [Bool] { workers.map { $0.processID != nil } }

    /// Sends `request` to the first worker free; a request whose `cancellation` is set by then
    /// (its page went while it waited behind others) is dropped unsent, with `.cancelled`.
    package func perform(_ request: DecoderRequest, input: FileDescriptor,
                         cancellation: Cancellation? = nil) throws(DecoderWorker.Failure) -> DecoderWorker.Output {
        if cancellation?.isCancelled == true { throw .cancelled }
        available.wait()
        let index = free.withLock { $0.removeLast() }
        defer {
            free.withLock { $0.append(index) }
            available.signal()
        }
        if cancellation?.isCancelled == true { throw .cancelled }
        return try workers[index].perform(request, input: input)
    }

    /// Sends `request` to each worker that is running, one after the other (waiting for one
    /// that is busy), and starts none: for a request that lets go of what workers keep between
    /// requests (a PDF document left open). Failures are ignored.
    package func performOnRunning(_ request: DecoderRequest, input: FileDescriptor) {
        for worker in workers { _ = try? worker.performIfRunning(request, input: input) }
    }

    /// The running workers' processes (bubblewrap's, under bubblewrap): for the tests that end a
    /// worker from outside. Waits for requests in progress.
    package var processIDs: [pid_t] { workers.compactMap(\.processID) }
}
