import CGLib
import Foundation
import GObjectSupport

/// The parts of the shared-mime-info database that GIO does not expose: the `subclasses`,
/// `aliases` and `globs2` files of every MIME folder GIO reads (`g_content_type_get_mime_dirs`,
/// i.e. `$XDG_DATA_HOME/mime` first, then each of `$XDG_DATA_DIRS`).
///
/// Read once per process, on first use, and immutable after that.
struct MIMEDatabase: Sendable {
    /// Direct parents of each type, in declaration order (spec: `sub-class-of`).
    var parents: [String: [String]] = [:]
    /// Alias → canonical type.
    var aliases: [String: String] = [:]
    /// Simple extension globs (`*.ext`), per type, by descending weight then file order.
    var extensions: [String: [String]] = [:]
    /// Types that are declared anywhere (have a glob, a parent, or an XML file).
    var knownTypes: Set<String> = []

    static let shared = MIMEDatabase.load()

    static func load() -> MIMEDatabase {
        var database = MIMEDatabase()
        // Earlier folders take precedence, so read the last first and let earlier ones override.
        let folders = borrowStringArray(g_content_type_get_mime_dirs())
        for folder in folders.reversed() {
            database.read(folder: folder)
        }
        return database
    }

    private mutating func read(folder: String) {
        for line in lines(of: folder + "/subclasses") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if parents[parts[0]]?.contains(parts[1]) != true {
                parents[parts[0], default: []].append(parts[1])
            }
            knownTypes.insert(parts[0])
        }
        for line in lines(of: folder + "/aliases") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            aliases[parts[0]] = parts[1]
        }
        var weighted: [String: [(weight: Int, order: Int, ext: String)]] = [:]
        for (order, line) in lines(of: folder + "/globs2").enumerated() {
            // weight:type:glob[:flags]
            let parts = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 3, let weight = Int(parts[0]) else { continue }
            let type = parts[1]
            knownTypes.insert(type)
            let glob = parts[2]
            guard glob.hasPrefix("*."), glob.dropFirst(2).allSatisfy({ !"*?[]".contains($0) }) else { continue }
            let caseSensitive = parts.count > 3 && parts[3].contains("cs")
            let ext = String(glob.dropFirst(2))
            weighted[type, default: []].append((weight, order, caseSensitive ? ext : ext.lowercased()))
        }
        for (type, globs) in weighted {
            var seen = Set<String>()
            let sorted = globs.sorted { ($0.weight, -$0.order) > ($1.weight, -$1.order) }
            extensions[type] = sorted.map(\.ext).filter { seen.insert($0).inserted }
        }
        if let types = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for media in types where !media.contains(".") && media != "packages" {
                guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + media) else { continue }
                for file in files where file.hasSuffix(".xml") {
                    knownTypes.insert(media + "/" + file.dropLast(4))
                }
            }
        }
    }

    private func lines(of path: String) -> [Substring] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    /// Simple extensions in the order the type's package declares its globs (the first is
    /// the preferred one), read from the type's own `<mime dir>/<media>/<sub>.xml`; the
    /// `globs2` order (by weight) when no such file is found.
    func declaredExtensions(of type: String) -> [String] {
        for folder in borrowStringArray(g_content_type_get_mime_dirs()) {
            guard let xml = try? String(contentsOfFile: "\(folder)/\(type).xml", encoding: .utf8) else { continue }
            var seen = Set<String>()
            var result: [String] = []
            var rest = xml[...]
            while let start = rest.range(of: "<glob pattern=\"") {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                let pattern = rest[..<end]
                if pattern.hasPrefix("*."), !pattern.dropFirst(2).contains(where: { "*?[]".contains($0) }) {
                    let ext = String(pattern.dropFirst(2))
                    let caseSensitive = rest[end...].prefix(while: { $0 != ">" }).contains("case-sensitive=\"true\"")
                    let normalized = caseSensitive ? ext : ext.lowercased()
                    if seen.insert(normalized).inserted { result.append(normalized) }
                }
            }
            return result
        }
        return extensions[type] ?? []
    }

    func canonical(_ type: String) -> String {
        aliases[type] ?? type
    }
}
