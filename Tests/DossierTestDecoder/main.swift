import DecoderService
import Foundation

// The test decoder: `dossier-decoder` with the misbehaviours the containment tests ask for
// (`Misbehaviours`). Built beside the tests, never installed; `DecoderWorker(testFormats: true)`
// starts it.
exit(DecoderWorkerService.run(arguments: CommandLine.arguments, intercepting: Misbehaviours.intercept))
