import CGLib
import Foundation

/// Watches the folders that presenters care about with inotify, on a thread of its own, and
/// turns raw events into changes: coalesced over 50 ms, moves paired by cookie, and
/// temporary files that came and went (an editor's or `sed -i`'s save) left out.
///
/// Rules from inotify(7): watch the parent folder, since a save by rename replaces the inode;
/// `IN_CLOSE_WRITE` or `IN_MOVED_TO` on a name means it changed; the two halves of a move
/// share a cookie and may arrive unpaired (a move from or to an unwatched folder).
final class ChangeWatcher: @unchecked Sendable {
    // @unchecked: `watches` and `folders` are guarded by `lock`; the thread owns the rest.
    private unowned let registry: PresenterRegistry
    private let fd: Int32
    private let lock = NSLock()
    /// Watched folder → (watch descriptor, how many presenters need it).
    private var folders: [String: (wd: Int32, count: Int)] = [:]
    private var watches: [Int32: String] = [:]
    /// The names in each watched folder, as of the last delivered window: whether a name
    /// existed before a window cannot be told from its events (a rename over an existing file
    /// looks like a new one), so the watcher remembers.
    private var known: [String: Set<String>] = [:]
    /// Wakes the thread for a flush (`flush(timeout:)`), and who waits for it.
    private let wake: Int32
    private let wakeWriter: Int32
    private var flushWaiters: [DispatchSemaphore] = []
    private static let window: Duration = .milliseconds(50)

