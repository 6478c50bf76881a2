import Foundation

/// Small real files of many kinds, made in memory for tests and benchmarks (never
/// downloaded): each is a valid file of its format, or at least its real header, as the
/// format's own tools write it.
public enum SampleFiles {
    /// One kind of file: a name with its usual extension, its content, and the MIME type
    /// shared-mime-info gives it.
    public struct Kind: Sendable {
        public let name: String
        public let mimeType: String
        public let content: [UInt8]
        /// True when the content alone (without the name) identifies the type.
        public let recognisableByContent: Bool
        /// What the name alone says, when it is less specific than the content (`.ogg` is any
        /// Ogg stream) or ambiguous (nil: `.otf` is also an OpenDocument formula template).
        public let mimeTypeByName: String?

        init(name: String, mimeType: String, content: [UInt8], recognisableByContent: Bool, byName: String?? = .none) {
            self.name = name
            self.mimeType = mimeType
            self.content = content
            self.recognisableByContent = recognisableByContent
            mimeTypeByName = byName ?? mimeType
        }
    }

    /// More than thirty kinds: images, documents, archives, audio, video, fonts, code, text.
    public static let kinds: [Kind] = [
        Kind(name: "image.png", mimeType: "image/png", content: png, recognisableByContent: true),
        Kind(name: "photo.jpg", mimeType: "image/jpeg", content: jpeg, recognisableByContent: true),
        Kind(name: "anim.gif", mimeType: "image/gif", content: gif, recognisableByContent: true),
        Kind(name: "picture.bmp", mimeType: "image/bmp", content: bmp, recognisableByContent: true),
        Kind(name: "scan.tiff", mimeType: "image/tiff", content: tiff, recognisableByContent: true),
        Kind(name: "photo.webp", mimeType: "image/webp", content: webp, recognisableByContent: true),
        Kind(name: "favicon.ico", mimeType: "image/vnd.microsoft.icon", content: ico, recognisableByContent: true),
        Kind(name: "drawing.svg", mimeType: "image/svg+xml", content: Array(svg.utf8), recognisableByContent: true),
        Kind(name: "paper.pdf", mimeType: "application/pdf", content: Array(pdf.utf8), recognisableByContent: true),
        Kind(name: "figure.ps", mimeType: "application/postscript", content: Array("%!PS-Adobe-3.0\n%%Pages: 1\nshowpage\n".utf8), recognisableByContent: true),
        Kind(name: "letter.rtf", mimeType: "application/rtf", content: Array("{\\rtf1\\ansi Hello}\n".utf8), recognisableByContent: true),
        Kind(name: "bundle.zip", mimeType: "application/zip", content: zip(entries: [("hello.txt", Array("hello\n".utf8))]), recognisableByContent: true),
        Kind(name: "letter.odt", mimeType: "application/vnd.oasis.opendocument.text",
             content: zip(entries: [("mimetype", Array("application/vnd.oasis.opendocument.text".utf8))]), recognisableByContent: true),
        Kind(name: "report.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
             content: zip(entries: [("[Content_Types].xml", Array("<Types/>".utf8))]), recognisableByContent: false),
        Kind(name: "backup.tar", mimeType: "application/x-tar", content: tar, recognisableByContent: true),
        Kind(name: "notes.gz", mimeType: "application/gzip", content: [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0], recognisableByContent: true),
        Kind(name: "data.bz2", mimeType: "application/x-bzip", content: Array("BZh91AY&SY".utf8) + [UInt8](repeating: 0, count: 30), recognisableByContent: true),
        Kind(name: "data.xz", mimeType: "application/x-xz", content: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04] + [UInt8](repeating: 0, count: 24), recognisableByContent: true),
        Kind(name: "archive.7z", mimeType: "application/x-7z-compressed", content: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04] + [UInt8](repeating: 0, count: 24), recognisableByContent: true),
        Kind(name: "program", mimeType: "application/x-executable", content: elf, recognisableByContent: true),
        Kind(name: "song.ogg", mimeType: "audio/x-vorbis+ogg", content: oggVorbis, recognisableByContent: true, byName: "audio/ogg"),
        Kind(name: "song.flac", mimeType: "audio/flac", content: Array("fLaC".utf8) + [0, 0, 0, 0x22] + [UInt8](repeating: 0, count: 34), recognisableByContent: true),
        Kind(name: "song.mp3", mimeType: "audio/mpeg", content: Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 0] + [0xff, 0xfb, 0x90, 0x64] + [UInt8](repeating: 0, count: 40), recognisableByContent: true),
        Kind(name: "sound.wav", mimeType: "audio/x-wav", content: wav, recognisableByContent: true),
        Kind(name: "tune.mid", mimeType: "audio/midi", content: Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 0x60] + Array("MTrk".utf8) + [0, 0, 0, 4, 0, 0xff, 0x2f, 0], recognisableByContent: true),
        Kind(name: "clip.webm", mimeType: "video/webm", content: webm, recognisableByContent: true),
        Kind(name: "movie.mp4", mimeType: "video/mp4", content: [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42isom".utf8), recognisableByContent: true),
        Kind(name: "font.ttf", mimeType: "font/ttf", content: [0, 1, 0, 0, 0, 0x0a, 0, 0x80, 0, 3, 0, 0x20] + [UInt8](repeating: 0, count: 20), recognisableByContent: true),
        Kind(name: "font.otf", mimeType: "font/otf", content: Array("OTTO".utf8) + [0, 0x0a, 0, 0x80, 0, 3, 0, 0x20] + [UInt8](repeating: 0, count: 20), recognisableByContent: true, byName: .some(nil)),
        Kind(name: "font.woff", mimeType: "font/woff", content: Array("wOFF".utf8) + Array("OTTO".utf8) + [UInt8](repeating: 0, count: 36), recognisableByContent: true),
        Kind(name: "store.sqlite3", mimeType: "application/vnd.sqlite3", content: Array("SQLite format 3".utf8) + [0] + [0x10, 0, 1, 1] + [UInt8](repeating: 0, count: 80), recognisableByContent: true),
        Kind(name: "page.html", mimeType: "text/html", content: Array("<!DOCTYPE html>\n<html><head><title>t</title></head><body><p>Hi</p></body></html>\n".utf8), recognisableByContent: true),
        Kind(name: "feed.xml", mimeType: "application/xml", content: Array("<?xml version=\"1.0\"?>\n<items><item/></items>\n".utf8), recognisableByContent: true),
        Kind(name: "install.sh", mimeType: "application/x-shellscript", content: Array("#!/bin/sh\necho hello\n".utf8), recognisableByContent: true),
        Kind(name: "tool.py", mimeType: "text/x-python3", content: Array("#!/usr/bin/env python3\nprint('hello')\n".utf8), recognisableByContent: true, byName: "text/x-python"),
        Kind(name: "notes.txt", mimeType: "text/plain", content: Array("Just some words.\nAnd more words.\n".utf8), recognisableByContent: true),
        Kind(name: "readme.md", mimeType: "text/markdown", content: Array("# Title\n\n- one\n- two\n".utf8), recognisableByContent: false),
        Kind(name: "table.csv", mimeType: "text/csv", content: Array("name,size\na,1\nb,2\n".utf8), recognisableByContent: false),
        Kind(name: "config.json", mimeType: "application/json", content: Array("{\"a\": [1, 2, 3]}\n".utf8), recognisableByContent: false),
        Kind(name: "main.c", mimeType: "text/x-csrc", content: Array("#include <stdio.h>\nint main(void) { return 0; }\n".utf8), recognisableByContent: false),
        Kind(name: "style.css", mimeType: "text/css", content: Array("body { color: red; }\n".utf8), recognisableByContent: false),
    ]

    // MARK: Images

    /// A 1×1 red PNG with alpha, byte for byte as libpng writes it.
    public static let png: [UInt8] = [
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
        0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
        0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
        0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
    ]

    /// The start of a baseline JFIF JPEG (SOI, APP0 JFIF, then SOF0): what every JPEG decoder
    /// and magic rule looks at first.
    public static let jpeg: [UInt8] = [
        0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
        0x00, 0x01, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11,
        0x00, 0xff, 0xd9,
    ]

    /// A 1×1 GIF89a.
    public static let gif: [UInt8] = Array("GIF89a".utf8) + [
        0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00,
        0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
    ]

    /// A 1×1 24-bit BMP.
    public static let bmp: [UInt8] = Array("BM".utf8) + le32(58) + le32(0) + le32(54) + le32(40) + le32(1) + le32(1)
        + [1, 0, 24, 0] + le32(0) + le32(4) + le32(2835) + le32(2835) + le32(0) + le32(0) + [0, 0, 0xff, 0]

    /// A little-endian TIFF header with an empty first directory.
    public static let tiff: [UInt8] = [0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]

    /// A RIFF/WEBP container with a VP8L chunk header.
    public static let webp: [UInt8] = Array("RIFF".utf8) + le32(26) + Array("WEBPVP8L".utf8) + le32(13)
        + [0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00]

    /// An ICO directory with one 16×16 entry.
    public static let ico: [UInt8] = [0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0] + le32(40) + le32(22) + [UInt8](repeating: 0, count: 40)

    public static let svg = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6" fill="red"/></svg>

        """

    // MARK: Documents

    /// A one-page PDF with a line of text.
    public static let pdf: String = pdfDocument()

    /// A one-page PDF whose whole page is a link to `url`.
    public static func linkedPDF(to url: String) -> String { pdfDocument(link: url) }

    /// A one-page PDF encrypted with a user password (the standard security handler, RC4 40-bit):
    /// it cannot be opened without the password, as a reader would find it.
    public static let encryptedPDF: String = pdfDocument(encrypted: true)

    static func pdfDocument(link: String? = nil, encrypted: Bool = false) -> String {
        let annotations = link == nil ? "" : " /Annots [6 0 R]"
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>\(annotations) >>",
            "<< /Length 44 >>\nstream\nBT /F1 12 Tf 20 100 Td (Hello, PDF) Tj ET\nendstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        if let link {
            objects.append("<< /Type /Annot /Subtype /Link /Rect [0 0 200 200] /Border [0 0 0] /A << /S /URI /URI (\(link)) >> >>")
        }
        // An owner and a user key that the empty password does not give: a password is needed.
        let key = String(repeating: "5A", count: 32)
        if encrypted { objects.append("<< /Filter /Standard /V 1 /R 2 /O <\(key)> /U <\(key)> /P -44 >>") }
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            text += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n"
        }
        let encryption = encrypted ? " /Encrypt \(objects.count) 0 R /ID [<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]" : ""
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R\(encryption) >>\nstartxref\n\(xref)\n%%EOF\n"
        return text
    }

    // MARK: Archives and programs

    /// `data` as a gzip file of stored (uncompressed) deflate blocks, as `gzip` frames it.
    public static func gzip(_ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
        var offset = 0
        repeat {
            let count = min(data.count - offset, 65_535)
            bytes.append(offset + count == data.count ? 1 : 0)
            bytes += le16(UInt16(count)) + le16(~UInt16(count)) + data[offset..<offset + count]
            offset += count
        } while offset < data.count
        return bytes + le32(crc32(data)) + le32(UInt32(truncatingIfNeeded: data.count))
    }

    /// A zip archive of stored (uncompressed) entries, as `zip -0` writes it.
    public static func zip(entries: [(name: String, data: [UInt8])]) -> [UInt8] {
        var archive: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = crc32(entry.data)
            let offset = archive.count
            archive += le32(0x0403_4b50) + le16(10) + le16(0) + le16(0) + le16(0) + le16(0x21)
            archive += le32(crc) + le32(UInt32(entry.data.count)) + le32(UInt32(entry.data.count))
            archive += le16(UInt16(name.count)) + le16(0) + name + entry.data
            central += le32(0x0201_4b50) + le16(20) + le16(10) + le16(0) + le16(0) + le16(0) + le16(0x21)
            central += le32(crc) + le32(UInt32(entry.data.count)) + le32(UInt32(entry.data.count))
            central += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(UInt32(offset)) + name
        }
        let centralOffset = archive.count
        archive += central
        archive += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        archive += le32(UInt32(central.count)) + le32(UInt32(centralOffset)) + le16(0)
        return archive
    }

    /// A POSIX ustar archive holding one small file.
    public static let tar: [UInt8] = {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte }
        }
        put("hello.txt", at: 0)
        put("0000644", at: 100)
        put("0000000", at: 108)
        put("0000000", at: 116)
        put("00000000006", at: 124)
        put("00000000000", at: 136)
        put("        ", at: 148)
        put("0", at: 156)
        put("ustar", at: 257)
        put("00", at: 263)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(String(format: "%06o", sum) + "\0 ", at: 148)
        var body = [UInt8](repeating: 0, count: 512)
        for (index, byte) in "hello\n".utf8.enumerated() { body[index] = byte }
        return header + body + [UInt8](repeating: 0, count: 1024)
    }()

    /// The header of a 64-bit little-endian ELF executable.
    public static let elf: [UInt8] = [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 8)
        + le16(2) + le16(0x3e) + le32(1) + [UInt8](repeating: 0, count: 48)

    // MARK: Audio and video

    /// The first Ogg page of a Vorbis stream (identification header).
    public static let oggVorbis: [UInt8] = Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 8) + le32(1) + le32(0) + le32(0)
        + [1, 30] + [1] + Array("vorbis".utf8) + le32(0) + [1] + le32(44100) + le32(0) + le32(80000) + le32(0) + [0xb8, 1]

    /// A RIFF/WAVE header with an empty data chunk.
    public static let wav: [UInt8] = Array("RIFF".utf8) + le32(36) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1)
        + le32(8000) + le32(8000) + le16(1) + le16(8) + Array("data".utf8) + le32(0)

    /// An EBML header whose DocType is "webm".
    public static let webm: [UInt8] = [0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01,
        0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x84] + Array("webm".utf8)
        + [0x42, 0x87, 0x81, 0x02, 0x42, 0x85, 0x81, 0x02]

    // MARK: Helpers

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }

    static func crc32(_ data: [UInt8]) -> UInt32 { EXIF.crc32(data) }

    /// Writes every kind into `folder` under its usual name; returns the URLs.
    @discardableResult
    public static func writeAll(into folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try kinds.map { kind in
            let url = folder.appendingPathComponent(kind.name)
            try Data(kind.content).write(to: url)
            return url
        }
    }
}
