import Foundation

/// Why the recent documents could not be read or changed.
public enum RecentsError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// `recently-used.xbel` (or Dossier's own record beside it) is damaged.
    case unreadable(path: String, reason: String)
    /// It could not be written (a full disk, a read-only home…).
    case unwritable(path: String, reason: String)
    /// The document to record is missing or cannot be looked at.
    case cannotRecord(name: String, reason: String)
    /// Another Dossier held the history longer than allowed.
    case busy(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            tr("The recent documents list '%s' could not be read: %s. Remove the file to start a new list", path, reason)
        case .unwritable(let path, let reason):
            tr("The recent documents list '%s' could not be saved: %s", path, reason)
        case .cannotRecord(let name, let reason):
            tr("'%s' could not be added to the recent documents: %s", name, reason)
        case .busy(let path):
            tr("The recent documents list '%s' is busy: another program is still writing it", path)
        }
    }

    public var errorDescription: String? { description }
}
