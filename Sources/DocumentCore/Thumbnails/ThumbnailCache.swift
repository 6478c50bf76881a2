import CGLib
import CImaging
import Foundation
import GObjectSupport

/// The desktop's shared thumbnail cache, as the Thumbnail Managing Standard lays it out:
/// `$XDG_CACHE_HOME/thumbnails/{normal,large,x-large,xx-large}/<MD5 of the URI>.png`, each a
/// PNG carrying `Thumb::URI` and `Thumb::MTime`, valid only while `Thumb::MTime` equals the
/// file's modification time. Nautilus, GNOME's thumbnailers and Dossier read each other's.
/// Failures are recorded under `fail/dossier-<version>/` and not retried until the file
/// changes. Folders are 0700, files 0600, written to a temporary name and renamed.
public struct ThumbnailCache: Sendable {
    /// The cache's root, `$XDG_CACHE_HOME/thumbnails` unless given.
    public let root: URL

    /// Makes a cache in `root`, `$XDG_CACHE_HOME/thumbnails` by default.
    public init(root: URL? = nil) {
        self.root = root ?? URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("thumbnails")
    }

    /// Where the thumbnail of `uri` at `size` is (or would be).
    public func location(of uri: String, size: ThumbnailSize) -> URL {
        root.appendingPathComponent(size.folderName).appendingPathComponent(Self.fileName(for: uri))
    }

    /// Where a failure for `uri` is recorded.
    public func failureLocation(of uri: String) -> URL {
        root.appendingPathComponent("fail/dossier-\(dossierVersion)").appendingPathComponent(Self.fileName(for: uri))
    }

    /// `<MD5 of the URI>.png`, the name every implementation of the standard computes alike.
    public static func fileName(for uri: String) -> String {
        (takeString(g_compute_checksum_for_string(G_CHECKSUM_MD5, uri, -1)) ?? "") + ".png"
    }

    /// The valid thumbnail of `uri` whose file was modified at `modified` (seconds), if any.
    public func lookup(_ uri: String, modified: Int64, size: ThumbnailSize) -> URL? {
        let location = location(of: uri, size: size)
        return Self.isValid(location.path, uri: uri, modified: modified) ? location : nil
    }

    /// True when making a thumbnail of this version of the file already failed.
    public func hasFailed(_ uri: String, modified: Int64) -> Bool {
        Self.isValid(failureLocation(of: uri).path, uri: uri, modified: modified)
    }

    /// True for paths inside the cache, which are never thumbnailed.
    public func contains(_ path: String) -> Bool {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        return standardized == root.path || standardized.hasPrefix(root.standardizedFileURL.path + "/")
    }

    static func isValid(_ path: String, uri: String, modified: Int64) -> Bool {
        guard let png = PNGText.read(path) else { return false }
        return png.text["Thumb::URI"] == uri && png.text["Thumb::MTime"].flatMap { Int64($0) } == modified
    }

    /// Stores a thumbnail with the keys of the standard; returns where it went.
    func store(_ image: Pixbuf, for source: ThumbnailSource, size: ThumbnailSize) throws(ThumbnailError) -> URL {
        let location = location(of: source.uri, size: size)
        try makeFolder(location.deletingLastPathComponent())
        var text: [(String, String)] = [
            ("Thumb::URI", source.uri),
            ("Thumb::MTime", String(source.modified)),
            ("Thumb::Size", String(source.size)),
            ("Thumb::Mimetype", source.type.identifier),
            ("Software", "Dossier \(dossierVersion)"),
        ]
        if let dimensions = source.dimensions {
            text.append(("Thumb::Image::Width", String(dimensions.width)))
            text.append(("Thumb::Image::Height", String(dimensions.height)))
        }
        try image.savePNG(to: location, text: text)
        return location
    }

