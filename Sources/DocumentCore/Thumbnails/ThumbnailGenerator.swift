import CGLib
import CImaging
import Foundation
import GObjectSupport

/// Thumbnails for files, shared with the desktop through the freedesktop cache: the
/// QLThumbnailGenerator of Linux.
///
/// A request names a file, a size in logical pixels and a scale, and the representations
/// wanted. The icon comes at once (from the name's type); a quick low-quality picture next
/// where one exists (a smaller size already cached, or the EXIF thumbnail of a JPEG), ahead of
/// the full thumbnails of other requests (`quickPictureLead`); the full thumbnail last, from
/// the cache when valid, else made by a built-in or external thumbnailer and cached. Work runs on a bounded pool of threads (one per core by default), highest
/// priority first; queued requests hold no pixels, so memory stays bounded however many wait.
public final class ThumbnailGenerator: @unchecked Sendable {
    // @unchecked: the queue of jobs is guarded by `condition`; the rest is immutable.

    /// Which representations a request wants delivered.
    public struct Representations: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The type's icon names, delivered at once.
        public static let icon = Representations(rawValue: 1)
        /// A quick smaller picture, where one exists, before the thumbnail.
        public static let lowQuality = Representations(rawValue: 2)
        /// The full thumbnail, from the cache or made.
        public static let thumbnail = Representations(rawValue: 4)
        /// The icon, the quick picture and the thumbnail.
        public static let all: Representations = [.icon, .lowQuality, .thumbnail]
    }

    /// What a request delivers, in this order.
    public enum Representation: Sendable {
        /// Icon names, specific to generic (see `DocumentType.iconNames`).
        case icon([String])
        /// A quick, smaller picture (a smaller cached thumbnail, or a photo's EXIF thumbnail),
        /// decoded in a worker at the request's size in pixels.
        case lowQuality(ThumbnailPicture)
        /// The thumbnail, as a PNG file in the cache.
        case thumbnail(Thumbnail)
    }

    /// A full thumbnail: a PNG file, where it came from, and what made it.
    public struct Thumbnail: Sendable, Equatable {
        /// Whether the thumbnail was valid in the cache or made for this request.
        public enum Origin: String, Sendable { /** Found valid in the cache, or made for the request. */ case cache = "cached", generated }
        /// The PNG file (in the cache, or the output folder given to `thumbnail(of:…)`).
        public let url: URL
        /// The cache size it was made at.
        public let size: ThumbnailSize
        /// Whether it came from the cache or was made for this request.
        public let origin: Origin
        /// Which thumbnailer made it: "image", "pdf", "text", or an external one's name.
        public let thumbnailer: String
        /// How long finding or making it took.
        package let duration: Duration
    }

    /// What to thumbnail, at which size, and what to deliver.
    public struct Request: Sendable {
        /// The file: a local path URL, or a remote URI (downloaded first, up to `remoteSizeLimit`).
        public var url: URL
        /// Logical pixels of the square the thumbnail should fill.
        public var size: Int
        /// Device pixels per logical pixel: the thumbnail is made for `size` × `scale` pixels.
        public var scale: Int
        /// The representations to deliver.
        public var representations: Representations
        /// Higher first; visible items should get a higher priority than the rest.
        public var priority: Int

        /// Makes a request for the file at `url`, in a square of `size` logical pixels at `scale`.
        public init(url: URL, size: Int, scale: Int = 1, representations: Representations = .all, priority: Int = 0) {
            self.url = url
            self.size = size
            self.scale = scale
            self.representations = representations
            self.priority = priority
        }
    }

    /// A queued or running request: cancel it, or move it up or down the queue.
    public final class Handle: @unchecked Sendable {
        fileprivate weak var generator: ThumbnailGenerator?
        fileprivate let id: Int
        fileprivate init(generator: ThumbnailGenerator, id: Int) {
            self.generator = generator
            self.id = id
        }

        /// Stops the request: nothing more is delivered for it.
        public func cancel() { generator?.cancel(id) }

        /// Changes the request's priority while it waits (visible items first when scrolling).
        public func setPriority(_ priority: Int) { generator?.setPriority(id, priority) }
    }

    /// The shared thumbnail cache thumbnails are read from and written to.
    public let cache: ThumbnailCache
    /// Where remote files are downloaded to be thumbnailed.
    package let downloads: RemoteDownloads
    let maker: ThumbnailMaker
    private let workers: Int

    private struct Job {
        let id: Int
        var request: Request
        let handler: @Sendable (Result<Representation, ThumbnailError>) -> Void
        /// The quick picture was tried: what is left is the thumbnail.
        var quickPictureTried = false
    }

    /// How far below its priority a request's thumbnail waits once its quick picture is
    /// shown: the quick pictures of every request up to this much less urgent come first, and
    /// the thumbnails of requests that had none to show (still an icon), which wait half as far. A screenful of cells
    /// then shows pictures in the time of a few EXIF thumbnails rather than after one full
    /// decode per cell, and the full thumbnails follow. Once its quick picture is shown, a
    /// request's thumbnail is made and cached even if the request is then cancelled (a cell
    /// scrolled away before its upgrade): nothing more is delivered for it, and the folder's
    /// cache still fills as the user looks through it.
    package static let quickPictureLead = 1 << 39

    private let condition = NSCondition()
    private var pending = ThumbnailJobQueue<Job>()
    private var running: Set<Int> = []
    private var cancelled: Set<Int> = []
    /// Requests whose quick picture was delivered and whose thumbnail waits or is being made:
    /// cancelling one stops its deliveries, not the thumbnail (see `quickPictureLead`).
    private var finishing: Set<Int> = []
    private var nextID = 0
    private var started = 0
    /// Background requests (`backgroundPriority` and below) being made: at most one at a time,
    /// so the other threads stay free for the cells and the machine for the UI.
    private var runningBackground = 0
    /// Until when no background request starts (`holdBackground(for:)`).
    private var backgroundHeldUntil = Date.distantPast

    /// Makes a generator over the shared cache, with its own pool of worker threads.
    /// - Parameters:
    ///   - cache: where thumbnails are looked up and stored (the desktop's shared cache by default).
    ///   - workers: threads that make thumbnails at once (default: one per core).
    ///   - timeout: how long an external thumbnailer may run.
    ///   - thumbnailerFolders: where `.thumbnailer` files are looked for (default: the
    ///     `thumbnailers` folder of `$XDG_DATA_HOME` and of each of `$XDG_DATA_DIRS`).
    public convenience init(cache: ThumbnailCache = ThumbnailCache(), workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                            timeout: Duration = .seconds(10), thumbnailerFolders: [URL]? = nil) {
        self.init(cache: cache, workers: workers, timeout: timeout, thumbnailerFolders: thumbnailerFolders, downloads: .shared)
    }

    /// A generator as `init(cache:workers:timeout:thumbnailerFolders:)` makes one, with
    /// `downloads` bringing remote files into the cache to be thumbnailed.
    package init(cache: ThumbnailCache, workers: Int, timeout: Duration, thumbnailerFolders: [URL]?,
                 downloads: RemoteDownloads) {
        self.cache = cache
        self.downloads = downloads
        self.workers = max(1, workers)
        maker = ThumbnailMaker(cache: cache, timeout: timeout, thumbnailerFolders: thumbnailerFolders)
    }

    /// Starts the thumbnail workers in the background if they are not running, so that the
    /// first thumbnails do not wait for each one to load its libraries and lock itself down.
    /// Returns at once; a browser calls it once it has listed a folder with files, before its
    /// cells ask.
    package func prestartWorkers() {
        DispatchQueue.global(qos: .utility).async { ThumbnailWorkers.pool.prestartAll() }
    }

    /// Queues a request. `handler` is called on a generator thread for each representation
    /// (or once with the error); the icon, if asked for, before this returns.
    @discardableResult
    public func generate(_ request: Request, handler: @escaping @Sendable (Result<Representation, ThumbnailError>) -> Void) -> Handle {
        if request.representations.contains(.icon) {
            handler(.success(.icon(DocumentType(fileName: request.url.lastPathComponent).iconNames)))
        }
        condition.lock()
        nextID += 1
        let id = nextID
        if request.representations.contains(.lowQuality) || request.representations.contains(.thumbnail) {
            pending.insert(Job(id: id, request: request, handler: handler), id: id, priority: request.priority)
            startWorkerIfNeeded()
            condition.signal()
        }
        condition.unlock()
        return Handle(generator: self, id: id)
    }

    /// Makes (or finds) one thumbnail on the calling thread. With `outputFolder`, the PNG is
    /// written there, named after the file ("photo.jpg.png", shortened to fit NAME_MAX), instead
    /// of into the cache; the result's `url` is where it went.
    public func thumbnail(of url: URL, size: ThumbnailSize, outputFolder: URL? = nil) throws(ThumbnailError) -> Thumbnail {
        let clock = ContinuousClock()
        let start = clock.now
        if RemoteFiles.isRemote(url) { return try remoteThumbnail(of: url, size: size, outputFolder: outputFolder) }
        var source = try ThumbnailSource(url: url)
        if cache.contains(source.rawPath.description) { throw .insideCache(name: source.name) }
        if outputFolder == nil, let cached = cache.lookup(source.uri, modified: source.modified, size: size) {
            return Thumbnail(url: cached, size: size, origin: .cache, thumbnailer: "cache", duration: clock.now - start)
        }
        if outputFolder == nil, cache.hasFailed(source.uri, modified: source.modified) {
            throw .failedBefore(name: source.name)
        }
        do {
            let (image, thumbnailer) = try readCoordinated(&source) { (source: inout ThumbnailSource) throws(ThumbnailError) in
                try maker.make(&source, edge: size.pixels)
            }
            let location: URL
            if let outputFolder {
                location = outputFolder.appendingPathComponent(FileName.thumbnailName(of: source.name))
                try image.savePNG(to: location, text: [("Thumb::URI", source.uri), ("Thumb::MTime", String(source.modified))])
            } else {
                location = try cache.store(image, for: source, size: size)
            }
            return Thumbnail(url: location, size: size, origin: .generated, thumbnailer: thumbnailer, duration: clock.now - start)
        } catch {
            if outputFolder == nil && ThumbnailMaker.isLasting(error) {
                cache.recordFailure(for: source)
            }
            throw error
        }
    }

    /// The largest remote file downloaded only for its thumbnail (Nautilus, by default, makes
    /// none of remote files at all; a folder of videos on a NAS should not be downloaded
    /// whole to fill a grid).
    package static let remoteSizeLimit: Int64 = 64 << 20

    /// The thumbnail of a remote file, under its URI and the server's modification time: from
    /// the cache when valid, else made from a copy downloaded at low priority (a preview of
    /// the same file goes first, and shares the download).
    private func remoteThumbnail(of url: URL, size: ThumbnailSize, outputFolder: URL?) throws(ThumbnailError) -> Thumbnail {
        let clock = ContinuousClock()
        let start = clock.now
        let name = RemoteFiles.displayName(of: url)
        let info: RemoteFileInfo
        do throws(RemoteDownloadError) {
            info = try RemoteFileInfo.queryBlocking(url, priority: G_PRIORITY_LOW)
        } catch {
            throw .unreadable(name: name, reason: error.description)
        }
        guard info.isRegularFile else { throw .unreadable(name: name, reason: tr("it is not a regular file")) }
        if info.size > Self.remoteSizeLimit {
            throw .fileTooLarge(name: info.displayName, limit: RemoteDownloadError.format(Self.remoteSizeLimit))
        }
        if outputFolder == nil, let cached = cache.lookup(info.uri, modified: info.modified, size: size) {
            return Thumbnail(url: cached, size: size, origin: .cache, thumbnailer: "cache", duration: clock.now - start)
        }
        if outputFolder == nil, cache.hasFailed(info.uri, modified: info.modified) {
            throw .failedBefore(name: info.displayName)
        }
        let copy: RemoteCopy
        do throws(RemoteDownloadError) {
            copy = try downloads.fetchBlocking(info, priority: .background)
        } catch {
            throw .unreadable(name: info.displayName, reason: error.description)
        }
        var source = ThumbnailSource(remote: info, copy: copy.url)
        do {
            let (image, thumbnailer) = try maker.make(&source, edge: size.pixels)
            let location: URL
            if let outputFolder {
                location = outputFolder.appendingPathComponent(FileName.thumbnailName(of: source.name))
                try image.savePNG(to: location, text: [("Thumb::URI", source.uri), ("Thumb::MTime", String(source.modified))])
            } else {
                location = try cache.store(image, for: source, size: size)
            }
            withExtendedLifetime(copy) {}
            return Thumbnail(url: location, size: size, origin: .generated, thumbnailer: thumbnailer, duration: clock.now - start)
        } catch {
            if outputFolder == nil && ThumbnailMaker.isLasting(error) {
                cache.recordFailure(for: source)
            }
            throw error
        }
    }

    /// Runs `body` as a coordinated read, so a coordinated writer's half-written file is never
    /// thumbnailed. A file held by a writer for longer than a few seconds fails for now (not
    /// recorded, so it is tried again).
    private func readCoordinated<T>(
        _ source: inout ThumbnailSource, _ body: (inout ThumbnailSource) throws(ThumbnailError) -> T
    ) throws(ThumbnailError) -> T {
        // Coordination is local-only: a remote file's reader has nobody to wait for here.
        guard source.url.isFileURL else { return try body(&source) }
        var result: Result<T, ThumbnailError>?
        var working = source
        do {
            try withoutActuallyEscaping(body) { body in
                try FileCoordinator().coordinate(readingItemAt: working.url, options: .withoutChanges, timeout: .seconds(5)) { _ in
                    do throws(ThumbnailError) {
                        result = .success(try body(&working))
                    } catch {
                        result = .failure(error)
                    }
                }
            }
        } catch {
            throw .unreadable(name: source.name, reason: "\(error)")
        }
        source = working
        guard let result else { throw .unreadable(name: source.name, reason: "") }
        return try result.get()
    }

    // MARK: The pool

    private func startWorkerIfNeeded() {
        guard started < workers else { return }
        started += 1
        let thread = Thread { [weak self] in self?.work() }
        thread.name = "dossier-thumbnails"
        thread.start()
    }

    private func work() {
        // Below the UI: on a machine with few cores, a thread making thumbnails must never take
        // the CPU from the main thread drawing a frame (Linux keeps a nice value per thread).
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)  // 0: the calling thread, on Linux
        while true {
            condition.lock()
            waitForWork()
            // Highest priority first; among equals, the oldest.
            guard let job = pending.popFirst() else {
                condition.unlock()
                continue
            }
            running.insert(job.id)
            let isBackground = job.request.priority <= Self.backgroundPriority
            if isBackground { runningBackground += 1 }
            condition.unlock()
            run(job)
            if isBackground {
                condition.lock()
                runningBackground -= 1
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// Waits, holding `condition`, until a job may start: any request above the background's,
    /// and a background one when none runs and none is held back.
    private func waitForWork() {
        while true {
            guard let first = pending.firstPriority() else {
                condition.wait()
                continue
            }
            guard first <= Self.backgroundPriority else { return }
            if runningBackground > 0 {
                condition.wait()
            } else if backgroundHeldUntil > Date() {
                condition.wait(until: backgroundHeldUntil)
            } else {
                return
            }
        }
    }

    /// Starts no background request for `duration` from now (jobs already running finish): a
    /// browser calls it as its view scrolls, so that its frames do not share the machine with
    /// thumbnails no one sees yet. Each call extends the hold; it ends by itself.
    package func holdBackground(for duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        condition.lock()
        backgroundHeldUntil = max(backgroundHeldUntil, Date().addingTimeInterval(seconds))
        condition.unlock()
    }

    private func isCancelled(_ id: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled.contains(id)
    }

    private func run(_ job: Job) {
        let request = job.request
        let size = ThumbnailSize(fitting: request.size * max(request.scale, 1))
        func deliver(_ result: Result<Representation, ThumbnailError>) {
            if !isCancelled(job.id) { job.handler(result) }
        }
        if request.representations.contains(.lowQuality), !job.quickPictureTried {
            if let quick = quickPicture(of: request.url, below: size, fitting: request.size * max(request.scale, 1)) {
                deliver(.success(.lowQuality(quick)))
                if request.representations.contains(.thumbnail) { return requeueThumbnail(of: job) }
            } else if request.representations.contains(.thumbnail) {
                // No quick picture: the full thumbnail waits behind the quick pictures of the
                // requests around it (a photo without an EXIF thumbnail takes a worker for a full
                // decode, and the rest of the screen would wait for theirs), ahead of the upgrades.
                return requeue(job, below: Self.quickPictureLead / 2)
            }
        }
        guard request.representations.contains(.thumbnail), job.quickPictureTried || !isCancelled(job.id) else { return finish(job.id) }
        do {
            deliver(.success(.thumbnail(try thumbnail(of: request.url, size: size))))
        } catch {
            deliver(.failure(error))
        }
        finish(job.id)
    }

    /// Puts `job`'s thumbnail back in the queue, `quickPictureLead` below its priority: made
    /// even if the request is cancelled from now on, or was while its quick picture was delivered.
    private func requeueThumbnail(of job: Job) {
        condition.lock()
        defer { condition.unlock() }
        running.remove(job.id)
        finishing.insert(job.id)
        var rest = job
        rest.quickPictureTried = true
        pending.insert(rest, id: job.id, priority: job.request.priority - Self.quickPictureLead)
        condition.signal()
    }

    /// Puts `job`'s thumbnail back in the queue `lead` below its priority; cancelling it still
    /// drops it (nothing has been shown for it).
    private func requeue(_ job: Job, below lead: Int) {
        condition.lock()
        defer { condition.unlock() }
        running.remove(job.id)
        var rest = job
        rest.quickPictureTried = true
        pending.insert(rest, id: job.id, priority: job.request.priority - lead)
        condition.signal()
    }

    private func finish(_ id: Int) {
        condition.lock()
        running.remove(id)
        cancelled.remove(id)
        finishing.remove(id)
        condition.unlock()
    }

    /// A smaller cached size, or a JPEG's own EXIF thumbnail, fitting `edge` pixels (decoded in a
    /// worker: the cache's PNGs and a photo's insides are not trusted).
    private func quickPicture(of url: URL, below size: ThumbnailSize, fitting edge: Int) -> ThumbnailPicture? {
        // A remote file's version is the server's to tell: its thumbnail comes in one step.
        if RemoteFiles.isRemote(url) { return nil }
        guard let source = try? ThumbnailSource(url: url) else { return nil }
        for smaller in ThumbnailSize.allCases.reversed() where smaller < size {
            if let cached = cache.lookup(source.uri, modified: source.modified, size: smaller) {
                return ThumbnailPictures.cachedThumbnail(atPath: cached.path, fitting: edge)
            }
        }
        guard source.type == .jpeg else { return nil }
        return ThumbnailPictures.embeddedThumbnail(ofPhotoAt: source.path, fitting: edge)
    }

    private func cancel(_ id: Int) {
        condition.lock()
        if finishing.contains(id) {
            // Its quick picture was shown: the thumbnail is still made for the cache, for no one.
            cancelled.insert(id)
        } else if !pending.remove(id), running.contains(id) {
            cancelled.insert(id)
        }
        condition.unlock()
    }

    /// Whether background requests are held back now (`holdBackground(for:)`; for tests).
    package var isHoldingBackground: Bool {
        condition.lock()
        defer { condition.unlock() }
        return backgroundHeldUntil > Date()
    }

    /// Requests waiting for a thread, not counting those being made (for tests: with one
    /// worker, none waiting once a lowest-priority request has been delivered means none left).
    package var waitingRequests: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending.count
    }

    private func setPriority(_ id: Int, _ priority: Int) {
        condition.lock()
        pending.setPriority(priority, of: id)
        condition.unlock()
    }
}
