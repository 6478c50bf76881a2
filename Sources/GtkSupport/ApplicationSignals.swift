import CGLib

// GApplication's signals that carry more than the application.

// GApplication::command-line: (application, command line) → the exit status.
private typealias CommandLine = @convention(c) (gpointer?, UnsafeMutablePointer<GApplicationCommandLine>?, gpointer?) -> gint
private let commandLine: CommandLine = { _, commandLine, data in
    guard let commandLine else { return 1 }
    return box(data, as: ((UnsafeMutablePointer<GApplicationCommandLine>) -> Int32).self)(commandLine)
}

/// Connects GApplication's `command-line`: the handler gets the invocation's command line
/// and returns its exit status.
@discardableResult
public func connectCommandLine(
    _ application: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (UnsafeMutablePointer<GApplicationCommandLine>) -> Int32
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: ((UnsafeMutablePointer<GApplicationCommandLine>) -> Int32).self)  // called on the main thread only (`box`)
    return connect(application, "command-line", handler, trampoline: unsafeBitCast(commandLine, to: GCallback.self), after: false)
}

// GApplication::open: (application, GFile **files, n_files, hint).
private typealias Open = @convention(c) (gpointer?, UnsafeMutablePointer<OpaquePointer?>?, gint, UnsafePointer<gchar>?, gpointer?) -> Void
private let open: Open = { _, files, count, _, data in
    let files = (0..<Int(max(count, 0))).compactMap { files?[$0] }
    box(data, as: (([OpaquePointer]) -> Void).self)(files)
}

/// Connects GApplication's `open`: the handler gets the files to open (GFiles the signal
/// owns: take a reference to keep one).
@discardableResult
public func connectOpen(
    _ application: UnsafeMutableRawPointer, _ handler: @escaping @MainActor ([OpaquePointer]) -> Void
) -> SignalConnection {
    let handler = unsafeBitCast(handler, to: (([OpaquePointer]) -> Void).self)  // called on the main thread only (`box`)
    return connect(application, "open", handler, trampoline: unsafeBitCast(open, to: GCallback.self), after: false)
}
