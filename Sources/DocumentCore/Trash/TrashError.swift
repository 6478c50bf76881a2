import Foundation

/// Why something could not be moved to, restored from or deleted in the Trash, with a
/// message a person can act on.
public enum TrashError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing is at the location.
    case notFound(name: String)
    /// The item is a remote location; only local files can go to the Trash so far.
    case notLocal(name: String)
    /// The item is already inside a trash folder.
    case alreadyInTrash(name: String)
    /// The item is a folder that holds the Trash itself (or is the Trash).
    case containsTrash(name: String)
    /// The item's file system has no trash folder that may be used (Trash spec: never copy
    /// to another file system instead).
    case noTrashOnVolume(name: String, volume: String, reason: String)
    /// The user may not move the item or write in the trash folder.
    case permissionDenied(name: String)
    /// The trash record (`.trashinfo`) could not be written.
    case infoNotWritten(name: String, reason: String)
    /// The item is no longer in the Trash (restored or deleted meanwhile).
    case notInTrash(name: String)
    /// Something is now where the item was when it was trashed.
    case restoreConflict(name: String, folder: String)
    /// No trashed item has the name that was asked for.
    case noSuchItem(name: String)
    /// Several trashed items answer to the name that was asked for; `candidates` are their
    /// paths in the Trash, any of which names exactly one.
    case ambiguous(name: String, candidates: [String])
    /// Putting an item back failed for another reason.
    case restoreFailed(name: String, reason: String)
    /// Deleting an item from the Trash for good failed.
    case deleteFailed(name: String, reason: String)
    /// Moving an item to the Trash failed for another reason.
    case failed(name: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let name):
            tr("“%s” could not be moved to the Trash: it does not exist", name)
        case .notLocal(let name):
            tr("“%s” could not be moved to the Trash: only local files can be trashed", name)
        case .alreadyInTrash(let name):
            tr("“%s” is already in the Trash", name)
        case .containsTrash(let name):
            tr("“%s” could not be moved to the Trash: it contains the Trash itself", name)
        case .noTrashOnVolume(let name, let volume, let reason):
            tr("“%s” could not be moved to the Trash: the drive at “%s” has no usable Trash folder (%s). You can delete it permanently instead.",
               name, volume, reason)
        case .permissionDenied(let name):
            tr("“%s” could not be moved to the Trash: permission denied", name)
        case .infoNotWritten(let name, let reason):
            tr("“%s” could not be moved to the Trash: its Trash record could not be written (%s)", name, reason)
        case .notInTrash(let name):
            tr("“%s” is no longer in the Trash", name)
        case .restoreConflict(let name, let folder):
            tr("“%s” could not be restored: an item with that name already exists in “%s”. Rename or move it, then try again.",
               name, folder)
        case .noSuchItem(let name):
            tr("Nothing named “%s” is in the Trash", name)
        case .ambiguous(let name, let candidates):
            tr("“%s” matches several items in the Trash; name one by its path in the Trash: %s",
               name, candidates.joined(separator: ", "))
        case .restoreFailed(let name, let reason):
            tr("“%s” could not be restored from the Trash: %s", name, reason)
        case .deleteFailed(let name, let reason):
            tr("“%s” could not be deleted from the Trash: %s", name, reason)
        case .failed(let name, let reason):
            tr("“%s” could not be moved to the Trash: %s", name, reason)
        }
    }

    public var errorDescription: String? { description }
}

/// Something wrong found while listing a trash folder: reported, never fatal.
public enum TrashProblem: Sendable, Hashable, CustomStringConvertible {
    /// A `.trashinfo` file that cannot be read or does not follow the Trash specification.
    case malformedInfo(URL, reason: String)
    /// A `.trashinfo` file whose item is missing from `files/`.
    case missingItem(infoURL: URL)
    /// An item in `files/` without its `.trashinfo`: its original place is unknown.
    case missingInfo(itemURL: URL)
    /// A trash folder whose contents could not be read.
    case unreadable(URL, reason: String)

    /// The file the problem is about.
    public var url: URL {
        switch self {
        case .malformedInfo(let url, _), .missingItem(let url), .missingInfo(let url), .unreadable(let url, _): url
        }
    }

    public var description: String {
        switch self {
        case .malformedInfo(let url, let reason):
            tr("The Trash record “%s” is damaged: %s", url.path, reason)
        case .missingItem(let url):
            tr("The Trash record “%s” has no item in the Trash", url.path)
        case .missingInfo(let url):
            tr("“%s” is in the Trash without a record of where it came from", url.path)
        case .unreadable(let url, let reason):
            tr("The Trash folder “%s” could not be read: %s", url.path, reason)
        }
    }
}
