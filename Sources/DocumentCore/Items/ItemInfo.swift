import CGLib
import Foundation
import GObjectSupport

/// What Dossier knows about one item (a file or folder) at a glance: its name, kind of file
/// system object, size, dates and document type. Made without ever blocking on the item:
/// FIFOs, sockets and devices are typed by kind, and at most `DocumentType.sniffLength`
/// bytes of a regular file are read.
public struct ItemInfo: Sendable, Hashable {
    /// The kind of file system object.
    public enum Kind: String, Sendable, Codable {
        /// A regular file, a folder, a symbolic link (only when its target is missing), a FIFO, a
        /// socket, a character or block device, or something else.
        case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, other
    }

    /// The item's location as a URI (`file:///…` for local files; GVFS URIs for remote ones).
    public let uri: String
    /// The item's location as a URL: a file URL whose escapes keep a name's bytes (which need
    /// not be UTF-8), or the remote URI.
    public let url: URL
    /// The local path, when the item is on a local (or FUSE-mounted) file system, for showing:
    /// bytes that are not UTF-8 are U+FFFD here, so a file is reached by ``url``.
    public let path: String?
    /// The name to show.
    public let displayName: String
    /// What kind of file system object the item is.
    public let kind: Kind
    /// Set when the item itself is a symbolic link (the other fields describe its target,
    /// or the link itself when the target is missing).
    public let symlinkTarget: String?
    /// The size in bytes (0 for a folder, a device, a FIFO or a socket).
    public let size: Int64
    /// The last modification, when the file system reports one.
    public let modified: Date?
    /// The item's document type.
    public let type: DocumentType
    /// How the type was found: from the contents, the name, or the kind of item.
    public let typeEvidence: TypeEvidence

    /// Looks at the item at `location`, a path or a URI, following symbolic links.
    public static func inspect(_ location: String) throws(ItemError) -> ItemInfo {
        let file = g_file_new_for_commandline_arg(location)!
        defer { unref(file) }
        // The local path keeps its bytes: a name need not be UTF-8.
        let path = FileSystemPath(taking: g_file_get_path(file))
        let fallbackName = (location as NSString).lastPathComponent.isEmpty ? location : (location as NSString).lastPathComponent
        let name = path.map { VisibleName.of($0.displayName) } ?? fallbackName
        let attributes = "standard::type,standard::display-name,standard::size,standard::is-symlink,"
            + "standard::symlink-target,standard::fast-content-type,standard::content-type,time::modified"
        // Remote files: GIO's content type (the backend's or a sniff); local files: our own sniff.
        let queried = path == nil ? attributes : attributes.replacingOccurrences(of: "standard::content-type,", with: "")
        let info: OpaquePointer
        do {
            info = try withGError { g_file_query_info(file, queried, GFileQueryInfoFlags(rawValue: 0), nil, $0) }!
        } catch let error as GLibError {
            throw ItemError(error, name: name)
        } catch {
            throw .failed(name: name, reason: "\(error)")
        }
        defer { unref(info) }

        let kind: Kind
        switch g_file_info_get_file_type(info) {
        case G_FILE_TYPE_DIRECTORY: kind = .directory
        case G_FILE_TYPE_SYMBOLIC_LINK:
            // GIO reports a link it cannot follow as the link itself: a missing target, or a loop.
            if let path, Self.isSymlinkLoop(path) {
                throw .symlinkLoop(name: name)
            }
            kind = .symbolicLink
        case G_FILE_TYPE_REGULAR: kind = .regular
        case G_FILE_TYPE_SPECIAL: kind = Self.specialKind(path: path)
        default: kind = .other
        }
        let isLink = g_file_info_get_is_symlink(info) != 0
        let target = isLink ? borrowString(g_file_info_get_symlink_target(info)) : nil
        let modified = g_file_info_get_modification_date_time(info).map { dateTime -> Date in
            defer { g_date_time_unref(dateTime) }
            return Date(timeIntervalSince1970: TimeInterval(g_date_time_to_unix(dateTime))
                + TimeInterval(g_date_time_get_microsecond(dateTime)) / 1_000_000)
        }
        let uri = takeString(g_file_get_uri(file)) ?? location
        let displayName = borrowString(g_file_info_get_display_name(info)) ?? name

        let type: DocumentType
        let evidence: TypeEvidence
        switch kind {
        case .regular:
            if let path {
                (type, evidence) = Self.sniff(path: path, fileName: path.nameForMatching)
            } else {
                let remote = borrowString(g_file_info_get_content_type(info)) ?? "application/octet-stream"
                (type, evidence) = (DocumentType(mimeType: remote), .content)
            }
        case .directory: (type, evidence) = (.folder, .fileKind)
        case .symbolicLink: (type, evidence) = (.symbolicLink, .fileKind)
        case .fifo: (type, evidence) = (.fifo, .fileKind)
        case .socket: (type, evidence) = (.socket, .fileKind)
        case .characterDevice: (type, evidence) = (.characterDevice, .fileKind)
        case .blockDevice: (type, evidence) = (.blockDevice, .fileKind)
        case .other:
            let fast = borrowString(g_file_info_get_attribute_string(info, "standard::fast-content-type"))
            (type, evidence) = (DocumentType(mimeType: fast ?? "application/octet-stream"), .name)
        }
        return ItemInfo(
            uri: uri, url: path?.url ?? URL(string: uri) ?? URL(fileURLWithPath: "/"), path: path?.description, displayName: displayName, kind: kind, symlinkTarget: target,
            size: kind == .regular || kind == .symbolicLink ? Int64(g_file_info_get_size(info)) : 0,
            modified: modified, type: type, typeEvidence: evidence)
    }

