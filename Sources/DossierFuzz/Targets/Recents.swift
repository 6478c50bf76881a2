import DocumentCore
import Foundation

extension FuzzTarget {
    /// `recently-used.xbel` as the sidebar's Recent lists it (GLib's GBookmarkFile reads the
    /// XML; Dossier reads every entry, follows moved files and writes the file back), in a
    /// private data folder. Dossier's own bookmarks file is removed before each input.
    static let recents = FuzzTarget("recents", "recently-used.xbel (RecentDocuments.items)") { data in
        let home = ScratchFolder.folder("recents")
        let directories = UserDirectories(home: home, configHome: home.appendingPathComponent("config"),
                                          dataHome: home.appendingPathComponent("data"))
        try? FileManager.default.removeItem(at: directories.dossierData)
        ScratchFolder.write(data, to: "recents/data/recently-used.xbel")
        let recents = RecentDocuments(directories: directories, resolveBudget: .milliseconds(20), listingBudget: .milliseconds(50))
        _ = try? recents.items()
        _ = recents.recentFolders
    }
}
