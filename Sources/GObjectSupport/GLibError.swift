import CGLib

/// A `GError` carried into Swift: the domain, code and message GLib reported.
public struct GLibError: Error, CustomStringConvertible, Sendable, Equatable {
    public let domain: String
    public let code: Int
    public let message: String

    /// Copies and frees a GError (the caller gives up its ownership).
    public init(consuming error: UnsafeMutablePointer<GError>) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = Int(error.pointee.code)
        message = error.pointee.message.map { String(cString: $0) } ?? ""
        g_error_free(error)
    }

    public init(domain: String, code: Int, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// True when the error is `G_IO_ERROR` with the given code.
    public func isIOError(_ code: GIOErrorEnum) -> Bool {
        domain == String(cString: g_quark_to_string(g_io_error_quark())) && self.code == Int(code.rawValue)
    }
}

/// Calls a C function that reports failure through a `GError **` argument, and throws it.
///
/// `body` receives the out-parameter; if GLib set it, the error is thrown (and freed).
public func withGError<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) throws -> T) throws -> T {
    var error: UnsafeMutablePointer<GError>?
    let result = try body(&error)
    if let error {
        throw GLibError(consuming: error)
    }
    return result
}
