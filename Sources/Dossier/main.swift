import DocumentCore
import Foundation

StageTrace.mark("dossier main")
Localization.setUp()
let status = CommandLineTool(arguments: RawArguments.ofThisProcess).run()
exit(status)
