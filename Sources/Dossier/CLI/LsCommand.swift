import CGLib
import DocumentCore
import Foundation

/// `dossier ls [--sort name|date|size|kind] [--reverse] [--all] [--json] DIR`: the folder as
/// the browser lists it (one `DirectoryQuery` gathering, no live updates), one line per item:
/// kind (`d` folder, `l` link, `-` file, `p` `s` `c` `b` special), size in bytes, date
/// modified, name. Folders come first; hidden items only with `--all`.
struct LsCommand {
    let arguments: [String]

    static let sortKeys: [String: QuerySortKey] = ["name": .name, "date": .dateModified, "size": .size, "kind": .kind]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: ["--reverse", "--all", "--json"], valued: ["--sort"]) else { return 2 }
        guard parsed.operands.count <= 1 else {
            Output.error(tr("Name one folder: dossier ls DIR"))
            return 2
        }
        var options = QueryOptions()
        if let key = parsed.options["--sort"] {
            guard let sortKey = Self.sortKeys[key] else {
                Output.error(tr("Unknown sort '%s': use name, date, size or kind", key))
                return 2
            }
            options.sortKey = sortKey
        }
        options.ascending = !parsed.flags.contains("--reverse")
        options.showsHidden = parsed.flags.contains("--all")
        let location = parsed.operands.first ?? "."
        // A URI (file:///…, sftp://…) is taken as one; anything else is a path.
        let isURI = location.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) != nil
        let folder = isURI ? URL(string: location) ?? URL(fileURLWithPath: location) : URL(fileURLWithPath: location)

        let items: [QueryItem]
        do {
            items = try DirectoryQuery.gather(folder: folder, options: options)
        } catch {
            Output.error(error.description)
            return 1
        }
        if parsed.flags.contains("--json") {
            Output.json(items.map(Entry.init))
        } else {
            print(Self.lines(items).joined(separator: "\n"), terminator: items.isEmpty ? "" : "\n")
        }
        return 0
    }

    /// One aligned line per item: kind, size, date, name.
    static func lines(_ items: [QueryItem]) -> [String] {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let sizes = items.map { $0.isDirectory ? "-" : String($0.size) }
        let width = sizes.map(\.count).max() ?? 1
        return zip(items, sizes).map { item, size in
            let padding = String(repeating: " ", count: width - size.count)
            return "\(indicator(of: item)) \(padding)\(size)  \(formatter.string(from: item.modified))  \(item.name)"
        }
    }

    static func indicator(of item: QueryItem) -> String {
        if item.isSymlink { return "l" }
        if item.isDirectory { return "d" }
        switch item.type {
        case .fifo: return "p"
        case .socket: return "s"
        case .characterDevice: return "c"
        case .blockDevice: return "b"
        default: return "-"
        }
    }

    struct Entry: Encodable {
        let name: String
        let path: String
        let kind: String
        let type: String
        let size: Int64
        let modified: Date
        let hidden: Bool
        let symlink: Bool

        init(_ item: QueryItem) {
            name = item.name
            path = item.path
            kind = item.isDirectory ? "folder" : LsCommand.indicator(of: item) == "-" ? "file" : "special"
            type = item.type.identifier
            size = item.size
            modified = item.modified
            hidden = item.isHidden
            symlink = item.isSymlink
        }
    }
}
