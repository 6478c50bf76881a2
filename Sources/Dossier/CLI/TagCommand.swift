import DocumentCore
import Foundation

/// `dossier tag add TAG[,TAG…] PATH…`, `tag remove TAG[,TAG…] PATH…`, `tag list [--json] PATH…`
/// and `tag find TAG FOLDER…`: the `user.xdg.tags` of files, as KDE's Dolphin shows them.
struct TagCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: ["--json"]) else { return 2 }
        var operands = parsed.operands[...]
        let action = operands.popFirst()
        let store = TagStore()
        switch action {
        case "add", "remove":
            guard let list = operands.popFirst(), !operands.isEmpty else { return usage() }
            let tags = TagList.parse(list)
            guard !tags.isEmpty else { return usage() }
            var failed = false
            for path in operands {
                let url = URL(fileURLWithPath: path)
                do {
                    if action == "add" { try store.add(tags, to: url) } else { try store.remove(tags, from: url) }
                    if store.storage(for: url) == .fallback {
                        Output.error(tr("'%s' is on a file system without extended attributes: its tags are kept by Dossier only",
                                        url.lastPathComponent))
                    }
                } catch {
                    Output.error(error.description)
                    failed = true
                }
            }
            return failed ? 1 : 0
        case "list":
            guard !operands.isEmpty else { return usage() }
            var failed = false
            var listing: [String: [String]] = [:]
            for path in operands {
                do {
                    let tags = try store.tags(of: URL(fileURLWithPath: path))
                    listing[path] = tags
                    if !parsed.flags.contains("--json") {
                        print(operands.count == 1 ? tags.joined(separator: ", ") : "\(path): \(tags.joined(separator: ", "))")
                    }
                } catch {
                    Output.error(error.description)
                    failed = true
                }
            }
            if parsed.flags.contains("--json") { Output.json(listing) }
            return failed ? 1 : 0
        case "find":
            guard let tag = operands.popFirst(), !operands.isEmpty else { return usage() }
            let index = TagIndex(folders: operands.map { URL(fileURLWithPath: $0, isDirectory: true) }, store: store)
            index.scan()
            let files = index.files(taggedWith: tag)
            if parsed.flags.contains("--json") {
                Output.json(files.map(\.path))
            } else {
                files.forEach { print($0.path) }
            }
            return 0
        default:
            return usage()
        }
    }

    private func usage() -> Int32 {
        Output.error(tr("Use: dossier tag add|remove TAG[,TAG…] PATH…, dossier tag list PATH…, or dossier tag find TAG FOLDER…"))
        return 2
    }
}
