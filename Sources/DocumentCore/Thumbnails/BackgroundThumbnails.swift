import CGLib
import Foundation
import GObjectSupport

/// Thumbnails made ahead of need for the files of a folder that no one is looking at yet (the
/// rest of a folder shown in a browser), as Files does: each file that lacks a thumbnail is
/// queued in the generator below every other request, in the order given, so a request for a
/// cell on screen always overtakes them, queued or not. The generator makes one of them at a
/// time, never while a browser scrolls (`holdBackground(for:)`), so the rest of its threads and
/// the machine stay with the cells and the frames. Text files are left to their cells.
///
/// Files are looked at on a queue of their own (a `stat` and the cache's lookup each, never on
/// the main thread); at most `limit` thumbnails are queued and `examinedLimit` files looked at.
/// A folder that is not on this machine's disks (a remote location, GVFS's FUSE folder, a
/// network file system) is left alone: its thumbnails would download every file. Failures are
/// recorded in the cache's `fail/` folder as for any request, and reported to no one (a file
/// deleted meanwhile simply fails). `cancel()` drops everything still queued.
package final class BackgroundThumbnails: @unchecked Sendable {
    // @unchecked: `state` is guarded by `lock`; `isLocal` is touched only on `queue`; the rest
    // is immutable.

    /// The most thumbnails one folder queues.
    package static let limit = 10_000
    /// The most files of one folder looked at (each costs a `stat` and a cache lookup).
    package static let examinedLimit = 50_000

    /// The generator the thumbnails are asked of.
    package let generator: ThumbnailGenerator
    /// The folder whose files these are.
    package let folder: URL
    private let size: Int
    private let scale: Int
    private let limit: Int
    private let examinedLimit: Int
    private let queue = DispatchQueue(label: "dossier.thumbnails.background", qos: .utility)
    private var isLocal: Bool?

    private struct State {
        var cancelled = false
        /// The requests queued and not finished, by path, with the token their handler carries.
        var requests: [String: (token: Int, handle: ThumbnailGenerator.Handle)] = [:]
        var queued = 0
        var examined = 0
        var finished = 0
        var scansWaiting = 0
        var nextToken = 0
    }

    private let lock = NSLock()
    private var state = State()

    /// Background thumbnails of `folder`'s files at `size` logical pixels × `scale`, asked of
    /// `generator`; nothing happens until `add(_:)`.
    package init(generator: ThumbnailGenerator, folder: URL, size: Int, scale: Int = 1,
                limit: Int = BackgroundThumbnails.limit, examinedLimit: Int = BackgroundThumbnails.examinedLimit) {
        self.generator = generator
        self.folder = folder
        self.size = size
        self.scale = max(scale, 1)
        self.limit = limit
        self.examinedLimit = examinedLimit
    }

    deinit { cancel() }

    /// Queues the thumbnails that `files` lack, after those queued before and in this order:
    /// looked at on a queue of their own, so this returns at once. A file queued before and
    /// not yet made is queued again (it changed: the earlier request may be reading an older
    /// version, which fails unrecorded).
    package func add(_ files: [URL]) {
        lock.withLock { state.scansWaiting += 1 }
        queue.async { [self] in
            defer { lock.withLock { state.scansWaiting -= 1 } }
            guard isOnThisMachine() else { return }
            for file in files {
                guard let position = lock.withLock({ () -> Int? in
                    guard !state.cancelled, state.queued < limit, state.examined < examinedLimit else { return nil }
                    state.examined += 1
                    return state.queued
                }) else { return }
                guard generator.lacksThumbnail(of: file, fitting: size * scale, includingText: false) else { continue }
                enqueue(file, position: position)
            }
        }
    }

    /// Drops every thumbnail still queued; those being made finish (into the cache), and
    /// nothing more is queued.
    package func cancel() {
        let handles = lock.withLock {
            state.cancelled = true
            defer { state.requests = [:] }
            return state.requests.values.map(\.handle)
        }
        for handle in handles { handle.cancel() }
    }

    /// What the pass has done so far: thumbnails queued and finished (made, found or failed),
    /// files looked at, and whether files are still waiting to be looked at.
    package var progress: (queued: Int, finished: Int, examined: Int, isLooking: Bool) {
        lock.withLock { (state.queued, state.finished, state.examined, state.scansWaiting > 0) }
    }

    private func enqueue(_ file: URL, position: Int) {
        let path = file.path
        lock.lock()
        defer { lock.unlock() }
        guard !state.cancelled else { return }
        state.requests[path]?.handle.cancel()
        state.nextToken += 1
        let token = state.nextToken
        state.queued += 1
        // Earlier in the folder, sooner.
        let request = ThumbnailGenerator.Request(url: file, size: size, scale: scale, representations: .thumbnail,
                                                 priority: ThumbnailGenerator.backgroundPriority - position)
        let handle = generator.generate(request) { [weak self] _ in
            // Made, found valid, or failed (recorded in fail/ when lasting): no one is told.
            self?.finished(path, token: token)
        }
        state.requests[path] = (token, handle)
    }

    private func finished(_ path: String, token: Int) {
        lock.withLock {
            state.finished += 1
            if state.requests[path]?.token == token { state.requests[path] = nil }
        }
    }

    /// Whether `folder` is on this machine's disks (asked once, on `queue`): not a remote URI,
    /// not in GVFS's FUSE folder, not on a file system GIO calls remote (NFS, SMB, sshfs…).
    private func isOnThisMachine() -> Bool {
        if let isLocal { return isLocal }
        let local = Self.isOnThisMachine(folder)
        isLocal = local
        return local
    }

    /// Whether `folder` is on this machine's disks, where background thumbnails are made.
    /// Blocking (it asks the file system): off the main thread.
    package static func isOnThisMachine(_ folder: URL) -> Bool {
        guard folder.isFileURL, !RemoteFiles.isRemote(folder) else { return false }
        let file = g_file_new_for_path(folder.path)
        defer { unref(file) }
        guard let info = g_file_query_filesystem_info(file, "filesystem::remote", nil, nil) else { return false }
        defer { unref(info) }
        return g_file_info_get_attribute_boolean(info, "filesystem::remote") == 0
    }
}

