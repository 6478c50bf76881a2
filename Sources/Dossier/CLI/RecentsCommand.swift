import DocumentCore
import Foundation

/// `dossier recents [--json]` lists the recent documents of the desktop (Dossier's and other
/// programs'), newest first, marking those that are missing; `--add PATH…` records documents
/// as opened, `--remove PATH|URI…` drops entries, `--clear` empties the whole list (as GNOME's
/// "Clear History" does).
struct RecentsCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: ["--json", "--clear", "--add", "--remove"]) else { return 2 }
        let actions = parsed.flags.intersection(["--clear", "--add", "--remove"])
        guard actions.count <= 1 else {
            Output.error(tr("Use only one of --add, --remove and --clear"))
            return 2
        }
        let needsOperands = !actions.isDisjoint(with: ["--add", "--remove"])
        guard needsOperands != parsed.operands.isEmpty else {
            Output.error(tr("Use: dossier recents [--json], dossier recents --add|--remove PATH…, or dossier recents --clear"))
            return 2
        }
        let recents = RecentDocuments()
        do {
            if parsed.flags.contains("--clear") {
                try recents.clear()
                print(tr("The recent documents list is now empty."))
                return 0
            }
            if parsed.flags.contains("--add") {
                try recents.record(parsed.operands.map { URL(fileURLWithPath: $0) }, as: .opened)
                return 0
            }
            if parsed.flags.contains("--remove") {
                for location in parsed.operands {
                    try recents.remove(location.hasPrefix("/") || location.contains(":") ? location
                                       : FileManager.default.currentDirectoryPath + "/" + location)
                }
                return 0
            }
            let items = try recents.items()
            if parsed.flags.contains("--json") {
                Output.json(items)
                return 0
            }
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            for item in items {
                let date = item.lastUsed.map(formatter.string(from:)) ?? "                "
                let location = item.path ?? item.uri
                print(item.isMissing ? "\(date)  \(location)  " + tr("(missing)") : "\(date)  \(location)")
            }
            return 0
        } catch {
            Output.error(error.description)
            return 1
        }
    }
}
