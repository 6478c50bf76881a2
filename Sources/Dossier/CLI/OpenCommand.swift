import DocumentCore
import Foundation

/// `dossier open [--with APP_ID] [--annotation TEXT] PATH…`: opens each file in place in its
/// default application (files sharing an app go to it together), or all of them in APP_ID,
/// and records them in the recent documents. TEXT reaches the app in `DOSSIER_ANNOTATION`.
/// The same launch path as the interaction controller's (`DocumentLauncher`), without GTK.
struct OpenCommand {
    let arguments: [String]

    func run() -> Int32 {
        guard let parsed = ParsedArguments.parse(arguments, flags: [], valued: ["--with", "--annotation"]) else { return 2 }
        guard !parsed.operands.isEmpty else {
            Output.error(tr("Name at least one file: dossier open PATH…"))
            return 2
        }
        let launcher = DocumentLauncher()
        var application: Application?
        if let id = parsed.options["--with"] {
            guard let app = launcher.registry.application(id: id) else {
                Output.error(ApplicationError.unknownApplication(id: id).description)
                return 1
            }
            application = app
        }
        let outcome = launcher.open(parsed.operands, with: application, annotation: parsed.options["--annotation"])
        for launch in outcome.launched {
            for item in launch.items {
                print(tr("Opened '%s' with %s", item.displayName, launch.application.name))
            }
        }
        for problem in outcome.problems {
            Output.error(problem.description)
        }
        // Opened documents join the desktop's recent documents; failing that is worth a word
        // but does not make the opening fail.
        if let problem = outcome.recentsProblem {
            Output.error(problem.description)
        }
        return outcome.problems.isEmpty ? 0 : 1
    }
}
