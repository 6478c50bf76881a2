import Foundation

/// Files a previewer must survive: each starts as its format does (the right name, often the
/// right magic number) and then is cut short, lies about its size, or means nothing. Every one
/// should end on an error page, never on a crash or a hang.
public enum DamagedFiles {
    /// Right magic numbers, then bytes that mean nothing.
    static let garbage: [UInt8] = (0..<4000).map { UInt8($0 * 37 % 251) }

    /// The damaged files, each with the name it is written under.
    public static let kinds: [(name: String, content: [UInt8])] = [
        ("truncated.png", Array(SampleFiles.png.prefix(30))),
        ("corrupt.pdf", Array("%PDF-1.4\nthis is not a PDF at all\n".utf8)),
        ("huge.png", EXIF.bombPNG(width: 30_000, height: 30_000)),
        ("damaged.ogg", Array("OggS".utf8) + garbage),
        ("damaged.webm", [0x1A, 0x45, 0xDF, 0xA3] + garbage),
        ("damaged.zip", [0x50, 0x4B, 0x03, 0x04] + garbage),
        ("damaged.ttf", [0x00, 0x01, 0x00, 0x00] + garbage),
    ]

    /// The name of the FIFO `writeAll` makes: a reader that opens it waits for a writer
    /// that never comes.
    public static let fifoName = "pipe.txt"

    /// Writes every damaged file into `folder`, and a FIFO named `fifoName`; returns them in
    /// the order of `kinds`, the FIFO last.
    @discardableResult
    public static func writeAll(into folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files = try kinds.map { kind in
            let url = folder.appendingPathComponent(kind.name)
            try Data(kind.content).write(to: url)
            return url
        }
        let fifo = folder.appendingPathComponent(fifoName)
        try? FileManager.default.removeItem(at: fifo)
        guard mkfifo(fifo.path, 0o600) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fifo.path,
                                                           NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
        }
        files.append(fifo)
        return files
    }
}