    /// Looks at the item at a URL: a file URL (whose name's bytes may not be UTF-8), or a
    /// remote one GIO reaches.
    public static func inspect(_ url: URL) throws(ItemError) -> ItemInfo {
        try inspect(url.absoluteString)
    }

    private static func isSymlinkLoop(_ path: FileSystemPath) -> Bool {
        var status = stat()
        return path.withCString { stat($0, &status) } != 0 && errno == ELOOP
    }

    private static func specialKind(path: FileSystemPath?) -> Kind {
        guard let path else { return .other }
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else { return .other }
        switch status.st_mode & S_IFMT {
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        default: return .other
        }
    }

    /// Reads the first bytes of a regular file without ever blocking: opened non-blocking,
    /// checked to still be a regular file after opening (it may have been swapped for a FIFO).
    static func sniff(path: FileSystemPath, fileName: String) -> (DocumentType, TypeEvidence) {
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else {
            // Unreadable: the name is all there is.
            return (DocumentType(fileName: fileName), .name)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return (DocumentType(fileName: fileName), .name)
        }
        let wanted = min(DocumentType.sniffLength, Int(max(status.st_size, 0)))
        var buffer = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, wanted - filled, off_t(filled)) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            filled += count
        }
        return buffer.withUnsafeBytes { bytes in
            let result = DocumentType.detect(content: UnsafeRawBufferPointer(rebasing: bytes[0..<filled]), fileName: fileName)
            return (result.type, result.evidence)
        }
    }
}

extension DocumentType {
    /// The type of the item at the local `path` (following links), read from its name and
    /// first bytes. Folders, FIFOs, sockets and devices get their `inode/*` type and are
    /// never read. Faster than `ItemInfo.inspect` when the type is all that is wanted.
    public init(contentsOf path: String) throws(ItemError) {
        try self.init(contentsOf: FileSystemPath(path))
    }

    /// The type of the item at the local `path`, whose bytes need not be UTF-8; see
    /// ``init(contentsOf:)-(String)``.
    public init(contentsOf path: FileSystemPath) throws(ItemError) {
        let name = VisibleName.of(path.displayName)
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else {
            let error = errno
            if error == ELOOP { throw .symlinkLoop(name: name) }
            if error == EACCES { throw .permissionDenied(name: name) }
            var link = stat()
            if error == ENOENT, path.withCString({ lstat($0, &link) }) == 0 {
                self = .symbolicLink  // a link whose target is missing
                return
            }
            if error == ENOENT || error == ENOTDIR { throw .notFound(name: name) }
            throw .failed(name: name, reason: String(cString: strerror(error)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: self = ItemInfo.sniff(path: path, fileName: path.nameForMatching).0
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .data
        }
    }
}
