import Foundation

/// What one file operation did, with everything needed to undo it
/// (`FileOperations.undo(_:)`) or to select what it made. URLs the caller passed in come
/// back as given; URLs an operation made up (a new name, a copy, a new folder, a batch's
/// destinations) are file URLs that end in "/" for folders.
public enum FileOperationResult: Sendable, Hashable {
    /// An item was renamed in its folder.
    case renamed(from: URL, to: URL)
    /// A copy of `original` was made beside it.
    case duplicated(original: URL, copy: URL)
    /// An item was moved (same file system: renamed; otherwise copied, then removed).
    case moved(from: URL, to: URL)
    /// `source` was copied to `copy`, a new item.
    case copied(source: URL, copy: URL)
    /// A new, empty folder.
    case createdFolder(URL)
    /// An item went to the Trash.
    case trashed(TrashedItem)
    /// An item went to its remote location's own trash, which Dossier cannot restore from.
    case trashedOnServer(URL)
    /// An item came back from the Trash to `to`.
    case restored(TrashedItem, to: URL)
    /// An item was deleted for good.
    case deleted(URL)

    /// True unless the operation was a permanent deletion or went to a server's trash.
    public var isUndoable: Bool {
        switch self {
        case .deleted, .trashedOnServer: false
        default: true
        }
    }

    /// The item the operation made or put in place: the new name, the copy, the moved item,
    /// the new folder, the item in the Trash or the restored item. Nil after a deletion (or a
    /// move to a server's trash).
    public var resultingURL: URL? {
        switch self {
        case .renamed(_, let url), .duplicated(_, let url), .moved(_, let url), .copied(_, let url),
            .createdFolder(let url), .restored(_, let url):
            url
        case .trashed(let item): item.url
        case .deleted, .trashedOnServer: nil
        }
    }
}

/// What a batch of operations did: the items it finished (each undoable on its own) and
/// the items it could not do. A cancelled batch stops; any other failure skips one item.
public struct FileOperationBatch: Sendable {
    /// The items done, in order; each can be undone on its own.
    public var results: [FileOperationResult] = []
    /// The items that could not be done, in order (a cancellation comes last).
    public var failures: [FileOperationError] = []

    /// True when it stopped because its progress was cancelled.
    public var wasCancelled: Bool {
        failures.contains { if case .cancelled = $0 { true } else { false } }
    }

    /// Makes a batch's outcome from what was done and what was not.
    public init(results: [FileOperationResult] = [], failures: [FileOperationError] = []) {
        self.results = results
        self.failures = failures
    }
}
