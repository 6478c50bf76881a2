import Foundation

/// The video and the song the previewer bench shows, encoded by ffmpeg from its own test
/// sources (the sample corpus's `tools/make-samples.sh` makes its media the same way). VP9
/// and Vorbis: Debian's GStreamer decodes both with the "good" plugins alone.
enum GeneratedMedia {
    /// 10 s of 1080p VP9 in WebM: ffmpeg's `testsrc2` (colour bars and moving figures).
    static func video(at url: URL, ffmpeg: String) throws {
        try run(ffmpeg, ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10",
                         "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-b:v", "3M",
                         "-pix_fmt", "yuv420p", "-f", "webm", url.path])
    }

    /// 30 s of a tone in Ogg Vorbis with a title, an artist, an album and a 600×600 cover
    /// (a FLAC picture block in METADATA_BLOCK_PICTURE, as Vorbis comments carry pictures).
    static func song(at url: URL, ffmpeg: String) throws {
        let cover = url.deletingLastPathComponent().appendingPathComponent("partial-cover.jpg")
        defer { try? FileManager.default.removeItem(at: cover) }
        try GeneratedDocuments.photo(at: cover, width: 600, height: 600)
        let picture = pictureBlock(jpeg: [UInt8](try Data(contentsOf: cover)), width: 600, height: 600)
        try run(ffmpeg, ["-f", "lavfi", "-i", "sine=frequency=440:duration=30", "-c:a", "libvorbis",
                         "-metadata", "title=Harbour Lights", "-metadata", "artist=The Bench Quartet",
                         "-metadata", "album=Measured Tones",
                         "-metadata", "METADATA_BLOCK_PICTURE=" + Data(picture).base64EncodedString(),
                         "-f", "ogg", url.path])
    }

    /// A FLAC METADATA_BLOCK_PICTURE body: a front cover (type 3) of a JPEG.
    private static func pictureBlock(jpeg: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xff) } }
        let mime = Array("image/jpeg".utf8), description = Array("Cover".utf8)
        return be32(3) + be32(UInt32(mime.count)) + mime + be32(UInt32(description.count)) + description
            + be32(width) + be32(height) + be32(24) + be32(0) + be32(UInt32(jpeg.count)) + jpeg
    }

    private static func run(_ ffmpeg: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchInputError("ffmpeg failed (\(process.terminationStatus)): \(message)")
        }
    }
}
