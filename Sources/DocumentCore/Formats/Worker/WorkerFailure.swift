import DecoderWire
import Foundation

/// How a request to a decoder worker ended without a result, for the caller to say in its own
/// error type: the one place a `DecoderWorker.Failure` is told apart, and a worker's own error
/// (sent as JSON by `DecoderReply(failure:)`) read back.
package enum WorkerFailure: Sendable, Equatable {
    /// The decoder refused the input with a message that is not one of the caller's errors.
    case refused(String)
    /// The worker ended during the request (a crash, a limit): how, as the system tells it.
    case stopped(String)
    /// The worker ran past its timeout, this many seconds, and was killed.
    case timedOut(seconds: Int)
    /// No worker could be started: why.
    case unavailable(String)
    /// Dropped before it was sent: whoever asked no longer wanted it (`Cancellation`).
    case cancelled

    /// The caller's own error that a worker sent as `message` (JSON), if it is one.
    static func decoded<Failure: Decodable>(_ message: String, as type: Failure.Type) -> Failure? {
        try? JSONDecoder().decode(type, from: Data(message.utf8))
    }
}

/// Where a request can be sent: one worker, or a pool of them.
package protocol DecoderWorkers: Sendable {
    var limits: DecoderWorker.Limits { get }
    func perform(_ request: DecoderRequest, input: FileDescriptor,
                 cancellation: Cancellation?) throws(DecoderWorker.Failure) -> DecoderWorker.Output
}

extension DecoderWorkers {
    /// Sends `request` with the file open at `input` and waits for the answer. A failure is
    /// thrown as the caller's `Failure`: the worker's own one when it sent it, else what `failing`
    /// makes of how the request ended. Not on the main thread.
    package func perform<Failure: Error & Decodable>(
        _ request: DecoderRequest, input: Int32, cancellation: Cancellation? = nil,
        failing: (WorkerFailure) -> Failure
    ) throws(Failure) -> DecoderWorker.Output {
        do {
            return try perform(request, input: FileDescriptor(rawValue: input), cancellation: cancellation)
        } catch {
            switch error {
            case .decoder(let message): throw WorkerFailure.decoded(message, as: Failure.self) ?? failing(.refused(message))
            case .crashed(let how): throw failing(.stopped(how))
            case .timedOut: throw failing(.timedOut(seconds: Int(limits.timeout.components.seconds)))
            case .cannotStart(let why): throw failing(.unavailable(why))
            case .cancelled: throw failing(.cancelled)
            }
        }
    }
}

extension DecoderWorker: DecoderWorkers {
    /// `perform(_:input:)`, unless `cancellation` is set already.
    package func perform(_ request: DecoderRequest, input: FileDescriptor, cancellation: Cancellation?) throws(Failure) -> Output {
        if cancellation?.isCancelled == true { throw .cancelled }
        return try perform(request, input: input)
    }
}

extension DecoderWorkerPool: DecoderWorkers {}

extension DecoderReply {
    /// The worker's side: a reply carrying `failure`, one of the caller's error types, as JSON
    /// (its description where it cannot be encoded), which `DecoderWorkers.perform` reads back.
    package init<Failure: Error & Encodable & CustomStringConvertible>(failure: Failure) {
        let encoded = (try? JSONEncoder().encode(failure)).flatMap { String(data: $0, encoding: .utf8) }
        self.init(error: encoded ?? failure.description)
    }
}
