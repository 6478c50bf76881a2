import Foundation

extension UserDirectories {
    /// `XDG_TEMPLATES_DIR` from `user-dirs.dirs` (`~/Templates` when that file is missing):
    /// the files "New Document" offers. Nil when it is unset, the home folder (disabled), or
    /// missing. Not cached: it reads the file on each call (call it off the main thread).
    public var templates: URL? {
        let file = configHome.appendingPathComponent("user-dirs.dirs")
        let path: String?
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            path = Self.parseUserDirs(text, home: home.path)["TEMPLATES"]
        } else {
            path = home.path + "/Templates"
        }
        guard let path else { return nil }
        let url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        var isFolder: ObjCBool = false
        guard url.path != home.standardizedFileURL.path,
              FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        return url
    }
}
