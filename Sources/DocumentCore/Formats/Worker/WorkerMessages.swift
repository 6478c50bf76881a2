import CSandbox
import Foundation

/// What the previewer asks a decoder worker: one operation on one input, which travels beside
/// the request as an open, read-only file descriptor (never a path).
struct WorkerRequest: Codable, Sendable {
    /// The decoder's operation, such as `image`.
    var operation: String
    /// The operation's options, such as the size to decode at.
    var options: [String: String]
}

/// The worker's answer: small values, or the decoder's own error message; a large result
/// (pixels) travels beside it as a sealed memfd.
struct WorkerReply: Codable, Sendable {
    var values: [String: String] = [:]
    var error: String?

    /// A value a reply carries when the worker ends after it (a resource it cannot renew, such as
    /// the descriptor numbers fonts are read through): the caller lets it go and starts another.
    static let leaving = "worker.leaving"
}

/// One JSON message per packet on the worker's SOCK_SEQPACKET socket, with at most one fd.
enum WorkerWire {
    /// The longest message either side sends or accepts; results larger than this go in a memfd.
    static let packetLimit = 64 << 10

    static func send<Message: Encodable>(_ message: Message, fd: Int32 = -1, on socket: Int32) -> Bool {
        guard let data = try? JSONEncoder().encode(message), data.count <= packetLimit else { return false }
        return data.withUnsafeBytes { bytes in
            dossier_packet_send(socket, bytes.baseAddress, bytes.count, fd) == bytes.count
        }
    }

    enum Received<Message> {
        case message(Message, fd: Int32)
        /// The peer closed its end (or died).
        case end
        /// The packet was not a message of this kind; any fd that came with it is closed.
        case garbled
    }

    static func receive<Message: Decodable>(_ type: Message.Type, on socket: Int32) -> Received<Message> {
        var buffer = [UInt8](repeating: 0, count: packetLimit)
        var fd: Int32 = -1
        let length = buffer.withUnsafeMutableBytes { dossier_packet_receive(socket, $0.baseAddress, $0.count, &fd) }
        if length == 0 { return .end }
        guard length > 0 else { return errno == EMSGSIZE ? .garbled : .end }
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(buffer[..<length])) else {
            if fd >= 0 { close(fd) }
            return .garbled
        }
        return .message(message, fd: fd)
    }
}
