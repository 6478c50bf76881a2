import Foundation

/// One trash folder ("$trash" in the Trash specification): the home trash,
/// `$XDG_DATA_HOME/Trash`, or a trash at the top of another mounted file system,
/// `$topdir/.Trash/$uid` or `$topdir/.Trash-$uid`. Each holds `files/` and `info/`.
package struct TrashDirectory: Sendable, Hashable, Codable {
    /// The trash folder itself.
    package let url: URL
    /// The top folder of the file system this trash serves; nil for the home trash.
    package let topDirectory: URL?

    /// True for `$XDG_DATA_HOME/Trash`, whose records hold absolute paths.
    package var isHomeTrash: Bool { topDirectory == nil }
    /// `$trash/files`: the trashed items under their names in the Trash.
    package var filesURL: URL { url.appendingPathComponent("files", isDirectory: true) }
    /// `$trash/info`: one `NAME.trashinfo` per item.
    package var infoURL: URL { url.appendingPathComponent("info", isDirectory: true) }

    var path: String { url.path }
    var filesPath: String { filesURL.path }
    var infoPath: String { infoURL.path }
    var directorySizesPath: String { path + "/directorysizes" }

    func itemPath(_ name: String) -> String { filesPath + "/" + name }
    func infoFilePath(_ name: String) -> String { infoPath + "/" + name + ".trashinfo" }

    init(path: String, topDirectory: String?) {
        url = URL(fileURLWithPath: path, isDirectory: true)
        self.topDirectory = topDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// The `Path=` value for an item at the absolute `originalPath`: absolute in the home
    /// trash; relative to the top folder in a top-folder trash (the specification says those
    /// should not hold absolute paths).
    func recordedPath(for originalPath: String) -> String {
        guard let top = topDirectory?.path, FileSystem.isPath(originalPath, inside: top), originalPath != top else {
            return originalPath
        }
        return top == "/" ? String(originalPath.dropFirst()) : String(originalPath.dropFirst(top.count + 1))
    }

    /// The absolute original path for a `Path=` value: a relative one is read from the top
    /// folder (for the home trash, from the folder holding it, `$XDG_DATA_HOME`).
    func originalPath(forRecorded recorded: String) -> String {
        if recorded.hasPrefix("/") { return recorded }
        let base = topDirectory?.path ?? url.deletingLastPathComponent().path
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent(recorded).standardizedFileURL.path
    }

    // MARK: Finding and making trash folders

    /// The home trash for a data folder (`$XDG_DATA_HOME`).
    static func home(dataHome: String) -> TrashDirectory {
        TrashDirectory(path: dataHome + "/Trash", topDirectory: nil)
    }

    /// Makes sure `files/` and `info/` exist (mode 0700), creating the trash if needed.
    func prepare() throws(SystemError) {
        try FileSystem.createFolders(path, mode: 0o700)
        for folder in [filesPath, infoPath] where FileStatus.existing(folder) == nil {
            if mkdir(folder, 0o700) != 0, errno != EEXIST { throw SystemError(errno) }
        }
    }

    /// The trash for items on the file system mounted at `top`, made if needed: first
    /// `$topdir/.Trash/$uid` when an administrator provided `$topdir/.Trash` (a real folder,
    /// not a link, with the sticky bit), else `$topdir/.Trash-$uid` (made with mode 0700).
    /// Throws when neither can be used; never falls back to another file system.
    static func forTop(_ top: String, userID: uid_t) throws(SystemError) -> TrashDirectory {
        let base = top == "/" ? "" : top
        if let shared = sharedTrash(top, userID: userID) {
            if let status = FileStatus.existing(shared.path) {
                if status.isDirectory && !status.isSymbolicLink && status.owner == userID { return shared }
            } else if mkdir(shared.path, 0o700) == 0 {
                return shared
            }
            // An unusable $topdir/.Trash/$uid: the specification says use .Trash-$uid instead.
        }
        let own = TrashDirectory(path: "\(base)/.Trash-\(userID)", topDirectory: top)
        switch FileStatus.of(own.path) {
        case .success(let status):
            guard status.isDirectory, status.owner == userID else { throw SystemError(EPERM) }
        case .failure(let error):
            guard error.code == ENOENT else { throw error }
            if mkdir(own.path, 0o700) != 0, errno != EEXIST { throw SystemError(errno) }
        }
        return own
    }

    /// The trash folders that already exist on the file system mounted at `top`, checked as
    /// for trashing (a `.Trash` without the sticky bit is never read: anyone could have
    /// planted items in it).
    static func existing(onTop top: String, userID: uid_t) -> [TrashDirectory] {
        let base = top == "/" ? "" : top
        var found: [TrashDirectory] = []
        if let shared = sharedTrash(top, userID: userID), let status = FileStatus.existing(shared.path),
            status.isDirectory, status.owner == userID
        {
            found.append(shared)
        }
        let own = TrashDirectory(path: "\(base)/.Trash-\(userID)", topDirectory: top)
        if let status = FileStatus.existing(own.path), status.isDirectory, status.owner == userID {
            found.append(own)
        }
        return found
    }

    /// `$topdir/.Trash/$uid` when `$topdir/.Trash` passes the specification's checks.
    private static func sharedTrash(_ top: String, userID: uid_t) -> TrashDirectory? {
        let base = top == "/" ? "" : top
        guard let status = FileStatus.existing(base + "/.Trash"), status.isDirectory, status.isSticky else { return nil }
        return TrashDirectory(path: "\(base)/.Trash/\(userID)", topDirectory: top)
    }
}
