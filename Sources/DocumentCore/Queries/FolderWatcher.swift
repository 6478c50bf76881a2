import CGLib
import Foundation

/// What inotify reported, with paths relative to the query's folder ("" is the folder itself).
enum WatchEvent: Equatable {
    /// An entry appeared, went, was written or had its attributes changed.
    case changed(path: String, created: Bool, isDirectory: Bool, contentChanged: Bool)
    /// The first half of a rename; the second half carries the same cookie, if it comes.
    case movedFrom(path: String, cookie: UInt32)
    /// The second half of a rename, or an entry moved in from elsewhere.
    case movedTo(path: String, cookie: UInt32, isDirectory: Bool)
    /// A watched folder itself was deleted or moved.
    case folderGone(path: String)
    /// The kernel dropped a watch (after `folderGone`, or on unmount).
    case watchRemoved(path: String)
    /// The file system of a watched folder was unmounted.
    case unmounted(path: String)
    /// The kernel's event queue overflowed: events were lost.
    case overflow
}

/// One inotify instance watching a folder (and, for recursive queries, its subfolders).
///
/// inotify rather than GFileMonitor: GFileMonitor delivers on a GLib main context, which a
/// query's background queue does not run; inotify is one descriptor that libdispatch can
/// watch, reports rename pairs with their cookies, and is what GFileMonitor uses on Linux
/// anyway. Confined to its query's queue; the descriptor is closed by whoever owns the
/// dispatch source reading it.
final class FolderWatcher {
    let descriptor: Int32
    private var paths: [Int32: PathKey] = [:]
    private var watches: [PathKey: Int32] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    private static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

    /// Opens an inotify instance; returns nil with `errno` set when the user's limit is reached.
    init?() {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Watches the folder at `path`, known to the query as `relativePath`. Returns 0, or the
    /// `errno` of the failure (ENOENT, ENOTDIR, EACCES, ENOSPC for the watch limit).
    func watch(path: String, relativePath: PathKey) -> Int32 {
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        guard watch >= 0 else { return errno }
        // The same folder watched again (moved inside the tree) keeps its descriptor: re-point it.
        if let previous = paths[watch], previous != relativePath { watches[previous] = nil }
        paths[watch] = relativePath
        watches[relativePath] = watch
        return 0
    }

    /// True when the folder known as `relativePath` is watched.
    func isWatching(_ relativePath: PathKey) -> Bool { watches[relativePath] != nil }

    /// Stops watching `relativePath` and every folder under it.
    func unwatch(subtree relativePath: PathKey) {
        for (path, watch) in watches where relativePath.contains(path) {
            inotify_rm_watch(descriptor, watch)
            watches[path] = nil
            paths[watch] = nil
        }
    }

    /// Stops watching every folder but the query's own.
    func unwatchSubfolders() {
        for (path, watch) in watches where !path.string.isEmpty {
            inotify_rm_watch(descriptor, watch)
            watches[path] = nil
            paths[watch] = nil
        }
    }

    /// Reads every event queued now, without blocking.
    func readEvents() -> [WatchEvent] {
        var events: [WatchEvent] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in parse(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), into: &events) }
        }
        return events
    }

    private func parse(_ bytes: UnsafeRawBufferPointer, into events: inout [WatchEvent]) {
        let headerSize = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + headerSize <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[(offset + headerSize)..<min(offset + headerSize + length, bytes.count)])
            offset += headerSize + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                events.append(.overflow)
                continue
            }
            guard let folder = paths[watch] else { continue }  // a watch already removed
            if mask & UInt32(IN_IGNORED) != 0 {
                paths[watch] = nil
                if watches[folder] == watch { watches[folder] = nil }
                events.append(.watchRemoved(path: folder.string))
                continue
            }
            if mask & UInt32(IN_UNMOUNT) != 0 {
                events.append(.unmounted(path: folder.string))
                continue
            }
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                events.append(.folderGone(path: folder.string))
                continue
            }
            let nameLength = nameBytes.firstIndex(of: 0) ?? nameBytes.count
            guard nameLength > 0 else { continue }  // an event about the folder itself (IN_ATTRIB)
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: nameBytes[0..<nameLength]), as: UTF8.self)
            let path = folder.string.isEmpty ? name : folder.string + "/" + name
            let isDirectory = mask & UInt32(IN_ISDIR) != 0
            if mask & UInt32(IN_MOVED_FROM) != 0 {
                events.append(.movedFrom(path: path, cookie: cookie))
            } else if mask & UInt32(IN_MOVED_TO) != 0 {
                events.append(.movedTo(path: path, cookie: cookie, isDirectory: isDirectory))
            } else {
                events.append(
                    .changed(
                        path: path, created: mask & UInt32(IN_CREATE) != 0, isDirectory: isDirectory,
                        contentChanged: mask & UInt32(IN_CLOSE_WRITE | IN_MODIFY) != 0))
            }
        }
    }
}
