import CGLib
import Foundation
import GObjectSupport

/// What to do with an edited copy when it goes back to its server.
package enum UploadChoice: Sendable {
    /// Replace the server's file only if it is still the version the copy was made from.
    case ifUnchanged
    /// Replace the server's file, whatever happened to it meanwhile.
    case replace
    /// Upload beside the server's file under a free name ("report (copy).odt").
    case keepBoth
}

/// What an upload did.
package enum UploadOutcome: Sendable, Equatable {
    /// The copy is on the server; the edit now follows the file it went to (for Keep Both,
    /// the new one), at the version just written.
    case uploaded(EditedCopy)
    /// The server's file changed since the copy was made (`current` is its version now):
    /// nothing was written. Ask, then upload with `.replace` or `.keepBoth`.
    case serverChanged(current: RemoteFileInfo)
}

/// Remote files' copies that apps edit, and their way back to the server: Open With gives an
/// app that takes only paths a copy (`prepare`), the copy is followed (inotify through
/// GFileMonitor, on a loop of its own; saves by rename-over included), and once the app has
/// saved it observers hear of it so the person can be offered to upload it (`upload`), with the
/// server's version compared first to the one the copy was made from.
///
/// The network is reached on threads of their own, never the caller's: `upload` is `async`.
package final class RemoteEdits: Sendable {
    /// The edits of the process, in the default cache (beside the downloads).
    package static let shared = RemoteEdits()

    /// The cache the edited copies live in, beside the downloads they were made from.
    package let cache: RemoteCache
    /// How long a copy must stay still before its change is reported (an app writes in steps).
    let settle: DispatchTimeInterval

    private let state = Locked(State())

    private struct State {
        var watches: [String: EditWatch] = [:]
        var observers: [UUID: @Sendable (EditedCopy) -> Void] = [:]
    }

    /// Edits kept in `cache`, a change reported once the copy has stayed still for `settle`.
    package init(cache: RemoteCache = RemoteCache(), settle: DispatchTimeInterval = .milliseconds(300)) {
        self.cache = cache
        self.settle = settle
    }

    // MARK: Copies for apps

    /// The copy of the downloaded `copy` that `application` is handed, followed from now on:
    /// the file's existing edited copy when it holds changes or is of the same version, else
    /// a new one. Reads and writes local files only (call it off the main thread).
    package func prepare(_ copy: RemoteCopy, for application: String) throws(RemoteUploadError) -> EditedCopy {
        let edit = try cache.editableCopy(of: copy, for: application)
        follow(edit)
        return edit
    }

    /// The edited copies with changes not yet uploaded or dismissed, from this run or an
    /// earlier one (their app may have saved while Dossier was not running).
    package var changedCopies: [EditedCopy] { cache.changedEdits() }

    /// Whether `edit` holds changes not yet uploaded or dismissed.
    package func hasChanges(_ edit: EditedCopy) -> Bool { cache.isChanged(edit) }

    /// Forgets the changes of `edit` without uploading them: the copy may be evicted from the
    /// cache again. It is still followed: a later save is reported again.
    package func dismiss(_ edit: EditedCopy) { cache.markChanged(edit, false) }

    /// Calls `handler` (on a thread of the edits', not the main thread) each time an app has
    /// saved a followed copy. Keep the returned observation; dropping it stops the calls.
    package func observe(_ handler: @escaping @Sendable (EditedCopy) -> Void) -> EditObservation {
        let id = UUID()
        state.withLock { $0.observers[id] = handler }
        return EditObservation { [weak self] in self?.state.withLock { _ = $0.observers.removeValue(forKey: id) } }
    }

    // MARK: Following

    private func follow(_ edit: EditedCopy) {
        let key = edit.folder.standardizedFileURL.path
        let isClean = !cache.isChanged(edit)
        let watch: EditWatch? = state.withLock { state in
            if let watch = state.watches[key] {
                watch.edit = edit
                // A copy made again (a new version) is the app's starting point, not a change.
                if isClean { watch.known = FileState(path: edit.url.path) }
                return nil
            }
            let watch = EditWatch(edit: edit)
            watch.hold()
            state.watches[key] = watch
            return watch
        }
        guard let watch else { return }
        let monitor = RemoteFolderMonitor(uri: edit.folder.absoluteString, cancellable: ListingCancellable(),
                                          loop: Self.loop) { [weak self] _ in
            self?.heard(key)
        }
        state.withLock { _ in watch.monitor = monitor }
        // Once it follows the folder, a look: an app may have saved before the monitor was there.
        monitor.start { [weak self] _ in self?.heard(key) }
    }

    /// The thread the copies' monitors report on: not the listings' loop, whose calls may
    /// wait on a server that stopped answering while an app saves.
    private static let loop = ListingLoop(name: "dossier-edits-gio")

    /// Something in a copy's folder changed: the copy is looked at once it has been still for
    /// `settle`.
    private func heard(_ key: String) {
        let generation: Int? = state.withLock { state in
            guard let watch = state.watches[key] else { return nil }
            watch.generation += 1
            return watch.generation
        }
        guard let generation else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + settle) { [weak self] in self?.check(key, generation) }
    }

    private func check(_ key: String, _ generation: Int) {
        let changed: EditedCopy? = state.withLock { state in
            guard let watch = state.watches[key], watch.generation == generation,
                  let now = FileState(path: watch.edit.url.path), now != watch.known
            else { return nil }
            watch.known = now
            watch.hold()
            return watch.edit
        }
        guard let edit = changed else { return }
        cache.markChanged(edit, true)
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer(edit) }
    }

    // MARK: Uploading

    /// Puts the edited copy back on its server, on a thread of its own (the caller awaits):
    /// with `.ifUnchanged`, only when the server's file is still the version the copy was made
    /// from (else `.serverChanged`, and nothing is written). A replaced file is replaced whole
    /// or not at all (the copy goes to a hidden name beside it, then takes its place). A file
    /// the server no longer has is simply written again (nothing there can be lost).
    /// `progress` counts the bytes written; cancelling it ends the upload, leaving the
    /// server's file as it was.
    package func upload(_ edit: EditedCopy, _ choice: UploadChoice = .ifUnchanged,
                       progress: Progress? = nil) async throws(RemoteUploadError) -> UploadOutcome {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<UploadOutcome, RemoteUploadError>, Never>) in
            let thread = Thread { [self] in
                do throws(RemoteUploadError) {
                    continuation.resume(returning: .success(try uploadBlocking(edit, choice, progress)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "dossier-upload"
            thread.start()
        }
        return try result.get()
    }

    private func uploadBlocking(_ given: EditedCopy, _ choice: UploadChoice, _ progress: Progress?) throws(RemoteUploadError) -> UploadOutcome {
        // The record is newer than a toast's value when an upload happened since.
        let edit = cache.recordedEdit(in: given.folder) ?? given
        guard let uploadedState = FileState(path: edit.url.path) else { throw .copyMissing(name: edit.name) }
        // Cancelling the progress also ends a question the server does not answer.
        let asking = IOCancellable()
        progress?.cancellationHandler = { asking.cancel() }
        if progress?.isCancelled == true { asking.cancel() }
        let server: RemoteFileInfo?
        switch RemoteFileInfo.asked(edit.remote, cancellable: asking) {
        case .success(let info): server = info
        case .failure(let error) where error.isIOError(G_IO_ERROR_NOT_FOUND): server = nil
        case .failure(let error) where error.isIOError(G_IO_ERROR_CANCELLED): throw .cancelled(name: edit.name)
        case .failure(let error): throw .unreachable(name: edit.name, reason: error.message)
        }
        if choice == .ifUnchanged, let server, server.versionKey != edit.base.versionKey {
            return .serverChanged(current: server)
        }
        var destination = edit.remote
        if server != nil, choice == .keepBoth {
            let folder = edit.remote.deletingLastPathComponent()
            destination = folder.appendingPathComponent(FileOperations.freeRemoteName(
                for: edit.remote.lastPathComponent, isFolder: false, in: folder, GIOCalls(progress: nil)))
        }
        // A coordinated read of the copy: an app that coordinates its saves (as Dossier's
        // documents do) saves first and is never read half-saved.
        var transferred: Result<Void, FileOperationError> = .success(())
        do {
            try FileCoordinator().coordinate(readingItemAt: edit.url, timeout: .seconds(30)) { _ in
                let transfer = GIOTransfer(kind: .copy, progress: progress)
                do throws(FileOperationError) {
                    if server == nil || destination != edit.remote {
                        try transfer.copy(edit.url, to: destination)
                    } else {
                        try transfer.replace(destination, withCopyOf: edit.url)
                    }
                } catch {
                    transferred = .failure(error)
                }
            }
        } catch {
            throw .failed(name: edit.name, reason: String(describing: error))
        }
        switch transferred {
        case .success: break
        case .failure(.cancelled): throw .cancelled(name: edit.name)
        case .failure(let error): throw .failed(name: edit.name, reason: error.description)
        }
        FileOperations.noteRemoteChange(destination)
        // The copy now is the server's file: the version just written is its new base.
        let written = (try? RemoteFileInfo.asked(destination, cancellable: nil).get()) ?? edit.base
        let next = EditedCopy(url: edit.url, remote: URL(string: written.uri) ?? destination, base: written,
                              application: edit.application)
        try cache.record(next)
        // A save made while the upload ran is still to be uploaded.
        if FileState(path: edit.url.path) == uploadedState { cache.markChanged(next, false) }
        state.withLock { $0.watches[next.folder.standardizedFileURL.path]?.edit = next }
        return .uploaded(next)
    }
}

/// Calls to an `observe` handler go on while this lives.
package final class EditObservation: Sendable {
    private let end: @Sendable () -> Void
    init(_ end: @escaping @Sendable () -> Void) { self.end = end }
    deinit { end() }
}

/// One followed copy. Guarded by `RemoteEdits.state`'s lock.
private final class EditWatch: @unchecked Sendable {
    var edit: EditedCopy
    /// The copy as last seen: another file (a save by rename), size or time is a change.
    var known: FileState?
    var generation = 0
    var monitor: RemoteFolderMonitor?
    /// A shared lock on the copy's current file, so the cache does not evict it while followed.
    private var held: Int32 = -1

    init(edit: EditedCopy) {
        self.edit = edit
        known = FileState(path: edit.url.path)
    }

    /// Holds the copy's current file (a save by rename made a new one).
    func hold() {
        let fd = open(edit.url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0, dossier_ofd_lock(fd, 0, 0) != 0 {
            close(fd)
            return
        }
        if held >= 0 { close(held) }
        held = fd
    }

    deinit {
        if held >= 0 { close(held) }
        monitor?.stop()
    }
}
