import DocumentCore
import Foundation

/// `dossier restore NAME…`: puts items back from the Trash where they were. NAME is an item's
/// name as `dossier trash --list` shows it (or its path in the Trash, its original path or
/// its original name); a name that fits several items is refused with the candidates.
struct RestoreCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: []) else { return 2 }
        guard !parsed.operands.isEmpty else {
            Output.error(tr("Name at least one item in the Trash: dossier restore NAME…"))
            return 2
        }
        let trash = Trash()
        var failed = false
        for name in parsed.operands {
            do {
                let (_, url) = try trash.restore(named: name)
                print(tr("Restored “%s” to %s", name, url.path))
            } catch {
                Output.error(error.description)
                failed = true
            }
        }
        return failed ? 1 : 0
    }
}
