import DocumentCore
import Foundation

Localization.setUp()
let status = CommandLineTool(arguments: Array(CommandLine.arguments.dropFirst())).run()
exit(status)
