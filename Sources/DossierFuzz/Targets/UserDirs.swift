import DocumentCore
import Foundation

extension FuzzTarget {
    /// `user-dirs.dirs` (xdg-user-dirs) as the sidebar reads it: every folder it gives is
    /// absolute.
    static let userDirs = FuzzTarget("user-dirs", "user-dirs.dirs (UserDirectories.parseUserDirs)") { data in
        let folders = UserDirectories.parseUserDirs(String(decoding: data, as: UTF8.self), home: "/home/ann")
        for (name, path) in folders {
            expect(path.hasPrefix("/"), "XDG_\(name)_DIR gives a relative folder: '\(path)'")
        }
    }
}
