import CGLib
import Foundation
import GObjectSupport

/// One held lock on one item: an OFD lock on the item's lock file in
/// `$XDG_RUNTIME_DIR/dossier/locks/`, never on the item itself, so a save that replaces the
/// item by rename keeps the lock, and nothing is written next to the user's files.
///
/// Readers share the lock, a writer excludes everyone. OFD locks belong to the open file
/// description, so two threads of one process exclude each other just like two processes,
/// and the lock drops only when this object closes its descriptor (or the process dies).
final class CoordinationLock {
    enum Mode { case shared, exclusive }

    let path: String
    private(set) var mode: Mode
    private let fd: Int32

    /// The lock file that stands for the item at `url`: a SHA-256 of its canonical path
    /// (folders resolved, so two spellings of one path meet at one lock).
    static func lockPath(for url: URL) -> String {
        let canonical = canonicalPath(of: url)
        let digest = takeString(g_compute_checksum_for_string(G_CHECKSUM_SHA256, canonical, -1)) ?? canonical
        return lockFolder + "/" + digest + ".lock"
    }

    /// The item's path with its folder's symbolic links and `..` resolved. The item itself is
    /// not resolved, so a link and its target are two items, as they are for rename(2).
    static func canonicalPath(of url: URL) -> String {
        let path = url.standardizedFileURL.path
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let resolved = realpath(parent, nil) else { return path }
        defer { free(resolved) }
        let folder = String(cString: resolved)
        return folder == "/" ? "/" + name : folder + "/" + name
    }

    static let lockFolder: String = {
        let folder = String(cString: g_get_user_runtime_dir()) + "/dossier/locks"
        g_mkdir_with_parents(folder, 0o700)
        return folder
    }()

    /// Takes the lock, waiting as long as `deadline` allows (forever when nil) and giving up
    /// when `cancellation` is set.
    init(for url: URL, mode: Mode, deadline: ContinuousClock.Instant?, cancellation: CoordinationCancellation?) throws(CoordinationError) {
        let name = url.lastPathComponent
        path = Self.lockPath(for: url)
        self.mode = mode
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw .lockFailed(name: name, reason: String(cString: strerror(errno)))
        }
        do {
            try acquire(mode, name: name, deadline: deadline, cancellation: cancellation)
        } catch {
            close(fd)
            throw error
        }
    }

    /// Changes a held lock between shared and exclusive (a write nested in a read).
    func convert(to mode: Mode, name: String, deadline: ContinuousClock.Instant?,
                 cancellation: CoordinationCancellation?) throws(CoordinationError) {
        guard mode != self.mode else { return }
        try acquire(mode, name: name, deadline: deadline, cancellation: cancellation)
        self.mode = mode
    }

    private func acquire(_ mode: Mode, name: String, deadline: ContinuousClock.Instant?,
                         cancellation: CoordinationCancellation?) throws(CoordinationError) {
        let exclusive: Int32 = mode == .exclusive ? 1 : 0
        if deadline == nil && cancellation == nil {
            // Nothing to give up for: let the kernel queue us.
            while dossier_ofd_lock(fd, exclusive, 1) != 0 {
                guard errno == EINTR else { throw .lockFailed(name: name, reason: String(cString: strerror(errno))) }
            }
            return
        }
        // With a deadline or a cancellation flag: try, then back off and try again.
        var pause: useconds_t = 50
        while dossier_ofd_lock(fd, exclusive, 0) != 0 {
            guard errno == EAGAIN || errno == EACCES || errno == EINTR else {
                throw .lockFailed(name: name, reason: String(cString: strerror(errno)))
            }
            if cancellation?.isCancelled == true { throw .cancelled(name: name) }
            if let deadline, ContinuousClock.now >= deadline { throw .timedOut(name: name) }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
    }

    deinit {
        close(fd)  // the last close of the description drops the lock
    }
}