    init(registry: PresenterRegistry) {
        self.registry = registry
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        }
        (wake, wakeWriter) = (ends[0], ends[1])
        if fd >= 0 && wake >= 0 {
            let thread = Thread { [unowned self] in self.run() }
            thread.name = "dossier-change-watcher"
            thread.start()
        }
    }

    /// An item is watched through its folder; a folder also through itself (for its items).
    func watch(path: String, isFolder: Bool) {
        add((path as NSString).deletingLastPathComponent)
        if isFolder { add(path) }
    }

    func unwatch(path: String, isFolder: Bool) {
        drop((path as NSString).deletingLastPathComponent)
        if isFolder { drop(path) }
    }

    private func add(_ folder: String) {
        lock.withLock {
            if let existing = folders[folder] {
                folders[folder] = (existing.wd, existing.count + 1)
                return
            }
            let mask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR)
            let wd = inotify_add_watch(fd, folder, mask)
            guard wd >= 0 else { return }
            folders[folder] = (wd, 1)
            watches[wd] = folder
            known[folder] = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        }
    }

    private func drop(_ folder: String) {
        lock.withLock {
            guard let existing = folders[folder] else { return }
            if existing.count > 1 {
                folders[folder] = (existing.wd, existing.count - 1)
            } else {
                folders[folder] = nil
                watches[existing.wd] = nil
                known[folder] = nil
                inotify_rm_watch(fd, existing.wd)
            }
        }
    }

    /// Delivers what inotify has queued so far at once, ending the current window early, and
    /// returns after the thread handed it to the registry (false after `timeout`). Events
    /// are queued by the kernel during the call that caused them, so every change made before
    /// this call is among them.
    func flush(timeout: Duration) -> Bool {
        guard fd >= 0, wake >= 0 else { return true }
        let done = DispatchSemaphore(value: 0)
        lock.withLock { flushWaiters.append(done) }
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
        return done.wait(timeout: .now() + .nanoseconds(Int(timeout.components.seconds) * 1_000_000_000)) == .success
    }

    // MARK: The thread

    private struct RawEvent {
        let path: String
        let mask: UInt32
        let cookie: UInt32
    }

    private func run() {
        var pending: [RawEvent] = []
        var deadline: ContinuousClock.Instant?
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                timeout = max(0, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            }
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 && errno != EINTR { return }
            var flushing: [DispatchSemaphore] = []
            if ready > 0 && descriptors[1].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(wake, &bytes, bytes.count) > 0 {}
                flushing = lock.withLock { defer { flushWaiters.removeAll() }; return flushWaiters }
            }
            if ready > 0 && (descriptors[0].revents != 0 || !flushing.isEmpty) {
                // A flush drains the queue; otherwise one read per wake-up is enough.
                repeat {
                    let count = read(fd, buffer, 64 * 1024)
                    guard count > 0 else { break }
                    pending += parse(buffer, count)
                    if deadline == nil { deadline = ContinuousClock.now + Self.window }
                } while !flushing.isEmpty
            }
            if let current = deadline, flushing.isEmpty, ContinuousClock.now >= current,
                registry.isChanging(anyOf: pending.map(\.path)) {
                // A coordinated call is changing one of these paths and reports it itself: wait
                // until it has, so its events are recognised as the echo (`wasReported`).
                deadline = ContinuousClock.now + Self.window
            } else if let current = deadline, !flushing.isEmpty || ContinuousClock.now >= current {
                let changes = classify(pending)
                pending.removeAll()
                deadline = nil
                for change in changes {
                    registry.deliver(change, fromCoordinator: false)
                }
            }
            for waiter in flushing { waiter.signal() }
        }
    }

    private func parse(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> [RawEvent] {
        var events: [RawEvent] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
            let nameLength = Int(event.len)
            defer { offset += header + nameLength }
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { continue }
            guard nameLength > 0, let folder = lock.withLock({ watches[event.wd] }) else { continue }
            let name = String(cString: (buffer + offset + header).assumingMemoryBound(to: CChar.self))
            events.append(RawEvent(path: folder == "/" ? "/" + name : folder + "/" + name, mask: event.mask, cookie: event.cookie))
        }
        return events
    }

    /// Net effect of a window of events, per path (see the type's comment).
    private func classify(_ events: [RawEvent]) -> [PresentedChange] {
        var order: [String] = []
        var existedBefore: [String: Bool] = [:]
        var touched: Set<String> = []
        var movedFrom: [UInt32: String] = [:]
        var moves: [(from: String, to: String)] = []
        let knownNames = lock.withLock { known }
        for event in events {
            if existedBefore[event.path] == nil {
                order.append(event.path)
                let folder = (event.path as NSString).deletingLastPathComponent
                existedBefore[event.path] = knownNames[folder]?.contains((event.path as NSString).lastPathComponent)
                    ?? (event.mask & UInt32(IN_CREATE | IN_MOVED_TO) == 0)
            }
            touched.insert(event.path)
            if event.mask & UInt32(IN_MOVED_FROM) != 0 {
                movedFrom[event.cookie] = event.path
            } else if event.mask & UInt32(IN_MOVED_TO) != 0, let from = movedFrom.removeValue(forKey: event.cookie) {
                moves.append((from, event.path))
            }
        }
        var changes: [PresentedChange] = []
        var handled: Set<String> = []
        var nowExists: [String: Bool] = [:]
        for path in order { nowExists[path] = FileState(path: path) != nil }
        let exists = { (path: String) -> Bool in nowExists[path] ?? (FileState(path: path) != nil) }
        lock.withLock {
            for (path, present) in nowExists {
                let folder = (path as NSString).deletingLastPathComponent
                let name = (path as NSString).lastPathComponent
                if present { known[folder]?.insert(name) } else { known[folder]?.remove(name) }
            }
        }
        // A move whose source existed before and whose destination is new is a move.
        for move in moves where existedBefore[move.from] == true && !exists(move.from) && exists(move.to)
            && existedBefore[move.to] == false && !handled.contains(move.from) {
            handled.insert(move.from)
            handled.insert(move.to)
            if !(registry.wasReported(move.from) && registry.wasReported(move.to)) {
                changes.append(.moved(from: URL(fileURLWithPath: move.from), to: URL(fileURLWithPath: move.to)))
            }
        }
        for path in order where !handled.contains(path) {
            let before = existedBefore[path] ?? true
            let now = exists(path)
            guard !registry.wasReported(path) else { continue }
            let url = URL(fileURLWithPath: path)
            switch (before, now) {
            case (false, true): changes.append(.appeared(url))
            case (true, false): changes.append(.deleted(url))
            case (true, true): changes.append(.changed(url))
            case (false, false): break  // a temporary file that came and went
            }
        }
        return changes
    }
}
