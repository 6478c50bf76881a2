import CSandbox
import Foundation

/// The decoder worker's socket: one JSON message per SOCK_SEQPACKET packet, with at most one
/// file descriptor beside it.
public enum DecoderWire {
    /// The longest message either side sends or accepts; results larger than this go in a memfd.
    public static let packetLimit = 64 << 10

    /// Sends `message`, and `descriptor` beside it; false when it cannot be encoded within the
    /// limit or the peer is gone.
    public static func send<Message: Encodable>(_ message: Message, with descriptor: FileDescriptor? = nil,
                                                on socket: FileDescriptor) -> Bool {
        guard let data = try? encode(message), data.count <= packetLimit else { return false }
        return data.withUnsafeBytes { bytes in
            dossier_packet_send(socket.rawValue, bytes.baseAddress, bytes.count, descriptor?.rawValue ?? -1) == bytes.count
        }
    }

    /// What a receive found.
    public enum Received<Message> {
        case message(Message, FileDescriptor?)
        /// The peer closed its end (or died).
        case end
        /// The packet was not a message of this kind; any descriptor that came with it is closed.
        case garbled
    }

    /// Receives one message of type `Message`, and the descriptor beside it.
    public static func receive<Message: Decodable>(_ type: Message.Type, on socket: FileDescriptor) -> Received<Message> {
        var buffer = [UInt8](repeating: 0, count: packetLimit)
        var fd: Int32 = -1
        let length = buffer.withUnsafeMutableBytes { dossier_packet_receive(socket.rawValue, $0.baseAddress, $0.count, &fd) }
        if length == 0 { return .end }
        guard length > 0 else { return errno == EMSGSIZE ? .garbled : .end }
        let descriptor = fd >= 0 ? FileDescriptor(rawValue: fd) : nil
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(buffer[..<length])) else {
            descriptor?.close()
            return .garbled
        }
        return .message(message, descriptor)
    }

    /// Waits until a packet can be read, at most `timeout`; false when none came.
    public static func wait(on socket: FileDescriptor, timeout: Duration) -> Bool {
        let parts = timeout.components
        let milliseconds = Int32(clamping: parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
        return dossier_packet_wait(socket.rawValue, milliseconds) == 1
    }

    /// `message` as it goes on the wire: JSON with sorted keys, so that the same message is the
    /// same bytes (the wire-format test pins them).
    public static func encode<Message: Encodable>(_ message: Message) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(message)
    }
}
