import CGLib
import Foundation
import GObjectSupport

/// Files other packages install for Dossier or the desktop (`.thumbnailer`, `.previewer`):
/// searched in `$XDG_DATA_HOME/<subfolder>` then each `$XDG_DATA_DIRS/<subfolder>`; a file
/// name found earlier hides the same name later (the user's file wins over the system's).
enum InstalledFiles {
    /// The paths of the files ending in `suffix`, in search order; `folders` replaces the
    /// XDG search (for tests).
    static func find(in subfolder: String, suffix: String, folders given: [URL]? = nil) -> [String] {
        let dataFolders = [String(cString: g_get_user_data_dir())] + borrowStringArray(g_get_system_data_dirs())
        let folders = given?.map(\.path) ?? dataFolders.map { $0 + "/" + subfolder }
        var seen = Set<String>()
        var result: [String] = []
        for directory in folders {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            for file in names where file.hasSuffix(suffix) && seen.insert(file).inserted {
                result.append(directory + "/" + file)
            }
        }
        return result
    }
}
