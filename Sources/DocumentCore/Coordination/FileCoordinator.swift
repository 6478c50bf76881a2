import Foundation

/// Coordinated reading, writing, moving and deleting of items, across threads and processes
/// of Dossier or any program that links DocumentCore: the NSFileCoordinator of Linux.
///
/// Readers of an item share it; a writer excludes readers and other writers. The locks are
/// OFD locks on per-item lock files in `$XDG_RUNTIME_DIR/dossier/locks` (see
/// `CoordinationLock`). Before a write, the item's presenters are asked to save their changes;
/// after it, they and the presenters of its folder hear what changed, before the call
/// returns. Presenters are asked to save (or to let go, for a delete) before the lock is
/// taken, since their save is a coordinated write of its own. A read nested in a write of the same item on the same thread does not wait for
/// itself. Programs that do not coordinate are not excluded, but their changes still reach
/// presenters through inotify.
public final class FileCoordinator: Sendable {
    /// How a coordinated read treats the item's presenters.
    public struct ReadingOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Do not ask presenters to save first: read what is on disk now.
        public static let withoutChanges = ReadingOptions(rawValue: 1)
    }

    /// What a coordinated write does to the item, so that its presenters can prepare.
    public struct WritingOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The writer deletes the item: presenters are asked to accommodate the deletion.
        public static let forDeleting = WritingOptions(rawValue: 1)
    }

    private let excluded: ObjectIdentifier?

    /// A coordinator acting for `filePresenter`, which then does not hear about its own changes.
    public init(filePresenter: (any FilePresenter)? = nil) {
        excluded = filePresenter.map(ObjectIdentifier.init)
    }

    // MARK: Presenters

    /// Registers a presenter for the item at its `presentedItemURL`; it is held weakly.
    public static func addFilePresenter(_ presenter: any FilePresenter) {
        PresenterRegistry.shared.add(presenter)
    }

    /// Unregisters a presenter: it hears of no more changes to its item.
    public static func removeFilePresenter(_ presenter: any FilePresenter) {
        PresenterRegistry.shared.remove(presenter)
    }

    /// Delivers at once every outside change the system has reported so far, without waiting
    /// for the coalescing window, and returns when every presenter's queue has handled it: after
    /// this call, a change made before it has reached its presenters, and a presenter that was
    /// told nothing will not be told about it later. Blocks the caller; not for a presenter's
    /// own queue. Returns false if the watcher did not answer within `timeout`.
    @discardableResult
    public static func deliverPendingChanges(timeout: Duration = .seconds(60)) -> Bool {
        PresenterRegistry.shared.deliverPendingChanges(timeout: timeout)
    }

    // MARK: Coordinated access

    /// Runs `reader` while holding a shared lock on the item at `url`.
    /// - Throws: `CoordinationError` when the lock is not had in time or the wait is
    ///   cancelled; whatever `reader` throws.
    @discardableResult
    public func coordinate<T>(readingItemAt url: URL, options: ReadingOptions = [], timeout: Duration? = nil,
                              cancellation: CoordinationCancellation? = nil,
                              byAccessor reader: (URL) throws -> T) throws -> T {
        try Self.requireLocal(url)
        // While this runs, the coordinator's own presenter may be blocked: never wait on it.
        PresenterRegistry.shared.beginCoordination(of: excluded)
        defer { PresenterRegistry.shared.endCoordination(of: excluded) }
        if !options.contains(.withoutChanges) {
            // Presenters save before a read so it sees their work; before the lock, since
            // their save is itself a coordinated write.
            PresenterRegistry.shared.ask(presentersOf: CoordinationLock.canonicalPath(of: url), excluding: excluded) {
                try $0.savePresentedItemChanges()
            }
        }
        return try withLocks([(url, .shared)], timeout: timeout, cancellation: cancellation) {
            try reader(url)
        }
    }

    /// Runs `writer` while holding an exclusive lock on the item at `url`; presenters save
    /// first and hear of the change (or the deletion) before this returns.
    @discardableResult
    public func coordinate<T>(writingItemAt url: URL, options: WritingOptions = [], timeout: Duration? = nil,
                              cancellation: CoordinationCancellation? = nil,
                              byAccessor writer: (URL) throws -> T) throws -> T {
        try Self.requireLocal(url)
        // While this runs, the coordinator's own presenter may be blocked: never wait on it.
        PresenterRegistry.shared.beginCoordination(of: excluded)
        defer { PresenterRegistry.shared.endCoordination(of: excluded) }
        let path = CoordinationLock.canonicalPath(of: url)
        prepareWrite(at: path, deleting: options.contains(.forDeleting))
        return try withLocks([(url, .exclusive)], timeout: timeout, cancellation: cancellation) {
            let existed = FileState(path: path) != nil
            PresenterRegistry.shared.beginChange(at: [path])
            defer { PresenterRegistry.shared.endChange(at: [path]) }  // after the report below
            defer { reportWrite(at: path, existed: existed) }
            return try writer(url)
        }
    }

    /// Reads one item and writes another under one coordination (locks taken in a fixed
    /// order, so two such calls cannot deadlock).
    @discardableResult
    public func coordinate<T>(readingItemAt readURL: URL, writingItemAt writeURL: URL, timeout: Duration? = nil,
                              cancellation: CoordinationCancellation? = nil,
                              byAccessor accessor: (URL, URL) throws -> T) throws -> T {
        try Self.requireLocal(readURL, writeURL)
        // While this runs, the coordinator's own presenter may be blocked: never wait on it.
        PresenterRegistry.shared.beginCoordination(of: excluded)
        defer { PresenterRegistry.shared.endCoordination(of: excluded) }
        let path = CoordinationLock.canonicalPath(of: writeURL)
        prepareWrite(at: path, deleting: false)
        return try withLocks([(readURL, .shared), (writeURL, .exclusive)], timeout: timeout, cancellation: cancellation) {
            let existed = FileState(path: path) != nil
            PresenterRegistry.shared.beginChange(at: [path])
            defer { PresenterRegistry.shared.endChange(at: [path]) }  // after the report below
            defer { reportWrite(at: path, existed: existed) }
            return try accessor(readURL, writeURL)
        }
    }

    /// Runs `mover`, which moves the item at `source` to `destination`, holding both; the
    /// item's presenters (and those of items inside a moved folder) follow it to the new URL.
    public func coordinate(movingItemAt source: URL, to destination: URL, timeout: Duration? = nil,
                           cancellation: CoordinationCancellation? = nil,
                           byAccessor mover: (URL, URL) throws -> Void) throws {
        try Self.requireLocal(source, destination)
        // While this runs, the coordinator's own presenter may be blocked: never wait on it.
        PresenterRegistry.shared.beginCoordination(of: excluded)
        defer { PresenterRegistry.shared.endCoordination(of: excluded) }
        let from = CoordinationLock.canonicalPath(of: source)
        let to = CoordinationLock.canonicalPath(of: destination)
        PresenterRegistry.shared.ask(presentersOf: from, descendants: true, excluding: excluded) {
            try $0.savePresentedItemChanges()
        }
        try withLocks([(source, .exclusive), (destination, .exclusive)], timeout: timeout, cancellation: cancellation) {
            PresenterRegistry.shared.beginChange(at: [from, to])
            defer { PresenterRegistry.shared.endChange(at: [from, to]) }
            try mover(source, destination)
            if FileState(path: from) == nil, FileState(path: to) != nil {
                itemMoved(from: from, to: to)
            } else {
                reportWrite(at: to, existed: false)
            }
        }
    }

    /// Runs `deleter` holding the item; presenters accommodate the deletion first and the
    /// folder's presenters hear of it before this returns.
    public func coordinate(deletingItemAt url: URL, timeout: Duration? = nil, cancellation: CoordinationCancellation? = nil,
                           byAccessor deleter: (URL) throws -> Void) throws {
        try coordinate(writingItemAt: url, options: .forDeleting, timeout: timeout, cancellation: cancellation, byAccessor: deleter)
    }

    /// Tells presenters that an item moved, for a move this coordinator did not perform itself
    /// (GIO's g_file_move in a file operation, say).
    public func item(at oldURL: URL, didMoveTo newURL: URL) {
        guard oldURL.isFileURL && newURL.isFileURL else { return }
        itemMoved(from: CoordinationLock.canonicalPath(of: oldURL), to: CoordinationLock.canonicalPath(of: newURL))
    }

    /// Coordination works on this computer's files only: its locks live in `$XDG_RUNTIME_DIR`
    /// and its changes come from inotify, neither of which sees a server.
    private static func requireLocal(_ urls: URL...) throws(CoordinationError) {
        if let remote = urls.first(where: { !$0.isFileURL }) { throw .notLocal(location: remote.absoluteString) }
    }

    // MARK: Steps

    private func prepareWrite(at path: String, deleting: Bool) {
        let registry = PresenterRegistry.shared
        guard !registry.isEmpty else { return }
        if deleting {
            registry.ask(presentersOf: path, descendants: true, excluding: excluded) { try $0.accommodatePresentedItemDeletion() }
            let url = URL(fileURLWithPath: path)
            registry.ask(folderPresentersAround: path, excluding: excluded) { try $0.accommodatePresentedSubitemDeletion(at: url) }
        } else {
            registry.ask(presentersOf: path, excluding: excluded) { try $0.savePresentedItemChanges() }
        }
    }

    private func reportWrite(at path: String, existed: Bool) {
        // Live folder queries show coordinated changes at once, without waiting for inotify.
        DirectoryQuery.noteChange(at: URL(fileURLWithPath: path))
        guard !PresenterRegistry.shared.isEmpty else { return }
        let url = URL(fileURLWithPath: path)
        let change: PresentedChange = FileState(path: path) == nil ? .deleted(url) : existed ? .changed(url) : .appeared(url)
        if case .deleted = change, !existed { return }
        PresenterRegistry.shared.deliver(change, excluding: excluded, fromCoordinator: true)
    }

    private func itemMoved(from: String, to: String) {
        DirectoryQuery.noteChange(at: URL(fileURLWithPath: from))
        DirectoryQuery.noteChange(at: URL(fileURLWithPath: to))
        PresenterRegistry.shared.deliver(
            .moved(from: URL(fileURLWithPath: from), to: URL(fileURLWithPath: to)), excluding: excluded, fromCoordinator: true)
    }

    /// Takes the locks in lock-file order (no two coordinators can wait on each other), reusing
    /// any this thread already holds for the same item, then runs `body`.
    private func withLocks<T>(_ wanted: [(URL, CoordinationLock.Mode)], timeout: Duration?, cancellation: CoordinationCancellation?,
                              _ body: () throws -> T) throws -> T {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var byPath: [String: (URL, CoordinationLock.Mode)] = [:]
        for (url, mode) in wanted {
            let path = CoordinationLock.lockPath(for: url)
            if let existing = byPath[path], existing.1 == .exclusive { continue }
            byPath[path] = (url, mode)
        }
        var taken: [HeldLocks.Ticket] = []
        defer { taken.reversed().forEach(HeldLocks.release) }
        for path in byPath.keys.sorted() {
            let (url, mode) = byPath[path]!
            taken.append(try HeldLocks.acquire(url: url, lockPath: path, mode: mode, deadline: deadline, cancellation: cancellation))
        }
        return try body()
    }
}

