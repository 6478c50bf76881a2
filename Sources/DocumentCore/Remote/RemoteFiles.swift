import CGLib
import Foundation
import GObjectSupport

/// Where a location is, as far as reading it goes: on this machine, or behind a server that
/// GVFS talks to (sftp, smb, dav, ftp…), whose files are fetched into Dossier's cache before a
/// renderer, a thumbnailer or an app that takes only paths sees them.
package enum RemoteFiles {
    /// True when `url` is not read from a local disk: a URI of another scheme than `file`, or
    /// a path inside GVFS's FUSE folder (`$XDG_RUNTIME_DIR/gvfs/…`), which reaches a server
    /// and may hang with it.
    package static func isRemote(_ url: URL) -> Bool {
        guard url.isFileURL else { return url.scheme != nil }
        return isInsideFUSEFolder(url.path)
    }

    /// GVFS's FUSE folder, `$XDG_RUNTIME_DIR/gvfs`.
    static var fuseFolder: String {
        String(cString: g_get_user_runtime_dir()) + "/gvfs"
    }

    static func isInsideFUSEFolder(_ path: String) -> Bool {
        path.hasPrefix(fuseFolder + "/")
    }

    /// The GFile of `url` (caller owns it). A path in GVFS's FUSE folder gives the daemon's
    /// own file (`sftp://…`) when GVFS runs: GIO maps those paths back to their URIs.
    static func file(for url: URL) -> OpaquePointer {
        url.isFileURL ? g_file_new_for_path(url.path) : GVFSFiles.file(forURI: url.absoluteString)
    }

    /// The URI GIO gives `url`, the one the thumbnail cache and Nautilus key a file by.
    package static func canonicalURI(of url: URL) -> String {
        let file = file(for: url)
        defer { unref(file) }
        return takeString(g_file_get_uri(file)) ?? url.absoluteString
    }

    /// The name `url` is shown under: its last path component, percent-decoded.
    package static func displayName(of url: URL) -> String {
        let name = url.lastPathComponent
        return name.isEmpty ? (url.host ?? url.absoluteString) : name
    }
}

extension RemoteFiles {
    /// True when `url` names a file Dossier reads: a local path, or a URI of a scheme GIO's
    /// VFS (GVFS) mounts. Web addresses are not files (a link's page is not fetched as one).
    package static func isReadable(_ url: URL) -> Bool {
        if url.isFileURL { return true }
        guard let scheme = url.scheme?.lowercased(), scheme != "http", scheme != "https" else { return false }
        guard let schemes = g_vfs_get_supported_uri_schemes(g_vfs_get_default()) else { return false }
        var index = 0
        while let entry = schemes[index] {
            if String(cString: entry) == scheme { return true }
            index += 1
        }
        return false
    }
}

extension RemoteFiles {
    /// The location a command-line argument names: a URI of a scheme GIO reads (`file:`,
    /// `sftp:`, `smb:`, `dav:`…), else a path (relative to the working folder). A file named
    /// `notes:1.txt` stays a path: `notes` is no scheme GIO knows.
    package static func location(ofArgument argument: String) -> URL {
        if argument.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) != nil,
           let url = URL(string: argument), isReadable(url) {
            return url.isFileURL ? url.standardizedFileURL : url
        }
        return URL(fileURLWithPath: argument).standardizedFileURL
    }
}
