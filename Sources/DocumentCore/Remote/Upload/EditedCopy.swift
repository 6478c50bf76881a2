import CGLib
import Foundation
import GObjectSupport

/// A remote file's copy handed to an app that takes only paths (Open With, when the app takes
/// no URIs and GVFS gives no FUSE path): a file of its own in Dossier's cache, followed for
/// changes so that what the app saves can go back to the server.
///
/// One per remote file: opening the file again hands the same copy (edits not yet uploaded
/// are never replaced by a fresh download).
package struct EditedCopy: Sendable, Hashable, Codable {
    /// The local copy the app works on.
    package let url: URL
    /// The server's file it goes back to.
    package let remote: URL
    /// The server's version the copy was made from, or last uploaded as: a server whose file
    /// is no longer this version changed it meanwhile.
    package let base: RemoteFileInfo
    /// The name of the app the copy was handed to ("LibreOffice Writer").
    package let application: String

    /// The name people know the file by.
    package var name: String { base.displayName }

    /// The folder of the copy in the cache.
    var folder: URL { url.deletingLastPathComponent() }
}

/// The cache's side of edited copies: `edit-<hash of the URI>/` folders beside the downloads,
/// holding the copy under its own name, `.origin` (the `EditedCopy`, JSON) and, while the app
/// saved changes that were neither uploaded nor dismissed, `.changed`: such a folder is never
/// evicted (`RemoteCache.removeUnlessInUse`).
extension RemoteCache {
    static let editPrefix = "edit-"
    static let originName = ".origin"
    static let changedName = ".changed"

    /// The folder of the edited copy of the file at `uri`.
    func editFolder(for uri: String) -> URL {
        root.appendingPathComponent(Self.editPrefix + Self.hash(uri, length: 32), isDirectory: true)
    }

    /// The edited copy recorded in `folder`, if there is one.
    func recordedEdit(in folder: URL) -> EditedCopy? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(Self.originName)),
              let edit = try? JSONDecoder().decode(EditedCopy.self, from: data),
              edit.folder.standardizedFileURL.path == folder.standardizedFileURL.path
        else { return nil }
        return edit
    }

    /// Writes `edit`'s record (whole, then renamed over the old one).
    func record(_ edit: EditedCopy) throws(RemoteUploadError) {
        let origin = edit.folder.appendingPathComponent(Self.originName)
        do {
            try JSONEncoder().encode(edit).write(to: origin, options: .atomic)
        } catch {
            throw .cache(name: edit.name, reason: error.localizedDescription)
        }
    }

    /// Marks the copy as holding changes not yet uploaded (kept from eviction), or not.
    func markChanged(_ edit: EditedCopy, _ changed: Bool) {
        let marker = edit.folder.appendingPathComponent(Self.changedName).path
        if changed {
            let fd = open(marker, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        } else {
            unlink(marker)
        }
    }

    /// Whether the copy holds changes not yet uploaded or dismissed.
    func isChanged(_ edit: EditedCopy) -> Bool {
        access(edit.folder.appendingPathComponent(Self.changedName).path, F_OK) == 0
    }

    /// The edited copies with changes not yet uploaded (from this run or an earlier one).
    func changedEdits() -> [EditedCopy] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { $0.hasPrefix(Self.editPrefix) }.compactMap { name in
            let folder = root.appendingPathComponent(name, isDirectory: true)
            guard access(folder.appendingPathComponent(Self.changedName).path, F_OK) == 0 else { return nil }
            return recordedEdit(in: folder)
        }
    }

    /// The copy of `copy` an app may edit: the one already made for its file when it holds
    /// changes or is of the same version, else a new copy of `copy`'s bytes (written whole,
    /// then renamed into place).
    func editableCopy(of copy: RemoteCopy, for application: String) throws(RemoteUploadError) -> EditedCopy {
        let info = copy.info
        let folder = editFolder(for: info.uri)
        let name: String
        do throws(RemoteDownloadError) { name = try Self.fileName(for: info) } catch {
            throw .cache(name: info.displayName, reason: error.description)
        }
        if let existing = recordedEdit(in: folder), access(existing.url.path, F_OK) == 0,
           isChanged(existing) || existing.base.versionKey == info.versionKey {
            return existing
        }
        guard g_mkdir_with_parents(folder.path, 0o700) == 0 else {
            throw .cache(name: info.displayName, reason: String(cString: strerror(errno)))
        }
        let partial = folder.appendingPathComponent(".partial-\(UUID().uuidString)")
        let target = folder.appendingPathComponent(name)
        do {
            try FileManager.default.copyItem(at: copy.url, to: partial)
            chmod(partial.path, 0o600)
            guard rename(partial.path, target.path) == 0 else {
                throw RemoteUploadError.cache(name: info.displayName, reason: String(cString: strerror(errno)))
            }
        } catch {
            unlink(partial.path)
            throw .cache(name: info.displayName, reason: (error as? RemoteUploadError)?.description ?? error.localizedDescription)
        }
        let edit = EditedCopy(url: target, remote: URL(string: info.uri) ?? target, base: info, application: application)
        try record(edit)
        markChanged(edit, false)
        return edit
    }
}
