import DecoderWire
import Foundation

extension FontSpecimen {
    /// One request at a time goes to the previewer's workers (`PreviewWorkers`, which the
    /// previewer service starts as it starts: a first font does not wait for a worker of its own
    /// to start beside GTK); one whose askers all went away while it waited is dropped before it
    /// is drawn (an arrow key held down in a folder of fonts).
    static let requests = DispatchQueue(label: "dossier.font-specimen", qos: .userInitiated)

    /// Readies the previewer's worker to draw the font file at `path`, off the caller's thread:
    /// the previewer service does so for its first item while GTK starts, when it cannot yet ask
    /// for the specimen itself (`drawAhead`), and that drawing then waits for none of the
    /// libraries' first use.
    package static func warm(fileAt path: FileSystemPath) {
        requests.async {
            guard let fd = try? WorkerInput.open(path) else { return }
            defer { close(fd) }
            _ = try? PreviewWorkers.current.perform(.fontWarm, input: FileDescriptor(rawValue: fd), cancellation: nil)
        }
    }

    /// Draws the specimen of the font file at `path` as `appearance` says, in a decoder worker;
    /// the file goes to the worker as an open descriptor. Never blocks the caller's thread. A
    /// drawing of the same file and appearance already under way, or drawn ahead
    /// (`drawAhead`), is joined: the worker draws it once.
    /// - Throws: `FontSpecimenError`, with a message for the error page.
    package static func draw(fileAt path: FileSystemPath, appearance: Appearance) async throws(FontSpecimenError) -> FontSpecimen {
        try await SharedDrawing.join(path, appearance).result()
    }

    /// Starts drawing the specimen of the font file at `path` as `appearance` says, before anyone
    /// asks: the previewer service does so for its first item while its window is made. The
    /// first `draw` of that file and appearance takes it; one drawing is kept ahead at most (a
    /// newer one replaces it), and `dropDrawingAhead` lets it go.
    package static func drawAhead(fileAt path: FileSystemPath, appearance: Appearance) {
        SharedDrawing.ahead(path, appearance)
    }

    /// Lets go of a drawing made ahead for the file at `path` that nobody took (its page shows
    /// it otherwise); one not yet sent to the worker is not drawn.
    package static func dropDrawingAhead(fileAt path: FileSystemPath) {
        SharedDrawing.dropAhead(path)
    }

    /// How many specimen drawings were sent to workers in this process so far.
    package static var drawingsSent: Int { sent.withLock { $0 } }
    private static let sent = Locked(0)

    /// Draws with `worker`, now, on its own: no drawing is shared.
    static func draw(fileAt path: FileSystemPath, appearance: Appearance,
                     worker: some DecoderWorkers) async throws(FontSpecimenError) -> FontSpecimen {
        let cancelled = Locked(false)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<FontSpecimen, FontSpecimenError>, Never>) in
                requests.async {
                    guard !cancelled.withLock({ $0 }) else { return continuation.resume(returning: .failure(.cancelled)) }
                    continuation.resume(returning: Result { () throws(FontSpecimenError) -> FontSpecimen in
                        try drawNow(fileAt: path, appearance: appearance, worker: worker)
                    })
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        return try result.get()
    }

    /// The request and its reply, blocking.
    static func drawNow(fileAt path: FileSystemPath, appearance: Appearance,
                        worker: some DecoderWorkers) throws(FontSpecimenError) -> FontSpecimen {
        let fd: Int32
        do { fd = try WorkerInput.open(path) } catch { throw .unreadable(error.reason) }
        defer { close(fd) }
        sent.withLock { $0 += 1 }
        let output = try worker.perform(.fontSpecimen(appearance.wire), input: fd) { failure -> FontSpecimenError in
            switch failure {
            case .refused(let message): .notDrawable(message)
            case .stopped(let how): .decoderStopped(how)
            case .timedOut(let seconds): .timedOut(seconds: seconds)
            case .unavailable(let why): .decoderUnavailable(why)
            case .cancelled: .cancelled
            }
        }
        guard let specimen = FontSpecimen(output, appearance: appearance) else {
            throw .decoderStopped(tr("it gave an answer that does not hold together"))
        }
        return specimen
    }

    /// The specimen in a worker's `output`, once every line is checked to lie inside the pixels.
    init?(_ output: DecoderWorker.Output, appearance: Appearance) {
        guard let json = output.values["specimen"],
              let drawn = try? JSONDecoder().decode(DrawnSpecimen.self, from: Data(json.utf8)),
              let blob = output.blob, drawn.width > 0, drawn.height > 0, drawn.width <= Appearance.widest,
              drawn.stride >= drawn.width * 4, drawn.stride % 4 == 0,
              drawn.stride.multipliedReportingOverflow(by: drawn.height).overflow == false,
              drawn.stride * drawn.height <= blob.count else { return nil }
        var lines: [Line] = []
        for line in drawn.lines {
            guard line.top >= 0, line.width > 0, line.height > 0, line.width <= drawn.width,
                  line.top < drawn.height, line.height <= drawn.height - line.top,
                  line.boxTop >= 0, line.boxHeight > 0, line.boxTop < line.height,
                  line.boxHeight <= line.height - line.boxTop else { return nil }
            lines.append(Line(role: line.role, text: line.text, points: line.points,
                              pixels: Pixels(blob: blob, offset: line.top * drawn.stride, width: line.width,
                                             height: line.height, stride: drawn.stride, scale: appearance.scale,
                                             box: line.boxTop..<(line.boxTop + line.boxHeight))))
        }
        self.init(family: drawn.family, style: drawn.style, faceCount: drawn.faceCount, coversLatin: drawn.coversLatin,
                  coversFamily: drawn.coversFamily, sample: drawn.sample, lines: lines, appearance: appearance)
    }
}
