import Foundation

/// A document backed by one file: the UIDocument of Linux. Subclass it and override
/// `contents()` and `load(fromContents:ofType:)`.
///
/// Reads and writes go through a `FileCoordinator`; saves are atomic (`SafeSave`) and notice
/// when another program saved in between (`documentState` gains `.inConflict`, nothing is
/// overwritten). Edits are autosaved after `autosaveDelay` of quiet, and on close. The
/// document is a `FilePresenter`: it follows moves, reloads when the file changes under it
/// without unsaved edits, and saves when another writer asks. Everything runs on the serial
/// `presentedItemOperationQueue`; the blocking methods may be called from any other thread
/// (not from that queue's callbacks of another document that waits for this one).
open class Document: FilePresenter, @unchecked Sendable {
    // @unchecked: all mutable state is touched only on `presentedItemOperationQueue`.

    /// What the document can do now: a set of conditions, empty when it is open and saved as usual.
    public struct State: OptionSet, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Open, with nothing in the way of reading and saving.
        public static let normal: State = []
        /// Not open: before `open` finished and after `close`.
        public static let closed = State(rawValue: 1)
        /// Another program saved the file since the document read it: `conflict` says how to settle it.
        public static let inConflict = State(rawValue: 2)
        /// The last save failed: `lastSaveError` says why.
        public static let savingError = State(rawValue: 4)
        /// The file or its folder cannot be written: the document opens for reading only.
        public static let editingDisabled = State(rawValue: 8)

