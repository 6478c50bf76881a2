/// A decoder worker's answer: small values by name, or the decoder's error message. A large
/// result (pixels, a listing) travels beside it as a sealed memfd.
public struct DecoderReply: Codable, Sendable, Equatable {
    /// Small results by name (sizes, counts, text), as the worker sent them: check them before use.
    public var values: [String: String]
    /// The decoder's error, when it refused the input.
    public var error: String?
    /// The worker ends after this reply (a resource it cannot renew, such as the descriptor
    /// numbers fonts are read through): the caller lets it go, and the next request starts another.
    public var isLeaving: Bool

    /// A reply with `values`, or `error`.
    public init(values: [String: String] = [:], error: String? = nil, isLeaving: Bool = false) {
        self.values = values
        self.error = error
        self.isLeaving = isLeaving
    }
}

/// The first packet a worker sends once it is locked down: the protocol it speaks. A caller
/// uses no worker of another version.
public struct DecoderHello: Codable, Sendable, Equatable {
    /// The protocol version of this build: raised with every change to the messages' shape.
    public static let currentVersion = 2

    public var version: Int

    /// The hello of this build's protocol.
    public init(version: Int = DecoderHello.currentVersion) {
        self.version = version
    }
}
