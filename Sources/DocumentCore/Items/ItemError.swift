import CGLib
import Foundation
import GObjectSupport

/// Why an item could not be looked at, with a message a person can act on.
public enum ItemError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing is at the location.
    case notFound(name: String)
    /// The user may not look at the item or a folder above it.
    case permissionDenied(name: String)
    /// Symbolic links lead in a circle and never reach an item.
    case symlinkLoop(name: String)
    /// Any other failure, with the system's reason.
    case failed(name: String, reason: String)

    /// Maps a GIO error about `name` onto the cases above.
    init(_ error: GLibError, name: String) {
        if error.isIOError(G_IO_ERROR_NOT_FOUND) {
            self = .notFound(name: name)
        } else if error.isIOError(G_IO_ERROR_PERMISSION_DENIED) {
            self = .permissionDenied(name: name)
        } else if error.isIOError(G_IO_ERROR_TOO_MANY_LINKS) || error.message.contains("symbolic links") {
            self = .symlinkLoop(name: name)
        } else {
            self = .failed(name: name, reason: error.message)
        }
    }

    public var description: String {
        switch self {
        case .notFound(let name): tr("'%s' does not exist", name)
        case .permissionDenied(let name): tr("'%s' could not be opened: permission denied", name)
        case .symlinkLoop(let name): tr("'%s' could not be opened: too many levels of symbolic links", name)
        case .failed(let name, let reason): tr("'%s' could not be opened: %s", name, reason)
        }
    }

    public var errorDescription: String? { description }
}
