import Foundation

/// Why a thumbnail could not be made.
public enum ThumbnailError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError, Codable {
    /// The file could not be read, with the system's reason.
    case unreadable(name: String, reason: String)
    /// The picture is larger in pixels than a thumbnail is made from.
    case tooLarge(name: String, width: Int, height: Int)
    /// The file is larger than the limit for its kind (given as text, "50 MB").
    case fileTooLarge(name: String, limit: String)
    /// The decoder refused the content, with its reason.
    case decodingFailed(name: String, reason: String)
    /// No built-in or installed thumbnailer handles the file's type.
    case noThumbnailer(name: String, type: String)
    /// An installed thumbnailer failed on the file, with its reason.
    case thumbnailerFailed(name: String, thumbnailer: String, reason: String)
    /// An installed thumbnailer ran past its time limit and was stopped.
    case timedOut(name: String, thumbnailer: String, seconds: Int)
    /// The file changed while it was read: the thumbnail would not match it.
    case changedWhileReading(name: String)
    /// The file is a thumbnail in the cache itself, which is never thumbnailed.
    case insideCache(name: String)
    /// A failure was recorded for this version of the file; it is tried again when the file changes.
    case failedBefore(name: String)
    /// The request was cancelled before the thumbnail was made.
    case cancelled(name: String)

    public var description: String {
        switch self {
        case .unreadable(let name, let reason): tr("'%s' could not be read: %s", name, reason)
        case .tooLarge(let name, let width, let height):
            tr("'%s' is too large to thumbnail (%s × %s pixels)", name, String(width), String(height))
        case .fileTooLarge(let name, let limit): tr("'%s' is larger than %s, the limit for its kind", name, limit)
        case .decodingFailed(let name, let reason): tr("'%s' could not be decoded: %s", name, reason)
        case .noThumbnailer(let name, let type): tr("No thumbnailer is installed for '%s' (%s)", name, type)
        case .thumbnailerFailed(let name, let thumbnailer, let reason):
            tr("The thumbnailer %s failed on '%s': %s", thumbnailer, name, reason)
        case .timedOut(let name, let thumbnailer, let seconds):
            tr("The thumbnailer %s took longer than %s seconds on '%s' and was stopped", thumbnailer, String(seconds), name)
        case .changedWhileReading(let name): tr("'%s' changed while its thumbnail was being made", name)
        case .insideCache(let name): tr("'%s' is inside the thumbnail cache and is never thumbnailed", name)
        case .failedBefore(let name): tr("Making a thumbnail of '%s' failed before; it is tried again when the file changes", name)
        case .cancelled(let name): tr("The thumbnail of '%s' was cancelled", name)
        }
    }

    public var errorDescription: String? { description }
}