extension ThumbnailGenerator {
    /// The priority of background work (`BackgroundThumbnails`): below any request a browser
    /// makes for its cells, however far a quick picture's upgrade is moved down
    /// (`quickPictureLead`); a background thumbnail `n` files into its folder waits at this
    /// minus `n`.
    package static let backgroundPriority = -(1 << 50)

    /// Whether the file at `url` lacks a valid thumbnail for `pixels` (logical size × scale)
    /// that a thumbnailer here could make: a regular local file within its thumbnailer's size
    /// limit, its type told by its name, with neither a valid thumbnail in the cache nor a
    /// failure recorded for this version. Cheap (a `stat` and the cache's lookup) but
    /// blocking: off the main thread. Remote files never count, nor text files unless
    /// `includingText` (Files has no text thumbnailer: a folder of logs is not worth a
    /// background pass, and their cells still get theirs).
    package func lacksThumbnail(of url: URL, fitting pixels: Int, includingText: Bool = true) -> Bool {
        guard url.isFileURL, !RemoteFiles.isRemote(url) else { return false }
        let path = url.path
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, !cache.contains(path) else { return false }
        guard let kind = maker.kind(for: DocumentType(fileName: url.lastPathComponent)),
              Int64(status.st_size) <= kind.fileSizeLimit else { return false }
        if case .text = kind, !includingText { return false }
        let file = g_file_new_for_path(path)
        let uri = takeString(g_file_get_uri(file)) ?? url.absoluteString
        unref(file)
        let modified = Int64(status.st_mtim.tv_sec)
        return cache.lookup(uri, modified: modified, size: ThumbnailSize(fitting: pixels)) == nil
            && !cache.hasFailed(uri, modified: modified)
    }
}