    /// Records that making a thumbnail of this version of the file failed.
    func recordFailure(for source: ThumbnailSource) {
        let location = failureLocation(of: source.uri)
        guard (try? makeFolder(location.deletingLastPathComponent())) != nil,
              let empty = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, 1, 1)
        else { return }
        gdk_pixbuf_fill(empty, 0)
        try? Pixbuf(adopting: empty).savePNG(
            to: location, text: [("Thumb::URI", source.uri), ("Thumb::MTime", String(source.modified)),
                                 ("Software", "Dossier \(dossierVersion)")])
    }

    private func makeFolder(_ folder: URL) throws(ThumbnailError) {
        // Each level the cache owns is 0700, per the standard.
        var missing: [URL] = []
        var current = folder
        while !FileManager.default.fileExists(atPath: current.path), current.path != "/" {
            missing.append(current)
            current = current.deletingLastPathComponent()
        }
        for url in missing.reversed() {
            if mkdir(url.path, 0o700) != 0 && errno != EEXIST {
                throw .unreadable(name: url.lastPathComponent, reason: String(cString: strerror(errno)))
            }
        }
    }
}

/// The file a thumbnail is made of, as seen when the work started.
package struct ThumbnailSource: Sendable {
    let url: URL
    let uri: String
    /// The path the thumbnailers read: the file's, or for a name that is not UTF-8 its held
    /// descriptor's (`/proc/self/fd/N`).
    package let path: String
    /// The file's own path, its bytes (for the helpers' sandbox and the cache check).
    package let rawPath: FileSystemPath
    package let name: String
    let type: DocumentType
    let size: Int64
    let modified: Int64
    let modifiedNanoseconds: Int64
    /// The image's own size, when a thumbnailer learned it (written as `Thumb::Image::*`).
    package var dimensions: (width: Int, height: Int)?
    /// True when `path` is a downloaded copy of the remote file `uri` names.
    var isDownloadedCopy = false
    /// The file held open for a name that is not UTF-8, which `path` then reaches through.
    private var opened: HeldFile?

    init(url: URL) throws(ThumbnailError) {
        let standardized = url.standardizedFileURL
        self.url = standardized
        let rawPath = standardized.rawPath
        self.rawPath = rawPath
        name = standardized.fileDisplayName
        if let valid = rawPath.string {
            path = valid
        } else {
            // A path string cannot carry the name's bytes: the thumbnailers read the file
            // through the descriptor held open here, as a worker reads its input.
            let fd = rawPath.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
            guard fd >= 0 else { throw .unreadable(name: name, reason: String(cString: strerror(errno))) }
            opened = HeldFile(fd)
            path = "/proc/self/fd/\(fd)"
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .unreadable(name: name, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(name: name, reason: tr("it is not a regular file"))
        }
        let file = rawPath.withCString { g_file_new_for_path($0) }
        uri = takeString(g_file_get_uri(file)) ?? self.url.absoluteString
        unref(file)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        type = (try? DocumentType(contentsOf: rawPath)) ?? DocumentType(fileName: rawPath.nameForMatching)
    }

    /// A remote file, read from its downloaded copy: keyed by the server's URI and the
    /// modification time the server reports, as the standard asks for any URI.
    init(remote info: RemoteFileInfo, copy: URL) {
        url = copy
        path = copy.path
        rawPath = copy.rawPath
        uri = info.uri
        name = info.displayName
        size = info.size
        modified = info.modified
        modifiedNanoseconds = info.modifiedMicroseconds * 1000
        type = (try? DocumentType(contentsOf: copy.path)) ?? DocumentType(fileName: info.name)
        isDownloadedCopy = true
    }

    /// The file a decoder worker was given, open at `input`: read through /proc/self/fd, and
    /// never checked for changes (the process that asked does that).
    package init(workerInput input: Int32, name: String, size: Int64, type: DocumentType) {
        path = "/proc/self/fd/\(input)"
        rawPath = FileSystemPath(path)
        url = URL(fileURLWithPath: path)
        uri = url.absoluteString
        self.name = name
        self.size = size
        self.type = type
        modified = 0
        modifiedNanoseconds = 0
    }

    /// True when the file is no longer the version the work started from.
    var changedSince: Bool {
        // The cache's copy never changes (a new version is another copy).
        if isDownloadedCopy { return false }
        var status = stat()
        guard stat(path, &status) == 0 else { return true }
        return Int64(status.st_size) != size || Int64(status.st_mtim.tv_sec) != modified
            || Int64(status.st_mtim.tv_nsec) != modifiedNanoseconds
    }
}

/// A descriptor closed when the last copy of what holds it goes.
private final class HeldFile: Sendable {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
    deinit { close(fd) }
}
