import CGLib
import Foundation

/// Reads one folder in batches: `readdir` (getdents underneath) on the folder's descriptor and
/// `fstatat(AT_SYMLINK_NOFOLLOW)` on each name, which is what `find` does and the least a
/// listing with sizes and dates can cost. Blocking: used only on a query's background queue.
final class FolderReader {
    let folder: QueryFolder
    /// Names the folder's `.hidden` file lists (one a line, as GTK and Files read it).
    let hiddenNames: Set<PathKey>
    private let stream: OpaquePointer
    private let descriptor: Int32

    init(folder: QueryFolder) throws(DirectoryQueryError) {
        self.folder = folder
        // A folder whose path is not UTF-8 (`DirectoryQuery.normalizedPath`): never read as
        // "/", nor as the folder its U+FFFD text would name.
        guard !folder.path.isEmpty else {
            throw .failed(name: "\u{FFFD}", reason: tr("its name is not UTF-8, which the browser cannot list yet"))
        }
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DirectoryQueryError(errno: errno, name: folder.displayName) }
        guard let stream = fdopendir(descriptor) else {
            let code = errno
            close(descriptor)
            throw DirectoryQueryError(errno: code, name: folder.displayName)
        }
        self.descriptor = descriptor
        self.stream = stream
        hiddenNames = Self.readHiddenFile(in: descriptor)
    }

    deinit {
        closedir(stream)  // closes the descriptor too
    }

    /// Appends up to `limit` items; false once the folder has no more entries. Entries that
    /// vanish between `readdir` and `fstatat` are skipped: they were removed while listing.
    func read(limit: Int, into items: inout [QueryItem], namer: TypeNamer) throws(DirectoryQueryError) -> Bool {
        var added = 0
        while added < limit {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw DirectoryQueryError(errno: errno, name: folder.displayName) }
                return false
            }
            let namePointer = UnsafeRawPointer(entry).advanced(by: Self.nameOffset).assumingMemoryBound(to: CChar.self)
            if Self.isDotOrDotDot(namePointer) { continue }
            var status = stat()
            guard fstatat(descriptor, namePointer, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            // A name's bytes need not be UTF-8: kept when they are not. (Validating as the
            // string is made costs what `String(cString:)` did; a second pass would not.)
            let name: String
            var nameBytes: [UInt8]?
            if let valid = String(validatingCString: namePointer) {
                name = valid
            } else {
                let bytes = UnsafeRawBufferPointer(start: namePointer, count: strlen(namePointer))
                name = String(decoding: bytes, as: UTF8.self)
                nameBytes = Array(bytes)
            }
            var target: stat? = nil
            if status.st_mode & S_IFMT == S_IFLNK {
                var followed = stat()
                if fstatat(descriptor, namePointer, &followed, 0) == 0 { target = followed }
            }
            items.append(
                ItemMaking.item(
                    name: name, parent: folder, status: status, target: target,
                    listedHidden: hiddenNames.contains(PathKey(name)), namer: namer, nameBytes: nameBytes))
            added += 1
        }
        return true
    }

    /// Reads the `.hidden` file of the folder at `path`; empty when there is none.
    static func hiddenNames(inFolderAt path: String) -> Set<PathKey> {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        return readHiddenFile(in: descriptor)
    }

    private static func readHiddenFile(in folder: Int32) -> Set<PathKey> {
        let file = openat(folder, ".hidden", O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard file >= 0 else { return [] }
        defer { close(file) }
        var status = stat()
        // A FIFO or a huge file called .hidden is not a list of names.
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size < 1 << 20 else { return [] }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        return Set(lines.map { PathKey($0.hasSuffix("\r") ? String($0.dropLast()) : String($0)) })
    }

    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19

    private static func isDotOrDotDot(_ name: UnsafePointer<CChar>) -> Bool {
        name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
    }
}

/// Makes items from `stat` results, shared by the folder reader and single-entry checks.
enum ItemMaking {
    static func item(
        name: String, parent: QueryFolder, status: stat, target: stat?, listedHidden: Bool, namer: TypeNamer,
        nameBytes: [UInt8]? = nil
    ) -> QueryItem {
        let isSymlink = status.st_mode & S_IFMT == S_IFLNK
        let described = target ?? status
        let format = described.st_mode & S_IFMT
        let type: DocumentType
        switch format {
        case S_IFREG: type = namer.type(forName: name)
        case S_IFDIR: type = .folder
        case S_IFLNK: type = .symbolicLink  // a link whose target is missing
        case S_IFIFO: type = .fifo
        case S_IFSOCK: type = .socket
        case S_IFCHR: type = .characterDevice
        case S_IFBLK: type = .blockDevice
        default: type = .data
        }
        let time = described.st_mtim
        return QueryItem(
            name: name, parent: parent, isDirectory: format == S_IFDIR, isSymlink: isSymlink,
            isHidden: name.hasPrefix(".") || listedHidden,
            size: format == S_IFREG || format == S_IFLNK ? Int64(described.st_size) : 0,
            modified: Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000),
            type: type, nameBytes: nameBytes)
    }

    /// Looks at the entry `name` of `parent` again; nil when it is gone.
    static func item(named name: String, in parent: QueryFolder, listedHidden: Bool, namer: TypeNamer) -> QueryItem? {
        let path = parent.childPath(name)
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        var target: stat? = nil
        if status.st_mode & S_IFMT == S_IFLNK {
            var followed = stat()
            if stat(path, &followed) == 0 { target = followed }
        }
        return item(name: name, parent: parent, status: status, target: target, listedHidden: listedHidden, namer: namer)
    }
}

/// Types by name for one query: `DocumentType(fileName:)`, with the MIME type GIO guesses
/// made into a `DocumentType` once per distinct answer (its normalisation goes through
/// Foundation and costs more than the guess), so every item of a type shares one identifier.
final class TypeNamer {
    private var types: [String: DocumentType] = [:]

    func type(forName name: String) -> DocumentType {
        var uncertain: gboolean = 0
        guard let guessed = g_content_type_guess(name, nil, 0, &uncertain) else { return .data }
        defer { g_free(guessed) }
        let mimeType = String(cString: guessed)
        if let known = types[mimeType] { return known }
        let type = DocumentType(mimeType: mimeType)
        types[mimeType] = type
        return type
    }
}

extension QueryFolder {
    /// The name errors show: the folder's own name, or its path for "/".
    var displayName: String {
        if isRemote, let url = URL(string: path) {
            let name = url.lastPathComponent
            return name.isEmpty || name == "/" ? (url.host ?? path) : name
        }
        let name = (path as NSString).lastPathComponent
        return name.isEmpty ? path : name
    }
}
