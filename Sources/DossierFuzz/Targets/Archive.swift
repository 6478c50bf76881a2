import CFuzzing
import DocumentUI
import Foundation

extension FuzzTarget {
    /// An archive as the previewer lists it (libarchive, every format and filter, also as a
    /// lone compressed file), the traversal check on every entry's path, the file name an entry
    /// is extracted under, and the extraction of the first files into the (private) cache.
    static let archive = FuzzTarget("archive", "archive listings and entry paths (ArchiveListing, ArchiveExtraction)",
                                    prepare: { dossier_fuzz_set_user_dir("XDG_CACHE_HOME", ScratchFolder.folder("archive-cache").path) }) { data in
        let path = ScratchFolder.write(data, to: "archive/input").path
        for raw in [false, true] {
            guard case .success(let listing) = ArchiveListing.read(path, raw: raw) else { continue }
            for entry in listing.entries {
                let name = ArchiveExtraction.fileName(for: entry)
                expect(!name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0"),
                       "entry '\(entry.path)' would be extracted as '\(name)'")
                expect(name.utf8.count <= 255, "entry '\(entry.path)' gets a name of \(name.utf8.count) bytes, too long for a file")
                if !entry.isUnsafe {
                    expect(!entry.path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains(".."),
                           "entry '\(entry.path)' climbs out but is not flagged unsafe")
                }
            }
            let previews = ArchiveExtraction.previewsFolder.path + "/"
            for entry in listing.entries.filter({ $0.kind == .file && !$0.isUnsafe }).prefix(2) {
                guard let file = try? ArchiveExtraction.extract(entry, from: path, raw: raw) else { continue }
                let folder = file.deletingLastPathComponent()
                expect(folder.deletingLastPathComponent().path + "/" == previews,
                       "entry '\(entry.path)' was extracted to \(file.path)")
                ArchiveExtraction.remove(folder)
            }
        }
    }
}
