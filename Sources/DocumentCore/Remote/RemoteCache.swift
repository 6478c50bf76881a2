import CGLib
import Foundation
import GObjectSupport

/// Dossier's copies of remote files, in `$XDG_CACHE_HOME/dossier/remote/`: one private folder
/// per version of a file, named by hashes of its URI and of its version (the server's ETag,
/// else its size and modification time), holding the file under its own name (so apps and
/// type detection see `report.pdf`, not a hash).
///
/// A copy is whole or absent: a download writes a temporary name in the entry's folder and
/// renames it to the file's name only once it holds exactly the bytes the server announced,
/// and a lookup takes a file only at that size. A changed file on the server has another
/// version, so another entry: it downloads again, and older versions of it are dropped.
/// The cache is bounded: the least recently used entries go first, never one in use (a
/// `RemoteCopy` holds a shared lock on its file, across processes too).
package struct RemoteCache: Sendable {
    /// The cache's folder.
    package let root: URL
    /// The most bytes the cache holds; a larger file is refused.
    package let limit: Int64

    /// 2 GiB unless told.
    package static let defaultLimit: Int64 = 2 << 30

    /// Makes a cache in `root` (`$XDG_CACHE_HOME/dossier/remote` by default) holding at most `limit` bytes.
    package init(root: URL? = nil, limit: Int64 = RemoteCache.defaultLimit) {
        self.root = root ?? URL(fileURLWithPath: String(cString: g_get_user_cache_dir()))
            .appendingPathComponent("dossier/remote", isDirectory: true)
        self.limit = limit
    }

    /// The entry folder's name: a hash of the URI, a dash, a hash of the version.
    static func entryName(for info: RemoteFileInfo) -> String {
        hash(info.uri, length: 32) + "-" + hash(info.versionKey, length: 16)
    }

    static func hash(_ text: String, length: Int) -> String {
        String((takeString(g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1)) ?? "").prefix(length))
    }

    /// The name the copy is stored under: the server's, when it is a safe file name here
    /// (no `/`, not `.` or `..`, no NUL, not empty); cut to 255 bytes, keeping its extension.
    static func fileName(for info: RemoteFileInfo) throws(RemoteDownloadError) -> String {
        let name = info.name
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw .unsafeName(name)
        }
        guard name.utf8.count > 255 else { return name }
        let ext = (name as NSString).pathExtension
        let suffix = ext.isEmpty || ext.utf8.count > 32 ? "" : "." + ext
        var stem = Substring(name.dropLast(suffix.count))
        while stem.utf8.count + suffix.utf8.count > 255 { stem = stem.dropLast() }
        return String(stem) + suffix
    }

    /// The folder of `info`'s entry.
    func folder(for info: RemoteFileInfo) -> URL {
        root.appendingPathComponent(Self.entryName(for: info), isDirectory: true)
    }

    /// The whole copy of this version of the file, if the cache has it (and it is marked as
    /// just used, and held against eviction while the returned copy lives).
    package func lookup(_ info: RemoteFileInfo) -> RemoteCopy? {
        guard let name = try? Self.fileName(for: info) else { return nil }
        let folder = folder(for: info)
        let url = folder.appendingPathComponent(name)
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var status = stat()
        var named = stat()
        // Locked first, then checked to be still the file of that name: an eviction between the
        // open and the lock has unlinked it.
        guard dossier_ofd_lock(fd, 0, 0) == 0, fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              info.size < 0 || Int64(status.st_size) == info.size, lstat(url.path, &named) == 0, named.st_ino == status.st_ino
        else {
            close(fd)
            return nil
        }
        // The folder's time is the entry's last use (eviction takes the oldest first).
        utimes(folder.path, nil)
        return RemoteCopy(url: url, info: info, lockedDescriptor: fd)
    }

    /// Makes the root and the entry's folder (0700), and opens a new temporary file in it;
    /// returns its descriptor and path.
    func makePartial(for info: RemoteFileInfo) throws(RemoteDownloadError) -> (fd: Int32, path: String) {
        let folder = folder(for: info)
        guard g_mkdir_with_parents(folder.path, 0o700) == 0 else {
            throw .cache(reason: String(cString: strerror(errno)))
        }
        let path = folder.appendingPathComponent(".partial-\(UUID().uuidString)").path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cache(reason: String(cString: strerror(errno))) }
        return (fd, path)
    }

    /// Gives a finished temporary file the copy's name, after checking it holds exactly the
    /// announced size; then drops other versions of the file and keeps the cache in its bound.
    func complete(partial path: String, received: Int64, for info: RemoteFileInfo) throws(RemoteDownloadError) {
        let name = try Self.fileName(for: info)
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .cache(reason: String(cString: strerror(errno))) }
        guard Int64(status.st_size) == received, info.size < 0 || received == info.size else {
            unlink(path)
            throw .sizeMismatch(name: info.displayName, expected: info.size, received: Int64(status.st_size))
        }
        let final = folder(for: info).appendingPathComponent(name).path
        guard rename(path, final) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(path)
            throw .cache(reason: reason)
        }
        trim(keeping: Self.entryName(for: info), droppingVersionsOf: info.uri)
    }

    /// Removes entries, least recently used first, until the cache holds at most `limit`
    /// bytes; entries of other versions of `uri` go first. Entries in use stay, and so does
    /// `kept`.
    func trim(keeping kept: String? = nil, droppingVersionsOf uri: String? = nil) {
        let uriHash = uri.map { Self.hash($0, length: 32) + "-" }
        var entries: [(name: String, used: Int64, bytes: Int64)] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names {
            let folder = root.appendingPathComponent(name)
            var status = stat()
            guard lstat(folder.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { continue }
            let bytes = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).reduce(Int64(0)) { total, file in
                var fileStatus = stat()
                return total + (lstat(folder.appendingPathComponent(file).path, &fileStatus) == 0 ? Int64(fileStatus.st_size) : 0)
            }
            entries.append((name, Int64(status.st_mtim.tv_sec), bytes))
        }
        var total = entries.reduce(Int64(0)) { $0 + $1.bytes }
        // Older versions of the file just fetched, then the rest, oldest use first.
        let ordered = entries.sorted { a, b in
            let aOld = uriHash.map { a.name.hasPrefix($0) } ?? false
            let bOld = uriHash.map { b.name.hasPrefix($0) } ?? false
            return aOld != bOld ? aOld : a.used < b.used
        }
        for entry in ordered where entry.name != kept {
            let isOldVersion = uriHash.map { entry.name.hasPrefix($0) } ?? false
            guard isOldVersion || total > limit else { continue }
            if removeUnlessInUse(root.appendingPathComponent(entry.name)) { total -= entry.bytes }
        }
    }

    /// Removes an entry's folder unless a copy in it is held (a shared lock on its file), a
    /// download is writing it (a temporary file younger than a day) or it is an edited copy
    /// with changes not yet uploaded (`.changed`); true when removed.
    private func removeUnlessInUse(_ folder: URL) -> Bool {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        if files.contains(Self.changedName) { return false }
        var locks: [Int32] = []
        defer { locks.forEach { close($0) } }
        for file in files {
            let path = folder.appendingPathComponent(file).path
            if file.hasPrefix(".partial-") {
                var status = stat()
                if lstat(path, &status) == 0, Date().timeIntervalSince1970 - Double(status.st_mtim.tv_sec) < 24 * 60 * 60 {
                    return false
                }
                continue
            }
            let fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            locks.append(fd)
            if dossier_ofd_lock(fd, 1, 0) != 0 { return false }
        }
        for file in files { unlink(folder.appendingPathComponent(file).path) }
        return rmdir(folder.path) == 0
    }
}

/// A whole copy of a remote file in the cache, held against eviction while this lives.
package final class RemoteCopy: Sendable {
    /// The local copy (read it; do not change it).
    package let url: URL
    /// The version of the remote file it is a copy of.
    package let info: RemoteFileInfo
    private let lockedDescriptor: Int32

    init(url: URL, info: RemoteFileInfo, lockedDescriptor: Int32) {
        self.url = url
        self.info = info
        self.lockedDescriptor = lockedDescriptor
    }

    deinit { close(lockedDescriptor) }
}
