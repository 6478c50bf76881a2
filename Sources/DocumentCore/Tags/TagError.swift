import Foundation

/// Why tags could not be read or written.
public enum TagError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing is at the location.
    case notFound(name: String)
    /// The item is on a remote location: tags live in extended attributes of local files.
    case notLocal(name: String)
    /// The user may not read or write the item's extended attributes.
    case permissionDenied(name: String)
    /// The file system does not store user extended attributes and no fallback store is set.
    case notSupported(name: String, fileSystem: String)
    /// A tag holds a comma, which separates tags in `user.xdg.tags`.
    case invalidTag(tag: String)
    /// The fallback store `tags.json` could not be read or written.
    case storeFailed(path: String, reason: String)
    /// Any other failure, with the system's reason.
    case failed(name: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let name): tr("'%s' does not exist", name)
        case .notLocal(let name):
            tr("'%s' is on a remote location: tags are kept in extended attributes, so only files on this computer can have them",
               name)
        case .permissionDenied(let name): tr("The tags of '%s' could not be changed: permission denied", name)
        case .notSupported(let name, let fileSystem):
            tr("'%s' cannot have tags: its file system (%s) does not store extended attributes. Move it to your home folder to tag it",
               name, fileSystem)
        case .invalidTag(let tag): tr("'%s' cannot be a tag: tags cannot contain commas", tag)
        case .storeFailed(let path, let reason): tr("The tag store '%s' could not be used: %s", path, reason)
        case .failed(let name, let reason): tr("The tags of '%s' could not be read or written: %s", name, reason)
        }
    }

    public var errorDescription: String? { description }
}
