import DocumentCore
import Foundation

/// `dossier bookmark create PATH` prints a bookmark to PATH as base64;
/// `dossier bookmark resolve [--budget MS] DATA` prints where the item is now, followed by
/// ` stale` when the bookmark should be made again. Exit status 1 when it cannot be resolved.
struct BookmarkCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: [], valued: ["--budget"]) else { return 2 }
        guard let action = parsed.operands.first, parsed.operands.count == 2 else {
            Output.error(tr("Use: dossier bookmark create PATH, or dossier bookmark resolve DATA"))
            return 2
        }
        let operand = parsed.operands[1]
        switch action {
        case "create":
            do {
                print(try Bookmark(path: operand).base64EncodedString())
                return 0
            } catch {
                Output.error(error.description)
                return 1
            }
        case "resolve":
            var options = Bookmark.ResolveOptions()
            if let text = parsed.options["--budget"] {
                guard let milliseconds = Int(text), milliseconds > 0 else {
                    Output.error(tr("The budget must be a number of milliseconds, not '%s'", text))
                    return 2
                }
                options.budget = .milliseconds(milliseconds)
            }
            options.hintFolders = RecentDocuments().recentFolders
            do {
                let bookmark = try Bookmark(base64Encoded: operand)
                let resolution = try bookmark.resolve(options: options)
                print(resolution.isStale ? resolution.path + " stale" : resolution.path)
                return 0
            } catch {
                Output.error(error.description)
                return 1
            }
        default:
            Output.error(tr("Unknown bookmark action '%s': use create or resolve", action))
            return 2
        }
    }
}
