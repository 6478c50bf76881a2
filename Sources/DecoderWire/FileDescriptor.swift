import Foundation

/// An open file descriptor, as it travels beside a message on the decoder worker's socket: the
/// input a request reads (read-only, never a path), or the sealed memfd a reply's large result
/// comes in. Whoever holds it closes it.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The descriptor's number in this process.
    public let rawValue: Int32

    /// The descriptor numbered `rawValue`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Closes the descriptor.
    public func close() {
        _ = Foundation.close(rawValue)
    }
}