/// The locks this thread holds, so a nested coordinated call on the same item reuses its
/// lock instead of waiting for itself.
enum HeldLocks {
    final class Held {
        let lock: CoordinationLock
        var depth = 1
        init(_ lock: CoordinationLock) { self.lock = lock }
    }

    struct Ticket {
        let lockPath: String
        let previousMode: CoordinationLock.Mode?
    }

    private static var table: NSMutableDictionary {
        let dictionary = Thread.current.threadDictionary
        if let table = dictionary["dossier.heldLocks"] as? NSMutableDictionary { return table }
        let table = NSMutableDictionary()
        dictionary["dossier.heldLocks"] = table
        return table
    }

    static func acquire(url: URL, lockPath: String, mode: CoordinationLock.Mode, deadline: ContinuousClock.Instant?,
                        cancellation: CoordinationCancellation?) throws(CoordinationError) -> Ticket {
        if let held = table[lockPath] as? Held {
            let previous = held.lock.mode
            if mode == .exclusive && previous == .shared {
                // A write nested in this thread's own read: upgrade in place.
                try held.lock.convert(to: .exclusive, name: url.lastPathComponent, deadline: deadline, cancellation: cancellation)
            }
            held.depth += 1
            return Ticket(lockPath: lockPath, previousMode: previous)
        }
        let lock = try CoordinationLock(for: url, mode: mode, deadline: deadline, cancellation: cancellation)
        table[lockPath] = Held(lock)
        return Ticket(lockPath: lockPath, previousMode: nil)
    }

    static func release(_ ticket: Ticket) {
        guard let held = table[ticket.lockPath] as? Held else { return }
        held.depth -= 1
        if held.depth == 0 {
            table.removeObject(forKey: ticket.lockPath)
        } else if let previous = ticket.previousMode, previous != held.lock.mode {
            try? held.lock.convert(to: previous, name: "", deadline: nil, cancellation: nil)
        }
    }
}
