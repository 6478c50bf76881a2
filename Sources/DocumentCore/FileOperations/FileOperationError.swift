import CGLib
import Foundation
import GObjectSupport

/// The operations `FileOperations` performs, as named in error messages.
public enum FileOperationKind: String, Sendable, Hashable, Codable {
    /// Rename, duplicate, move, copy, new folder, delete for good, move to Trash, restore from Trash.
    case rename, duplicate, move, copy, createFolder, delete, trash, restore
}

/// Why a file operation failed, with a message a person can act on:
/// "“a.txt” could not be renamed: a file named “b.txt” already exists".
public enum FileOperationError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The item (or the folder to work in) does not exist.
    case notFound(FileOperationKind, name: String)
    /// Something already has the name the operation wanted to use.
    case alreadyExists(FileOperationKind, name: String, existing: String, isFolder: Bool)
    /// The new name cannot name an item.
    case invalidName(FileOperationKind, name: String, newName: String, problem: NameProblem)
    /// A folder cannot be moved or copied into itself or into one of its subfolders.
    case intoItself(FileOperationKind, name: String)
    /// The operation works on local files only (bookmarks, tags, the freedesktop Trash).
    case notLocal(FileOperationKind, name: String)
    /// The item is on a location without a trash (most servers): it can only be deleted for good.
    case trashNotSupported(name: String)
    /// A device or socket: nothing that can be copied.
    case specialFile(FileOperationKind, name: String)
    /// A folder that (through a bind mount) contains itself.
    case loop(FileOperationKind, name: String)
    /// The user may not read the item or write in its folder.
    case permissionDenied(FileOperationKind, name: String)
    /// The item is on a read-only file system.
    case readOnly(FileOperationKind, name: String)
    /// The file system has no room left for the result.
    case noSpace(FileOperationKind, name: String)
    /// Stopped through its `Progress`; whatever it had made is gone again.
    case cancelled(FileOperationKind, name: String)
    /// A move between file systems copied the item but could not remove the original.
    case originalNotRemoved(name: String, reason: String)
    /// The result cannot be undone (a permanent deletion).
    case notUndoable(FileOperationKind, name: String)
    /// Moving to, restoring from or deleting in the Trash failed.
    case trash(TrashError)
    /// Any other failure, with the system's reason.
    case failed(FileOperationKind, name: String, reason: String)

    public var description: String {
        switch self {
        case .trash(let error):
            return error.description
        case .originalNotRemoved(let name, let reason):
            return tr("“%s” was copied to its new place but could not be removed from the old one: %s", name, reason)
        case .notUndoable(.trash, let name):
            return tr("“%s” went to its server's trash, which Dossier cannot restore from", name)
        case .notUndoable(_, let name):
            return tr("Deleting “%s” cannot be undone", name)
        default:
            return tr("%s: %s", headline, reason)
        }
    }

    public var errorDescription: String? { description }

    /// What failed: "“a.txt” could not be renamed".
    private var headline: String {
        let (kind, name) = subject
        return switch kind {
        case .rename: tr("“%s” could not be renamed", name)
        case .duplicate: tr("“%s” could not be duplicated", name)
        case .move: tr("“%s” could not be moved", name)
        case .copy: tr("“%s” could not be copied", name)
        case .createFolder: tr("The folder “%s” could not be created", name)
        case .delete: tr("“%s” could not be deleted", name)
        case .trash: tr("“%s” could not be moved to the Trash", name)
        case .restore: tr("“%s” could not be restored from the Trash", name)
        }
    }

    /// Why it failed: "a file named “b.txt” already exists".
    var reason: String {
        switch self {
        case .notFound: tr("it does not exist")
        case .alreadyExists(_, _, let existing, let isFolder):
            isFolder ? tr("a folder named “%s” already exists", existing) : tr("a file named “%s” already exists", existing)
        case .invalidName(_, _, let newName, let problem):
            switch problem {
            case .empty: tr("a name cannot be empty")
            case .containsSlash: tr("a name cannot contain “/”")
            case .containsNul: tr("a name cannot contain a NUL character")
            case .reserved: tr("“%s” is reserved and cannot be used as a name", newName)
            case .tooLong: tr("the name is longer than 255 bytes")
            }
        case .intoItself: tr("a folder cannot be put inside itself")
        case .notLocal: tr("only local files are supported")
        case .trashNotSupported: tr("its location has no trash; it can only be deleted permanently")
        case .specialFile: tr("it is a device or socket, which cannot be copied")
        case .loop: tr("the folder contains itself through a mount")
        case .permissionDenied: tr("permission denied")
        case .readOnly: tr("the file system is read-only")
        case .noSpace: tr("there is not enough space left")
        case .cancelled: tr("the operation was cancelled")
        case .failed(_, _, let reason): reason
        case .trash, .originalNotRemoved, .notUndoable: ""
        }
    }

    private var subject: (FileOperationKind, String) {
        switch self {
        case .notFound(let kind, let name), .alreadyExists(let kind, let name, _, _), .invalidName(let kind, let name, _, _),
            .intoItself(let kind, let name), .notLocal(let kind, let name), .specialFile(let kind, let name),
            .loop(let kind, let name), .permissionDenied(let kind, let name), .readOnly(let kind, let name),
            .noSpace(let kind, let name), .cancelled(let kind, let name), .notUndoable(let kind, let name),
            .failed(let kind, let name, _):
            (kind, name)
        case .originalNotRemoved(let name, _): (.move, name)
        case .trashNotSupported(let name): (.trash, name)
        case .trash: (.trash, "")
        }
    }

    /// Maps an errno from working on `path` onto the cases above.
    init(_ error: SystemError, _ kind: FileOperationKind, path: String) {
        let name = Self.displayName(path)
        switch error.code {
        case ENOENT, ENOTDIR: self = .notFound(kind, name: name)
        case EEXIST, ENOTEMPTY:
            self = .alreadyExists(kind, name: name, existing: name, isFolder: FileStatus.existing(path)?.isDirectory ?? false)
        case EACCES, EPERM: self = .permissionDenied(kind, name: name)
        case EROFS: self = .readOnly(kind, name: name)
        case ENOSPC, EDQUOT: self = .noSpace(kind, name: name)
        case ENAMETOOLONG: self = .invalidName(kind, name: name, newName: name, problem: .tooLong)
        default: self = .failed(kind, name: name, reason: error.message)
        }
    }

    /// Maps a GIO error from working on `path` onto the cases above.
    init(_ error: GLibError, _ kind: FileOperationKind, path: String) {
        let name = Self.displayName(path)
        if error.isIOError(G_IO_ERROR_NOT_FOUND) {
            self = .notFound(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_EXISTS) {
            self = .alreadyExists(kind, name: name, existing: name, isFolder: FileStatus.existing(path)?.isDirectory ?? false)
        } else if error.isIOError(G_IO_ERROR_PERMISSION_DENIED) {
            self = .permissionDenied(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_READ_ONLY) {
            self = .readOnly(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_NO_SPACE) {
            self = .noSpace(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_CANCELLED) {
            self = .cancelled(kind, name: name)
        } else {
            self = .failed(kind, name: name, reason: error.message)
        }
    }

    /// Maps a GIO error from working on a location that may be remote (no local look-ups).
    init(_ error: GLibError, _ kind: FileOperationKind, name: String, isFolder: Bool = false) {
        if error.isIOError(G_IO_ERROR_NOT_FOUND) {
            self = .notFound(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_EXISTS) {
            self = .alreadyExists(kind, name: name, existing: name, isFolder: isFolder)
        } else if error.isIOError(G_IO_ERROR_PERMISSION_DENIED) {
            self = .permissionDenied(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_READ_ONLY) {
            self = .readOnly(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_NO_SPACE) {
            self = .noSpace(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_CANCELLED) {
            self = .cancelled(kind, name: name)
        } else if error.isIOError(G_IO_ERROR_INVALID_FILENAME) {
            self = .invalidName(kind, name: name, newName: name, problem: .reserved)
        } else {
            self = .failed(kind, name: name, reason: error.message)
        }
    }

    static func displayName(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return name.isEmpty ? path : name
    }
}
