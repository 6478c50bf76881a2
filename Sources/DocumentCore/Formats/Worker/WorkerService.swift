import CGLib
import CImaging
import CSandbox
import Foundation
import GObjectSupport

/// The decoder worker's side (`dossier-decoder`): it loads what its decoders need, locks
/// itself down, then answers requests on the socket it was given until the socket closes.
public enum DecoderWorkerService {
    /// Runs the worker with its command-line `arguments` (as `DecoderWorker` starts it); returns
    /// the process's exit status.
    public static func run(arguments: [String]) -> Int32 {
        var options: [String: String] = [:]
        var flags = Set<String>()
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--test-formats" {
                flags.insert(argument)
            } else if argument.hasPrefix("--"), index + 1 < arguments.count {
                options[argument] = arguments[index + 1]
                index += 1
            }
            index += 1
        }
        guard let socket = options["--socket"].flatMap(Int32.init),
              let addressSpace = options["--address-space"].flatMap(UInt64.init),
              let cpu = options["--cpu"].flatMap(UInt32.init),
              let cpuPerRequest = options["--cpu-per-request"].flatMap(UInt32.init),
              let largestResult = options["--largest-result"].flatMap(UInt64.init) else {
            FileHandle.standardError.write(Data("dossier-decoder: started by Dossier only\n".utf8))
            return 64
        }
        StageTrace.mark("worker main")
        // Lowered first, so that loading the libraries already yields to the caller's frames.
        let nice = options["--nice"].flatMap(Int32.init).map { min(max($0, 1), 19) }
        var group: Int32 = nice.map { dossier_worker_lower_priority($0) } ?? -1
        Localization.setUp()
        let decoders = WorkerDecoders(testFormats: flags.contains("--test-formats"))
        decoders.prepare()
        guard dossier_worker_lock_down(addressSpace, cpu, largestResult) == 0 else {
            FileHandle.standardError.write(Data("dossier-decoder: cannot lock down: \(String(cString: strerror(errno)))\n".utf8))
            return 70
        }
        StageTrace.mark("worker locked")
        while true {
            switch WorkerWire.receive(WorkerRequest.self, on: socket) {
            case .end:
                return 0
            case .garbled:
                _ = WorkerWire.send(WorkerReply(error: "the request could not be read"), on: socket)
            case .message(let request, let input):
                defer { if input >= 0 { close(input) } }
                // A request that spends its CPU budget is ended by SIGXCPU; a worker that spent
                // its lifetime's budget leaves, and the next request starts a fresh one.
                guard dossier_worker_cpu_budget(cpuPerRequest) == 0 else { return 0 }
                // The group's priority, when the kernel was changing another's as the worker started.
                if group >= 0, let nice { group = dossier_worker_retry_group_priority(group, nice) }
                StageTrace.mark("worker got \(request.operation)")
                let (reply, output) = decoders.perform(request, input: input)
                StageTrace.mark("worker done \(request.operation)")
                let sent = WorkerWire.send(reply, fd: output ?? -1, on: socket)
                if let output { close(output) }
                guard sent, reply.values[WorkerReply.leaving] == nil else { return 0 }
            }
        }
    }
}

/// The operations a worker offers. Each takes the input fd and gives a reply, and possibly a
/// sealed memfd with the large result.
struct WorkerDecoders {
    let testFormats: Bool

    /// Loads, before the lock-down, what the decoders open later: GdkPixbuf's loader list,
    /// libarchive, poppler-glib. GStreamer is loaded by the first media request (`MediaDiscoverer`).
    func prepare() {
        g_slist_free(gdk_pixbuf_get_formats())
        ArchiveWorkers.prepare()
        PopplerDocument.prepare()
    }

    func perform(_ request: WorkerRequest, input: Int32) -> (WorkerReply, Int32?) {
        guard input >= 0 else { return (WorkerReply(error: "no input"), nil) }
        switch request.operation {
        case "probe":
            // The input's size: the least a decoder does (the containment tests' next request),
            // and the worker's CPU priority (its tests').
            var status = stat()
            guard fstat(input, &status) == 0 else { return (WorkerReply(error: String(cString: strerror(errno))), nil) }
            var nice: Int32 = 0, groupNice: Int32 = 0
            guard dossier_worker_priority(&nice, &groupNice) == 0 else { return (WorkerReply(error: String(cString: strerror(errno))), nil) }
            return (WorkerReply(values: ["size": String(status.st_size), "nice": String(nice), "groupNice": String(groupNice)]), nil)
        case ImageDecoder.operation, MediaInspection.operation:
            // A test file that names a misbehaviour (the previewer's containment tests).
            if testFormats, let reply = WorkerTestFormats.performNamed(in: input) { return (reply, nil) }
            if request.operation == MediaInspection.operation { return MediaDiscoverer.perform(input: input, options: request.options) }
            return ImageDecoder.perform(input: input, options: request.options)
        case ThumbnailWorkers.operation: return ThumbnailWorkers.perform(input: input, options: request.options)
        case ThumbnailPictures.operation:
            if testFormats, let reply = WorkerTestFormats.performNamed(in: input) { return (reply, nil) }
            return ThumbnailPictures.perform(input: input, options: request.options)
        case FontSpecimen.operation: return SpecimenDrawing.perform(input: input, options: request.options)
        case FontSpecimen.warmOperation: return SpecimenDrawing.warm(input: input)
        case ArchiveWorkers.listOperation, ArchiveWorkers.extractOperation: return ArchiveWorkers.perform(request.operation, input: input, options: request.options)
        case PDFSession.openOperation, PDFSession.pageOperation, PDFSession.closeOperation:
            return PDFSession.perform(request.operation, input: input, options: request.options)
        default:
            if testFormats, let reply = WorkerTestFormats.perform(request) { return (reply, nil) }
            return (WorkerReply(error: "unknown operation \(request.operation)"), nil)
        }
    }

    /// A pixbuf's rows (8-bit RGB or RGBA) in a sealed memfd, with their layout and `values`.
    static func reply(pixels pixbuf: OpaquePointer, values: [String: String]) -> (WorkerReply, Int32?) {
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, let pixels = gdk_pixbuf_read_pixels(pixbuf) else {
            return (WorkerReply(error: "the image has an unusual pixel format"), nil)
        }
        let length = Int(gdk_pixbuf_get_byte_length(pixbuf))
        let fd = dossier_memfd_create("dossier-image", UInt64(length))
        guard fd >= 0 else { return (WorkerReply(error: "no memory for the image"), nil) }
        var written = 0
        while written < length {
            let count = pwrite(fd, pixels + written, length - written, off_t(written))
            guard count > 0 else {
                close(fd)
                return (WorkerReply(error: "no memory for the image"), nil)
            }
            written += count
        }
        guard dossier_memfd_seal(fd) == 0 else {
            close(fd)
            return (WorkerReply(error: "cannot seal the image"), nil)
        }
        var layout = values
        layout["width"] = String(gdk_pixbuf_get_width(pixbuf))
        layout["height"] = String(gdk_pixbuf_get_height(pixbuf))
        layout["stride"] = String(gdk_pixbuf_get_rowstride(pixbuf))
        layout["channels"] = String(gdk_pixbuf_get_n_channels(pixbuf))
        layout["alpha"] = gdk_pixbuf_get_has_alpha(pixbuf) != 0 ? "1" : "0"
        return (WorkerReply(values: layout), fd)
    }
}
