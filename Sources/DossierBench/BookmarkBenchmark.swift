import CGLib
import DocumentCore
import DossierFixtures
import Foundation

/// Bookmarks in a generated home of 100,000 files (100 folders × 1,000 files): resolving one
/// to an unmoved file against a plain stat(2), to a file moved two folders away against
/// `find -inum` over the same home, and recording 1,000 recent documents against bare
/// GBookmarkFile writes of the same entries. Caches are warm (every round after the first).
enum BookmarkBenchmark {
    static let folders = 100
    static let filesPerFolder = 1_000
    static let recents = 1_000

    static func run() throws {
        let home = try TemporaryFolder("dossier-bench-bookmarks")
        let root = home.url.resolvingSymlinksInPath().path
        let start = ContinuousClock.now
        try generate(in: root)
        let generated = ContinuousClock.now - start
        print("Bookmarks: a home of \(folders * filesPerFolder) files (\(folders) folders × \(filesPerFolder)),"
              + " generated in \(generated.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))")
        let directories = UserDirectories(home: home.url, configHome: home.url.appendingPathComponent(".config"),
                                          dataHome: home.url.appendingPathComponent(".local/share"))
        try unmoved(root: root, directories: directories)
        try moved(root: root, directories: directories)
        try recording(root: root, directories: directories)
    }

    private static func folder(_ index: Int) -> String { String(format: "d%03d", index) }
    private static func file(_ index: Int) -> String { String(format: "f%04d.txt", index) }

    private static func generate(in root: String) throws {
        for f in 0..<folders {
            let folder = root + "/" + folder(f)
            guard mkdir(folder, 0o755) == 0 else { throw POSIXError(.EIO) }
            for i in 0..<filesPerFolder {
                let fd = open(folder + "/" + file(i), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw POSIXError(.EIO) }
                close(fd)
            }
        }
    }

    private static func unmoved(root: String, directories: UserDirectories) throws {
        let path = root + "/" + folder(50) + "/" + file(500)
        let bookmark = try Bookmark(path: path)
        let options = Bookmark.ResolveOptions(userDirectories: directories)
        let rounds = 2_001
        let plain = Measure.median(rounds: rounds) {
            var status = stat()
            _ = stat(path, &status)
        }
        let resolved = try Measure.median(rounds: rounds) { _ = try bookmark.resolve(options: options) }
        print("  resolve, file not moved (median of \(rounds))")
        print(String(format: "    stat(2) of the path                  %9.1f µs   1.00×", plain * 1e6))
        print(String(format: "    Bookmark.resolve                     %9.1f µs   %.1f× stat (aim: < 1 ms)",
                     resolved * 1e6, resolved / plain))
    }

    /// The file moves from d050 to d052 (up one folder, down another) before each round, and
    /// back after it. "touched": every other folder's modification time is newer than the
    /// destination's, so the newest-first order of siblings does not help.
    private static func moved(root: String, directories: UserDirectories) throws {
        let from = root + "/" + folder(50) + "/" + file(500)
        let to = root + "/" + folder(52) + "/" + file(500)
        let rounds = 21
        var options = Bookmark.ResolveOptions(userDirectories: directories)
        options.budget = .seconds(5)
        var results: [String: Double] = [:]
        for touched in [false, true] {
            var samples: [Double] = []
            for _ in 0..<rounds {
                let bookmark = try Bookmark(path: from)
                guard rename(from, to) == 0 else { throw POSIXError(.EIO) }
                if touched {
                    for f in 0..<folders where f != 52 { utimes(root + "/" + folder(f), nil) }
                }
                let begin = ContinuousClock.now
                let resolution = try bookmark.resolve(options: options)
                samples.append(seconds(ContinuousClock.now - begin))
                guard resolution.path == to, rename(to, from) == 0 else { throw POSIXError(.EIO) }
            }
            results[touched ? "touched" : "plain"] = samples.sorted()[rounds / 2]
        }
        // The peer: what a script would do, find(1) by inode over the whole home.
        let inode = try Bookmark(path: from).inode
        guard rename(from, to) == 0 else { throw POSIXError(.EIO) }
        let find = try Measure.median(rounds: 3) {
            let output = try Measure.run("/usr/bin/find", [root, "-inum", String(inode), "-print", "-quit"])
            precondition(output.hasPrefix(to), "find found \(output)")
        }
        guard rename(to, from) == 0 else { throw POSIXError(.EIO) }
        print("  resolve, file moved two folders away (d050 → d052; median of \(rounds))")
        print(String(format: "    find HOME -inum N -quit              %9.1f ms   1.00×", find * 1e3))
        print(String(format: "    Bookmark.resolve                     %9.1f ms   %.2f× find (aim: < 200 ms)",
                     (results["plain"] ?? 0) * 1e3, (results["plain"] ?? 0) / find))
        print(String(format: "    Bookmark.resolve, no mtime hint      %9.1f ms   %.2f× find (other folders touched after the move)",
                     (results["touched"] ?? 0) * 1e3, (results["touched"] ?? 0) / find))
    }

    private static func recording(root: String, directories: UserDirectories) throws {
        let urls = (0..<recents).map { URL(fileURLWithPath: root + "/" + folder($0 % folders) + "/" + file($0 / folders)) }
        let data = directories.dataHome
        func reset() {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        }
        // The peer: GBookmarkFile alone, one write per entry, as a bare GTK program records.
        reset()
        let xbel = data.appendingPathComponent("recently-used.xbel").path
        let peer = try Measure.median(rounds: 3) {
            reset()
            let file = g_bookmark_file_new()
            defer { g_bookmark_file_free(file) }
            for url in urls {
                let uri = url.absoluteString
                g_bookmark_file_add_application(file, uri, "Dossier", "dossier %u")
                g_bookmark_file_set_mime_type(file, uri, "text/plain")
                guard g_bookmark_file_to_file(file, xbel, nil) != 0 else { throw POSIXError(.EIO) }
            }
        }
        let oneByOne = try Measure.median(rounds: 3) {
            reset()
            let recents = RecentDocuments(directories: directories)
            for url in urls { try recents.record(url) }
        }
        let batched = try Measure.median(rounds: 3) {
            reset()
            try RecentDocuments(directories: directories).record(urls)
        }
        print("  recording \(recents) recent documents (limit 500; median of 3)")
        print(String(format: "    GBookmarkFile alone, a write each    %9.1f ms   1.00×", peer * 1e3))
        print(String(format: "    RecentDocuments.record, one by one   %9.1f ms   %.2f× (bookmark, type sniff, lock, two files)",
                     oneByOne * 1e3, oneByOne / peer))
        print(String(format: "    RecentDocuments.record, one batch    %9.1f ms   %.2f×", batched * 1e3, batched / peer))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
