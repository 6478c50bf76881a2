import DocumentCore
import Foundation

StageTrace.mark("dossier main")
Localization.setUp()
let status = CommandLineTool(arguments: Array(CommandLine.arguments.dropFirst())).run()
exit(status)
