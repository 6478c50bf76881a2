import CFuzzing
import DecoderService
import DocumentCore
import Foundation

extension FuzzTarget {
    /// An archive as the previewer lists it: the decoder worker's reading (libarchive, every
    /// format and filter, also as a lone compressed file), run in this process; its answer
    /// encoded, then read back as the previewer reads it; the traversal check on every entry's
    /// path, the file name an entry is extracted under, and the extraction of the first files
    /// (the worker's, then the previewer's writing into its private cache). The same bytes are
    /// also read as a worker's answer, which the previewer must treat as untrusted too.
    static let archive = FuzzTarget("archive", "archive listings and entry paths (ArchiveReader, ArchiveListingCoding, ArchiveExtraction)",
                                    prepare: { dossier_fuzz_set_user_dir("XDG_CACHE_HOME", ScratchFolder.folder("archive-cache").path) }, run: { data in
        let path = ScratchFolder.write(data, to: "archive/input").path
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return }
        defer { close(input) }
        for raw in [false, true] {
            guard let inOrder = try? ArchiveReader.list(input, raw: raw, name: "input") else { continue }
            let answer = ArchiveListingCoding.encode(inOrder)
            expect(answer.withUnsafeBytes { ArchiveListingCoding.decode($0) } == inOrder,
                   "a listing of \(inOrder.entries.count) entries does not read back as the worker sent it")
            let listing = ArchiveListing.arranged(inOrder)
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
                guard (try? ArchiveExtraction.check(entry)) != nil,
                      let bytes = try? ArchiveReader.extractHere(input, raw: raw, entry: entry),
                      let file = try? ArchiveExtraction.store(bytes, as: ArchiveExtraction.fileName(for: entry)) else { continue }
                let folder = file.deletingLastPathComponent()
                expect(folder.deletingLastPathComponent().path + "/" == previews,
                       "entry '\(entry.path)' was extracted to \(file.path)")
                ArchiveExtraction.remove(folder)
            }
        }
        if let answer = data.withUnsafeBytes({ ArchiveListingCoding.decode($0) }) {
            expect(ArchiveListingCoding.encode(answer).withUnsafeBytes { ArchiveListingCoding.decode($0) } == answer,
                   "a worker's answer does not read back the same")
            _ = ArchiveListing.arranged(answer)
        }
    })
}
