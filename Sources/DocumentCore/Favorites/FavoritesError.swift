import Foundation

/// Why the favorites could not be read or changed.
public enum FavoritesError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The bookmarks file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The bookmarks file could not be saved.
    case unwritable(path: String, reason: String)
    /// The location is a favorite already.
    case alreadyFavorite(name: String)
    /// The location is not among the favorites.
    case notFavorite(name: String)
    /// Not a URI or an absolute path.
    case invalidLocation(location: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): tr("The favorites file '%s' could not be read: %s", path, reason)
        case .unwritable(let path, let reason): tr("The favorites file '%s' could not be saved: %s", path, reason)
        case .alreadyFavorite(let name): tr("'%s' is already a favorite", name)
        case .notFavorite(let name): tr("'%s' is not a favorite", name)
        case .invalidLocation(let location): tr("'%s' is not a location: give a URI or an absolute path", location)
        }
    }

    public var errorDescription: String? { description }
}
