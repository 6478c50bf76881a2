import CGLib
import Foundation
import GObjectSupport

/// GFiles of locations behind GVFS, made so that several threads may make and drop them at once.
///
/// GVFS's client (libgvfscommon, 1.50 and upstream) shares one `GMountSpec` among all the GFiles
/// of a server or share. `g_mount_spec_unref` drops the spec's count to zero before it takes the
/// lock of the table that shares it, so a thread making a GFile of the same location meanwhile
/// (`g_mount_spec_get_unique_for`, in every new GDaemonFile, every child an enumerator gives)
/// takes a spec that is being freed, and crashes (SIGSEGV in `g_mount_spec_get`, on a worker
/// thread) when a listing and the thumbnails' downloads make and drop GFiles of one mount at
/// once. A GFile of each location Dossier
/// has used is kept for the life of the process: its spec's count never falls to zero.
enum GVFSFiles {
    /// A GFile of each location used, by `locationKey`; never released.
    private static let anchors = Locked([String: ObjectAnchor]())
    /// Enough for any session's servers and shares; past it, no more are kept (a location of a
    /// server already held shares its spec with the one kept).
    private static let most = 1_000

    /// A new GFile for `uri` (the caller owns it), its location held for the process's life.
    static func file(forURI uri: String) -> OpaquePointer {
        let file = g_file_new_for_uri(uri)!
        hold(file, uri: uri)
        return file
    }

    /// Keeps a reference to `file` when no GFile of its location is kept yet.
    static func hold(_ file: OpaquePointer, uri: String) {
        guard let key = locationKey(uri) else { return }
        anchors.withLock { anchors in
            guard anchors[key] == nil, anchors.count < most else { return }
            anchors[key] = ObjectAnchor(g_object_ref(UnsafeMutableRawPointer(file)))
        }
    }

    /// What a URI's mount spec is made from as far as this client can tell: its scheme, user,
    /// host and port, and its first path segment (an SMB share is part of the spec; for other
    /// schemes two keys of one server hold the same spec twice, which does no harm). Nil for
    /// local files, which have no spec.
    static func locationKey(_ uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
              scheme != "file" else { return nil }
        let share = components.path.split(separator: "/", omittingEmptySubsequences: true).first ?? ""
        return "\(scheme)://\(components.user ?? "")@\(components.host ?? ""):\(components.port.map(String.init) ?? "")/\(share)"
    }

    /// A GObject reference kept in a Sendable box (never released).
    private struct ObjectAnchor: @unchecked Sendable {
        // @unchecked: the reference is only held, never used.
        let object: UnsafeMutableRawPointer?
        init(_ object: UnsafeMutableRawPointer?) { self.object = object }
    }
}