        public var description: String {
            let names = [(State.closed, "closed"), (.inConflict, "inConflict"), (.savingError, "savingError"),
                         (.editingDisabled, "editingDisabled")].filter { contains($0.0) }.map(\.1)
            return names.isEmpty ? "normal" : names.joined(separator: ",")
        }
    }

    /// How to settle a conflict.
    public enum ConflictResolution: Sendable {
        /// Keep the unsaved edits: write them over the other version.
        case keepMine
        /// Keep the other version: drop the edits and load it.
        case keepTheirs
        /// Keep both: save the edits beside the file as `copyName`, then load the other version.
        case keepBoth(copyName: String)
    }

    public let presentedItemOperationQueue: DispatchQueue
    private let queueKey = DispatchSpecificKey<Bool>()

    private var url: URL
    private var state: State = .closed
    private var version: FileVersion?
    private var dirty = false
    private var pendingConflict: SaveConflict?
    private var autosave: DispatchWorkItem?
    private var lastError: Error?

    /// How long after the last edit an autosave happens.
    public var autosaveDelay: DispatchTimeInterval = .seconds(2)

    /// Called inside the coordinated save, after the file is written and before other
    /// readers may see it: the place to write the document's thumbnail into the cache.
    public var thumbnailWriter: (@Sendable (Data, URL) throws -> Void)?

    /// Called on the document's queue whenever `documentState` changes.
    public var stateDidChange: (@Sendable (State) -> Void)?

    /// Where opening, creating and editing the document is recorded (the desktop's recent
    /// documents, shared with GNOME Files); nil records nothing. Recording happens in the
    /// background and a failure to record never fails the document.
    public var recents: RecentDocuments? = RecentDocuments()
    private var recordedEdit = false

    /// Makes a closed document for the file at `fileURL`; `open` reads it.
    public init(fileURL: URL) {
        url = fileURL.standardizedFileURL
        presentedItemOperationQueue = DispatchQueue(label: "dossier.document.\(fileURL.lastPathComponent)")
        presentedItemOperationQueue.setSpecific(key: queueKey, value: true)
    }

    // MARK: What subclasses provide

    /// The document's content to save.
    open func contents() throws -> Data { Data() }

    /// Takes in content read from the file.
    open func load(fromContents contents: Data, ofType type: DocumentType) throws {}

    // MARK: State

    /// Where the document's file is now (it follows moves by other programs).
    public var fileURL: URL { onQueue { url } }
    public var presentedItemURL: URL? { onQueue { url } }
    /// What the document can do now; `stateDidChange` reports each change.
    public var documentState: State { onQueue { state } }
    /// Whether the document has edits that are not saved yet.
    public var hasUnsavedChanges: Bool { onQueue { dirty } }
    /// The version of the file the document last read or wrote.
    public var fileVersion: FileVersion? { onQueue { version } }
    /// The conflict to settle while `documentState` contains `.inConflict`.
    public var conflict: SaveConflict? { onQueue { pendingConflict } }
    /// The error of the last failed autosave.
    public var lastSaveError: Error? { onQueue { lastError } }

    // MARK: Opening and closing

    /// Reads the file through the coordinator, reporting to `progress` (total = file size)
    /// and stopping when it is cancelled; then registers as the file's presenter.
    public func open(progress: Progress? = nil) throws {
        try onQueue {
            try readFromDisk(progress: progress)
            FileCoordinator.addFilePresenter(self)
            setState(state.subtracting(.closed))
            recordInRecents(.opened)
        }
    }

    /// Saves unsaved changes, stops presenting the file and marks the document closed.
    public func close() throws {
        try onQueue {
            autosave?.cancel()
            defer {
                FileCoordinator.removeFilePresenter(self)
                setState(.closed)
            }
            if dirty && !state.contains(.inConflict) { try saveNow() }
        }
    }

    /// Drops unsaved changes and reads the file again.
    public func revert() throws {
        try onQueue {
            autosave?.cancel()
            try readFromDisk(progress: nil)
            dirty = false
            pendingConflict = nil
            setState(state.subtracting([.inConflict, .savingError]))
        }
    }

    // MARK: Editing and saving

    /// Records an edit: the document has unsaved changes and autosaves after `autosaveDelay`
    /// without further edits (each edit restarts the wait).
    public func updateChangeCount() {
        onQueue {
            dirty = true
            autosave?.cancel()
            let item = DispatchWorkItem { [weak self] in self?.autosaveNow() }
            autosave = item
            presentedItemOperationQueue.asyncAfter(deadline: .now() + autosaveDelay, execute: item)
        }
    }

    /// Saves now, through the coordinator and atomically.
    /// - Throws: `SaveError.conflict` (the state gains `.inConflict`) or `SaveError.failed`.
    public func save() throws {
        try onQueue { try saveNow() }
    }

    /// Settles a conflict (see `ConflictResolution`).
    public func resolveConflict(_ resolution: ConflictResolution) throws {
        try onQueue {
            guard let conflict = pendingConflict else { return }
            switch resolution {
            case .keepMine:
                version = conflict.current
                pendingConflict = nil
                setState(state.subtracting(.inConflict))
                try saveNow(expecting: conflict.current.map(SaveExpectation.version) ?? .absent)
            case .keepTheirs:
                pendingConflict = nil
                dirty = false
                try readFromDisk(progress: nil)
                setState(state.subtracting(.inConflict))
            case .keepBoth(let copyName):
                let copy = url.deletingLastPathComponent().appendingPathComponent(copyName)
                try FileCoordinator(filePresenter: self).coordinate(writingItemAt: copy) { target in
                    try SafeSave.write(conflict.unsavedContents, to: target, expecting: .absent)
                }
                pendingConflict = nil
                dirty = false
                try readFromDisk(progress: nil)
                setState(state.subtracting(.inConflict))
            }
        }
    }

    // MARK: FilePresenter

    public func presentedItemDidChange() {
        onQueue {
            guard !state.contains(.closed), FileVersion(at: url) != version else { return }
            if dirty {
                markConflict(current: FileVersion(at: url))
            } else {
                try? readFromDisk(progress: nil)
            }
        }
    }

    public func presentedItem(didMoveTo newURL: URL) {
        onQueue { url = newURL }
    }

    public func presentedItemWasDeleted() {
        onQueue {
            guard !state.contains(.closed) else { return }
            markConflict(current: nil)
        }
    }

    public func accommodatePresentedItemDeletion() throws {
        onQueue {
            autosave?.cancel()
            FileCoordinator.removeFilePresenter(self)
            setState(.closed)
        }
    }

    public func savePresentedItemChanges() throws {
        try onQueue {
            if dirty && !state.contains(.inConflict) { try saveNow() }
        }
    }

    // MARK: Work, on the queue

    private func readFromDisk(progress: Progress?) throws {
        let coordinator = FileCoordinator(filePresenter: self)
        let (data, readVersion) = try coordinator.coordinate(readingItemAt: url, options: .withoutChanges) { url in
            try Self.read(url, progress: progress)
        }
        try load(fromContents: data, ofType: (try? DocumentType(contentsOf: url.path)) ?? DocumentType(fileName: url.lastPathComponent))
        version = readVersion
        // A file or folder this user cannot write (a read-only mount, another user's file):
        // the document opens for reading only, and says so.
        let folder = url.deletingLastPathComponent().path
        let writable = access(url.path, W_OK) == 0 && access(folder, W_OK) == 0
        setState(writable ? state.subtracting(.editingDisabled) : state.union(.editingDisabled))
    }

    private func saveNow(expecting explicit: SaveExpectation? = nil) throws {
        autosave?.cancel()
        if state.contains(.editingDisabled) {
            throw SaveError.failed(name: url.lastPathComponent, reason: tr("it is read-only"))
        }
        let data: Data
        do {
            data = try contents()
        } catch {
            // A document that cannot produce its content cannot be saved either.
            lastError = error
            setState(state.union(.savingError))
            throw error
        }
        let expectation = explicit ?? (version.map(SaveExpectation.version) ?? .absent)
        do {
            let written = try FileCoordinator(filePresenter: self).coordinate(writingItemAt: url) { target -> FileVersion in
                let written = try SafeSave.write(data, to: target, expecting: expectation)
                try thumbnailWriter?(data, target)
                return written
            }
            let created = version == nil
            version = written
            dirty = false
            lastError = nil
            // A new file is recorded as created; an existing one as edited, once per opening
            // (autosaves do not rewrite the recent list every few seconds).
            if created {
                recordInRecents(.created)
            } else if !recordedEdit {
                recordedEdit = true
                recordInRecents(.edited)
            }
            setState(state.subtracting(.savingError))
        } catch let error as SaveError {
            if case .conflict(let conflict) = error {
                pendingConflict = conflict
                setState(state.union(.inConflict))
            } else {
                lastError = error
                setState(state.union(.savingError))
            }
            throw error
        }
    }

    private func recordInRecents(_ use: RecentDocuments.Use) {
        guard let recents else { return }
        let url = url
        Task.detached(priority: .utility) { try? recents.record(url, as: use) }
    }

    private func autosaveNow() {
        guard dirty, !state.contains(.closed), !state.contains(.inConflict) else { return }
        do {
            try saveNow()
        } catch {
            lastError = error
        }
    }

    private func markConflict(current: FileVersion?) {
        let expected = version.map(SaveExpectation.version) ?? .absent
        pendingConflict = SaveConflict(url: url, expected: expected, current: current, unsavedContents: (try? contents()) ?? Data())
        setState(state.union(.inConflict))
    }

    private func setState(_ newState: State) {
        guard newState != state else { return }
        state = newState
        stateDidChange?(newState)
    }

    private func onQueue<T>(_ work: () throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: queueKey) == true { return try work() }
        return try presentedItemOperationQueue.sync(execute: work)
    }

    /// Reads a whole file in 1 MiB chunks, reporting progress and honouring cancellation.
    static func read(_ url: URL, progress: Progress?) throws -> (Data, FileVersion?) {
        let fd = Foundation.open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw errno == ENOENT ? ItemError.notFound(name: url.lastPathComponent)
                : errno == EACCES ? ItemError.permissionDenied(name: url.lastPathComponent)
                : ItemError.failed(name: url.lastPathComponent, reason: String(cString: strerror(errno)))
        }
        defer { Foundation.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ItemError.failed(name: url.lastPathComponent, reason: tr("it is not a regular file"))
        }
        progress?.totalUnitCount = Int64(status.st_size)
        var data = Data(capacity: Int(status.st_size))
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            if progress?.isCancelled == true { throw DocumentError.cancelled(name: url.lastPathComponent) }
            let count = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, chunk) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw ItemError.failed(name: url.lastPathComponent, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
            progress?.completedUnitCount = Int64(data.count)
        }
        return (data, FileVersion(status))
    }
}

/// Why a document operation stopped.
public enum DocumentError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Opening was cancelled through its `Progress` before the file was read.
    case cancelled(name: String)

    public var description: String {
        switch self {
        case .cancelled(let name): tr("Opening '%s' was cancelled", name)
        }
    }

    public var errorDescription: String? { description }
}
