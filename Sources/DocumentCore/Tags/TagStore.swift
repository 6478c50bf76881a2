import CGLib
import Foundation

/// Where the tags of a file are kept.
public enum TagStorage: Sendable, Equatable {
    /// In the file's `user.xdg.tags` extended attribute, where KDE and other programs see them.
    case extendedAttribute
    /// In Dossier's own `tags.json`, because the file system stores no user extended
    /// attributes: only Dossier sees these tags. Worth telling the user.
    case fallback
}

/// Reads and writes the tags of files: the `user.xdg.tags` extended attribute, comma-separated
/// as KDE writes it. On a file system without user extended attributes (`ENOTSUP`), tags go
/// to a fallback store when one is set (`storage(for:)` says so), else fail with
/// `TagError.notSupported`.
///
/// Writes are coordinated writes of the file, so its presenters (and a `TagIndex`) hear of
/// them at once. Symbolic links are followed. Every method touches the disk: call them off
/// the main thread.
public final class TagStore: Sendable {
    /// The extended attribute the tags live in.
    public static let attributeName = "user.xdg.tags"

    private let fallback: TagFallbackStore?

    /// A store whose fallback is `$XDG_DATA_HOME/dossier/tags.json` of `directories`, or none
    /// when `useFallback` is false.
    public convenience init(directories: UserDirectories = UserDirectories(), useFallback: Bool = true) {
        self.init(fallbackURL: useFallback ? directories.dossierData.appendingPathComponent("tags.json") : nil)
    }

    /// A store with its fallback file at `fallbackURL` (none when nil).
    public init(fallbackURL: URL?) {
        fallback = fallbackURL.map(TagFallbackStore.init)
    }

    /// The fallback file, when there is one.
    public var fallbackURL: URL? { fallback?.url }

    /// The tags of the item at `url`, in their stored order.
    /// - Throws: `TagError.notLocal` for a remote location (tags are local-only).
    public func tags(of url: URL) throws(TagError) -> [String] {
        guard url.isFileURL else { throw .notLocal(name: url.lastPathComponent) }
        let path = url.path
        let name = url.lastPathComponent
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let length = getxattr(path, Self.attributeName, &buffer, buffer.count)
            if length >= 0 {
                return TagList.parse(attribute: buffer[0..<length])
            }
            switch errno {
            case ENODATA: return []
            case ERANGE:
                let needed = getxattr(path, Self.attributeName, nil, 0)
                guard needed > 0 else { return [] }
                buffer = [UInt8](repeating: 0, count: needed)
            case ENOTSUP:
                let (store, identity) = try fallbackStore(for: path, name: name)
                return try store.tags(of: path, identity: identity)
            default:
                throw Self.error(errno, name: name, path: path)
            }
        }
    }

    /// Replaces the tags of the item at `url` (normalized: trimmed, no repeats); an empty
    /// list removes the attribute.
    /// - Throws: `TagError.invalidTag` for a tag with a comma, before anything is written.
    public func setTags(_ tags: [String], of url: URL) throws(TagError) {
        let tags = TagList.normalize(tags)
        if let invalid = TagList.invalidTag(in: tags) { throw .invalidTag(tag: invalid) }
        guard url.isFileURL else { throw .notLocal(name: url.lastPathComponent) }
        let path = url.path
        let name = url.lastPathComponent
        do {
            try FileCoordinator().coordinate(writingItemAt: url) { _ in
                let value = Array(TagList.format(tags).utf8)
                let result = tags.isEmpty
                    ? removexattr(path, Self.attributeName)
                    : setxattr(path, Self.attributeName, value, value.count, 0)
                guard result != 0 else { return }
                switch errno {
                case ENODATA where tags.isEmpty: return
                case ENOTSUP:
                    let (store, identity) = try fallbackStore(for: path, name: name)
                    try store.setTags(tags, of: path, identity: identity)
                default:
                    throw Self.error(errno, name: name, path: path)
                }
            }
        } catch let error as TagError {
            throw error
        } catch {
            throw .failed(name: name, reason: "\(error)")
        }
    }

    /// Adds `tags` after the existing ones (those already there stay where they are).
    public func add(_ tags: [String], to url: URL) throws(TagError) {
        try setTags(try self.tags(of: url) + tags, of: url)
    }

    /// Removes `tags` (compared after trimming spaces); the others keep their order.
    public func remove(_ tags: [String], from url: URL) throws(TagError) {
        let unwanted = Set(TagList.normalize(tags))
        try setTags(try self.tags(of: url).filter { !unwanted.contains($0) }, of: url)
    }

    /// Where the tags of the item at `url` are kept: `.fallback` when its file system stores
    /// no user extended attributes (whether or not a fallback store is set).
    public func storage(for url: URL) -> TagStorage {
        getxattr(url.path, Self.attributeName, nil, 0) < 0 && errno == ENOTSUP ? .fallback : .extendedAttribute
    }

    // MARK: Steps

    private func fallbackStore(for path: String, name: String) throws(TagError) -> (TagFallbackStore, FileIdentity) {
        guard let identity = FileIdentity(path: path, followingLinks: true) else { throw .notFound(name: name) }
        guard let fallback else {
            let table = VolumeTable()
            let type = table.mount(containing: path, identity: identity)?.fileSystemType ?? "?"
            throw .notSupported(name: name, fileSystem: type)
        }
        return (fallback, identity)
    }

    private static func error(_ code: Int32, name: String, path: String) -> TagError {
        switch code {
        case ENOENT, ENOTDIR: return .notFound(name: name)
        case EACCES: return .permissionDenied(name: name)
        case EPERM:
            // Linux allows user attributes on files and folders only; on those, EPERM means
            // an immutable file or one of another user.
            let kind = FileIdentity(path: path, followingLinks: true)?.kind
            if kind == .regular || kind == .directory { return .permissionDenied(name: name) }
            return .failed(name: name, reason: tr("only files and folders can have tags"))
        default: return .failed(name: name, reason: String(cString: strerror(code)))
        }
    }
}
