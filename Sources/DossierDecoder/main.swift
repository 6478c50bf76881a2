import DecoderService
import Foundation

// dossier-decoder: a worker that decodes untrusted files for Dossier (see DecoderWorker).
exit(DecoderWorkerService.run(arguments: CommandLine.arguments))
