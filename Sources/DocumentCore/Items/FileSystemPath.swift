import CGLib
import Foundation
import GObjectSupport

/// A local path as the kernel has it: bytes, which need not be UTF-8.
///
/// Linux names are bytes, and old archives and USB sticks are full of Latin-1, Shift_JIS and
/// CP437 ones. Foundation's `URL.path` is a `String`: for `file:///tmp/caf%E9.txt` it is
/// empty, and `URL(fileURLWithFileSystemRepresentation:)` turns the byte into U+FFFD, which
/// names another file. A file URL keeps such bytes percent-escaped, as GIO and the thumbnail
/// specification do. So Dossier carries URLs, and turns one into a `FileSystemPath` only at
/// the call into the system (`open`, `stat`, GIO), with ``withCString(_:)``.
///
/// ```swift
/// let fd = item.url.rawPath.withCString { open($0, O_RDONLY | O_CLOEXEC) }
/// ```
public struct FileSystemPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// The path made of these bytes.
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// A path written as a string, in UTF-8.
    public init(_ path: String) {
        bytes = Array(path.utf8)
    }

    /// A path written as a literal, in UTF-8.
    public init(stringLiteral path: String) {
        self.init(path)
    }

    /// The path of a file URL, its escapes decoded byte for byte (but for `%2F` and `%00`);
    /// without a trailing slash (a folder's URL has one), as `URL.path` gives it.
    public init(_ url: URL) {
        var escaped = Substring(url.path(percentEncoded: true))
        while escaped.count > 1, escaped.hasSuffix("/") { escaped.removeLast() }
        guard escaped.utf8.contains(UInt8(ascii: "%")) else {
            bytes = Array(escaped.utf8)
            return
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(escaped.utf8.count)
        var rest = escaped.utf8[...]
        while let byte = rest.popFirst() {
            // "%2F" and "%00" stay as they are, as Foundation and GLib leave them: a name holds
            // neither a slash nor a NUL, and neither may cut or split the path.
            if byte == UInt8(ascii: "%"), rest.count >= 2,
                let high = Self.hexValue(rest[rest.startIndex]),
                let low = Self.hexValue(rest[rest.index(after: rest.startIndex)]),
                high << 4 | low != 0, high << 4 | low != UInt8(ascii: "/")
            {
                decoded.append(high << 4 | low)
                rest = rest.dropFirst(2)
            } else {
                decoded.append(byte)
            }
        }
        bytes = decoded
    }

    /// Takes a path that GLib allocated (`g_file_get_path`), and frees it; nil stays nil.
    package init?(taking path: UnsafeMutablePointer<CChar>?) {
        guard let path else { return nil }
        defer { g_free(path) }
        self.init(bytes: UnsafeRawBufferPointer(start: path, count: strlen(path)))
    }

    /// The path as a string, when its bytes are UTF-8; nil when they are not.
    public var string: String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The file URL of this path. A path in UTF-8 gets Foundation's URL for it; other bytes
    /// are percent-escaped as GLib escapes them (`g_filename_to_uri`).
    public var url: URL {
        if let string { return URL(fileURLWithPath: string) }
        let uri = withCString { path in takeString(g_filename_to_uri(path, nil, nil)) }
        return uri.flatMap { URL(string: $0) } ?? URL(fileURLWithPath: description)
    }

    /// The last component's bytes (the file's name); the whole path when it has no slash.
    public var lastComponent: [UInt8] {
        var end = bytes.endIndex
        while end > bytes.startIndex + 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? bytes.startIndex
        return Array(bytes[start..<end])
    }

    /// The name as GLib, and so Files, shows it: UTF-8 as it is; otherwise every invalid byte
    /// as U+FFFD, followed by " (invalid encoding)". Never empty for a non-empty name.
    public var displayName: String {
        let name = lastComponent
        if let valid = String(validating: name, as: UTF8.self) { return valid }
        let shown = name.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                var terminated = Array(characters)
                terminated.append(0)
                return takeString(g_filename_display_name(terminated)) ?? String(decoding: name, as: UTF8.self)
            }
        }
        return shown + tr(" (invalid encoding)")
    }

    /// The name's characters for matching globs: invalid bytes become U+FFFD, and the
    /// extension stays what it is.
    public var nameForMatching: String {
        String(decoding: lastComponent, as: UTF8.self)
    }

    /// The path, its invalid bytes shown as U+FFFD: for messages and logs, never for reaching
    /// the file.
    public var description: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension URL {
    /// This file URL's path as the kernel has it, bytes that need not be UTF-8.
    public var rawPath: FileSystemPath { FileSystemPath(self) }

    /// The last component of this file URL as GLib shows it (see
    /// ``FileSystemPath/displayName``).
    public var fileDisplayName: String { FileSystemPath(self).displayName }

    /// This location written for people to read and for GIO to read back (as
    /// `g_file_get_parse_name` writes it): a local path when its bytes are UTF-8, otherwise the
    /// URI, whose escapes keep the bytes. For copying a location as text, and for handing it
    /// to something that takes paths or URIs.
    public var parseName: String {
        isFileURL ? FileSystemPath(self).string ?? absoluteString : absoluteString
    }
}

extension FileHandle {
    /// Opens the file at `path` for reading (without blocking on a FIFO); nil, with `errno`
    /// set, when it cannot be. `FileHandle(forReadingAtPath:)` for a path that is bytes.
    public convenience init?(forReadingAt path: FileSystemPath) {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        self.init(fileDescriptor: fd, closeOnDealloc: true)
    }
}

extension Data {
    /// The regular file at `path`, mapped into memory rather than read (as `.alwaysMapped`
    /// maps): only the pages used are ever loaded. Throws the system's reason.
    package init(mappingFileAt path: FileSystemPath) throws(POSIXError) {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw POSIXError(.EINVAL) }
        let size = Int(status.st_size)
        guard size > 0 else {
            self.init()
            return
        }
        guard let start = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), start != MAP_FAILED else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENOMEM)
        }
        self.init(bytesNoCopy: start, count: size, deallocator: .custom { start, size in munmap(start, size) })
    }
}
