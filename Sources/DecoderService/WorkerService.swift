import CGLib
import CImaging
import CSandbox
import DecoderWire
import DocumentCore
import Foundation
import GObjectSupport

/// The decoder worker's side (`dossier-decoder`): it loads what its decoders need, locks
/// itself down, says which protocol it speaks, then answers requests on the socket it was given
/// until the socket closes.
package enum DecoderWorkerService {
    /// Answers a request before the decoders do, when it returns a reply (the test decoder's
    /// misbehaviours); nil leaves the request to them.
    package typealias Interception = @Sendable (DecoderRequest, FileDescriptor) -> DecoderReply?

    /// Runs the worker with its command-line `arguments` (as `DecoderWorker` starts it); returns
    /// the process's exit status. `intercepting` is for a test decoder only.
    package static func run(arguments: [String], intercepting: Interception? = nil) -> Int32 {
        var options: [String: String] = [:]
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), index + 1 < arguments.count {
                options[argument] = arguments[index + 1]
                index += 1
            }
            index += 1
        }
        guard let socketNumber = options["--socket"].flatMap(Int32.init),
              let addressSpace = options["--address-space"].flatMap(UInt64.init),
              let cpu = options["--cpu"].flatMap(UInt32.init),
              let cpuPerRequest = options["--cpu-per-request"].flatMap(UInt32.init),
              let largestResult = options["--largest-result"].flatMap(UInt64.init) else {
            FileHandle.standardError.write(Data("dossier-decoder: started by Dossier only\n".utf8))
            return 64
        }
        let socket = FileDescriptor(rawValue: socketNumber)
        StageTrace.mark("worker main")
        // Lowered first, so that loading the libraries already yields to the caller's frames.
        let nice = options["--nice"].flatMap(Int32.init).map { min(max($0, 1), 19) }
        var group: Int32 = nice.map { dossier_worker_lower_priority($0) } ?? -1
        Localization.setUp()
        let decoders = WorkerDecoders()
        decoders.prepare()
        guard dossier_worker_lock_down(addressSpace, cpu, largestResult) == 0 else {
            FileHandle.standardError.write(Data("dossier-decoder: cannot lock down: \(String(cString: strerror(errno)))\n".utf8))
            return 70
        }
        StageTrace.mark("worker locked")
        guard DecoderWire.send(DecoderHello(), on: socket) else { return 0 }
        while true {
            switch DecoderWire.receive(DecoderRequest.self, on: socket) {
            case .end:
                return 0
            case .garbled:
                _ = DecoderWire.send(DecoderReply(error: "the request could not be read"), on: socket)
            case .message(let request, let input):
                defer { input?.close() }
                // A request that spends its CPU budget is ended by SIGXCPU; a worker that spent
                // its lifetime's budget leaves, and the next request starts a fresh one.
                guard dossier_worker_cpu_budget(cpuPerRequest) == 0 else { return 0 }
                // The group's priority, when the kernel was changing another's as the worker started.
                if group >= 0, let nice { group = dossier_worker_retry_group_priority(group, nice) }
                StageTrace.mark("worker got \(request.name)")
                let (reply, output): (DecoderReply, Int32?)
                if let input {
                    (reply, output) = intercepting?(request, input).map { ($0, nil) } ?? decoders.perform(request, input: input)
                } else {
                    (reply, output) = (DecoderReply(error: "no input"), nil)
                }
                StageTrace.mark("worker done \(request.name)")
                let result = output.map(FileDescriptor.init(rawValue:))
                let sent = DecoderWire.send(reply, with: result, on: socket)
                result?.close()
                guard sent, !reply.isLeaving else { return 0 }
            }
        }
    }
}

/// The operations a worker offers. Each takes the input and gives a reply, and possibly a
/// sealed memfd with the large result.
struct WorkerDecoders {
    /// Loads, before the lock-down, what the decoders open later: GdkPixbuf's loader list,
    /// libarchive, poppler-glib, cmark-gfm. GStreamer is loaded by the first media request (`MediaDiscoverer`).
    func prepare() {
        g_slist_free(gdk_pixbuf_get_formats())
        ArchiveService.prepare()
        PopplerDocument.prepare()
        MarkdownParser.prepare()
    }

    func perform(_ request: DecoderRequest, input descriptor: FileDescriptor) -> (DecoderReply, Int32?) {
        let input = descriptor.rawValue
        switch request {
        case .probe:
            // The input's size: the least a decoder does (the containment tests' next request),
            // and the worker's CPU priority (its tests').
            var status = stat()
            guard fstat(input, &status) == 0 else { return (DecoderReply(error: String(cString: strerror(errno))), nil) }
            var nice: Int32 = 0, groupNice: Int32 = 0
            guard dossier_worker_priority(&nice, &groupNice) == 0 else {
                return (DecoderReply(error: String(cString: strerror(errno))), nil)
            }
            return (DecoderReply(values: ["size": String(status.st_size), "nice": String(nice), "groupNice": String(groupNice)]), nil)
        case .image(let options): return ImageDecoder.perform(input: input, request: ImageDecoder.Request(options))
        case .media: return MediaDiscoverer.perform(input: input)
        case .thumbnail(let options): return ThumbnailService.perform(input: input, options: options)
        case .thumbnailPicture(let options): return PictureService.perform(input: input, options: options)
        case .fontSpecimen(let appearance):
            guard let appearance = FontSpecimen.Appearance(appearance) else {
                return (DecoderReply(error: "a specimen request without its appearance"), nil)
            }
            return SpecimenDrawing.perform(input: input, appearance: appearance)
        case .fontWarm: return SpecimenDrawing.warm(input: input)
        case .archiveList(let options): return ArchiveService.list(input: input, options: options)
        case .archiveExtract(let options): return ArchiveService.extract(input: input, options: options)
        case .pdfOpen(let session): return PDFSession.open(input: input, session: session)
        case .pdfPage(let options): return PDFSession.page(options, input: input)
        case .pdfClose(let session): return PDFSession.close(session: session)
        case .markdown: return MarkdownParser.perform(input: input)
        case .misbehave(let misbehaviour): return (DecoderReply(error: "no misbehaviour \(misbehaviour.name) here"), nil)
        }
    }
}
