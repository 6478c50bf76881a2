import CGLib
import Foundation
import GObjectSupport

/// Command-line arguments as the kernel gives them: bytes.
///
/// An argument in UTF-8 is used as it is. One that is not is taken for a file's name (every
/// verb and flag of Dossier's is ASCII), since Swift's `CommandLine.arguments` would turn its
/// invalid bytes into U+FFFD, naming another file: it is passed on as that file's `file://`
/// URI, whose escapes keep the bytes, made absolute against `directory`. The commands that
/// take URIs (`info`, `preview`, opening) reach the file; the others say it is not found.
enum RawArguments {
    /// The arguments `argv[0..<count]`, relative names taken against `directory` (the
    /// working directory when nil).
    static func strings(_ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>, count: Int, directory: UnsafePointer<CChar>? = nil) -> [String] {
        (0..<count).compactMap { index in
            guard let argument = argv[index] else { return nil }
            let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
            if let valid = String(validating: bytes, as: UTF8.self) { return valid }
            let absolute = g_canonicalize_filename(argument, directory)
            defer { g_free(absolute) }
            return takeString(g_filename_to_uri(absolute, nil, nil)) ?? String(decoding: bytes, as: UTF8.self)
        }
    }

    /// This process's own arguments, without the program's name.
    static var ofThisProcess: [String] {
        Array(strings(CommandLine.unsafeArgv, count: Int(CommandLine.argc)).dropFirst())
    }
}
