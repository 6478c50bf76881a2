import DocumentCore
import Foundation

/// `dossier trash PATH…` moves items to the Trash and says where each went;
/// `dossier trash --list [--json]` shows what the Trash holds;
/// `dossier trash --empty` deletes everything in it for good.
/// A path that cannot be trashed is reported and the others still are; exit status 1 then.
struct TrashCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: ["--list", "--json", "--empty"]) else { return 2 }
        let listing = parsed.flags.contains("--list")
        let emptying = parsed.flags.contains("--empty")
        if listing && emptying || (listing || emptying) && !parsed.operands.isEmpty
            || parsed.flags.contains("--json") && !listing
        {
            Output.error(tr("Use one of: dossier trash PATH…, dossier trash --list [--json], dossier trash --empty"))
            return 2
        }
        let trash = Trash()
        if listing { return list(trash, json: parsed.flags.contains("--json")) }
        if emptying { return empty(trash) }
        guard !parsed.operands.isEmpty else {
            Output.error(tr("Name at least one file: dossier trash PATH…"))
            return 2
        }
        var failed = false
        for location in parsed.operands {
            guard let url = location.hasPrefix("file:") ? URL(string: location) : URL(fileURLWithPath: location) else {
                Output.error(TrashError.notLocal(name: location).description)
                failed = true
                continue
            }
            do {
                let item = try trash.trash(url)
                print(tr("Moved “%s” to the Trash as %s", location, item.url.path))
            } catch {
                Output.error(error.description)
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    private func list(_ trash: Trash, json: Bool) -> Int32 {
        let contents = trash.contents()
        for problem in contents.problems {
            Output.error(problem.description)
        }
        if json {
            Output.json(
                Listing(
                    items: contents.items.map(Entry.init),
                    problems: contents.problems.map { Problem(path: $0.url.path, message: $0.description) }))
            return 0
        }
        if contents.isEmpty {
            print(tr("The Trash is empty."))
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for item in contents.items {
            let date = item.deletionDate.map(formatter.string(from:)) ?? tr("unknown date")
            print("\(item.name)\t\(date)\t\(item.originalPath)")
        }
        return 0
    }

    private func empty(_ trash: Trash) -> Int32 {
        do {
            let count = try trash.empty()
            print(trn("Deleted %d item from the Trash", "Deleted %d items from the Trash", count))
            return 0
        } catch {
            Output.error(error.description)
            return 1
        }
    }

    struct Entry: Encodable {
        let name: String
        let originalPath: String
        let deletionDate: Date?
        let trashPath: String
        let trashFolder: String

        init(_ item: TrashedItem) {
            name = item.name
            originalPath = item.originalPath
            deletionDate = item.deletionDate
            trashPath = item.url.path
            trashFolder = item.trash.url.path
        }
    }

    struct Problem: Encodable {
        let path: String
        let message: String
    }

    struct Listing: Encodable {
        let items: [Entry]
        let problems: [Problem]
    }
}
