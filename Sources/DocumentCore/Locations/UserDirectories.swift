import Foundation

/// The per-user folders of the XDG Base Directory specification and the XDG user folders
/// (Documents, Downloads…), read from an environment when made, never cached by GLib.
///
/// GLib's `g_get_user_data_dir()` and `g_get_user_special_dir()` read the environment once
/// per process; Dossier's stores take a `UserDirectories` instead, so a test (or a second
/// profile) can point them anywhere.
public struct UserDirectories: Sendable, Hashable {
    /// `$HOME`.
    public var home: URL
    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public var configHome: URL
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public var dataHome: URL

    /// Reads the folders from `environment` (the process's own by default). A variable that is
    /// unset, empty or not an absolute path falls back to the specification's default.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let homePath = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        home = URL(fileURLWithPath: homePath, isDirectory: true)
        func folder(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return URL(fileURLWithPath: homePath + "/" + fallback, isDirectory: true)
        }
        configHome = folder("XDG_CONFIG_HOME", ".config")
        dataHome = folder("XDG_DATA_HOME", ".local/share")
    }

    /// Folders given outright (tests, a second profile).
    public init(home: URL, configHome: URL, dataHome: URL) {
        self.home = home
        self.configHome = configHome
        self.dataHome = dataHome
    }

    /// Dossier's own data folder, `$XDG_DATA_HOME/dossier` (not created here).
    public var dossierData: URL { dataHome.appendingPathComponent("dossier", isDirectory: true) }

    /// The XDG user folders (Desktop, Documents, Downloads, Music, Pictures, Videos, Templates,
    /// Public) from `$XDG_CONFIG_HOME/user-dirs.dirs`, as xdg-user-dirs writes it; the usual
    /// English names under the home folder when that file is missing. Folders that do not
    /// exist, and entries that point at the home folder itself (a disabled folder), are left out.
    public var userFolders: [URL] {
        let names = ["DESKTOP", "DOCUMENTS", "DOWNLOAD", "MUSIC", "PICTURES", "VIDEOS", "TEMPLATES", "PUBLICSHARE"]
        var found: [String: String] = [:]
        let file = configHome.appendingPathComponent("user-dirs.dirs")
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            found = Self.parseUserDirs(text, home: home.path)
        } else {
            let fallback = ["DESKTOP": "Desktop", "DOCUMENTS": "Documents", "DOWNLOAD": "Downloads", "MUSIC": "Music",
                            "PICTURES": "Pictures", "VIDEOS": "Videos", "TEMPLATES": "Templates", "PUBLICSHARE": "Public"]
            for (key, name) in fallback { found[key] = home.path + "/" + name }
        }
        let homePath = home.standardizedFileURL.path
        return names.compactMap { name -> URL? in
            guard let path = found[name] else { return nil }
            let url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
            var isFolder: ObjCBool = false
            guard url.path != homePath, FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
                  isFolder.boolValue else { return nil }
            return url
        }
    }

    /// Parses `XDG_NAME_DIR="$HOME/Name"` lines (the only form the file may hold, per
    /// xdg-user-dirs: a path relative to `$HOME`, or an absolute one).
    package static func parseUserDirs(_ text: String, home: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("XDG_"), let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)..<equals]
            guard key.hasSuffix("_DIR") else { continue }
            var value = String(trimmed[trimmed.index(after: equals)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            if value.hasPrefix("$HOME") {
                value = home + value.dropFirst(5)
            }
            guard value.hasPrefix("/") else { continue }
            result[String(key.dropLast(4))] = value
        }
        return result
    }
}
