import CGLib
import CGStreamer
import DecoderWire
import DocumentCore
import Foundation
import GObjectSupport

/// The worker's side of `MediaInspection`: GStreamer's discoverer on the file open at the
/// request's descriptor (as `file:///proc/self/fd/N`: a new open file of its own, which the
/// demuxers seek in), then the cover art decoded by the image decoder's path at most
/// `MediaInspection.coverEdge` on its long side, its pixels in a sealed memfd.
///
/// GStreamer is loaded at the first media request, after the lock-down (an image worker does
/// not pay for it), and reads the caller's plugin registry (`GStreamerRegistry`) without
/// updating it.
enum MediaDiscoverer {
    static func perform(input: Int32) -> (DecoderReply, Int32?) {
        do throws(MediaError) {
            return try discover(input)
        } catch {
            let encoded = (try? JSONEncoder().encode(error)).flatMap { String(data: $0, encoding: .utf8) }
            var reply = DecoderReply(error: encoded ?? error.description)
            // Without the registry this worker can never inspect: the next one is given it.
            reply.isLeaving = error == .noRegistry
            return (reply, nil)
        }
    }

    private static func discover(_ input: Int32) throws(MediaError) -> (DecoderReply, Int32?) {
        try discovered(input) { (info: DossierMediaInfo) throws(MediaError) -> (DecoderReply, Int32?) in
            guard info.has_video != 0 || info.has_audio != 0 else { throw .nothingPlayable }
            var values = ["hasVideo": info.has_video != 0 ? "1" : "0", "hasAudio": info.has_audio != 0 ? "1" : "0"]
            for (name, text) in [("title", info.title), ("artist", info.artist), ("album", info.album)] {
                if let text { values[name] = String(String(cString: text).prefix(MediaInspection.textLimit)) }
            }
            if info.duration != UInt64.max { values["duration"] = String(info.duration) }
            guard let bytes = info.cover, let (cover, fd) = coverPixels(bytes) else { return (DecoderReply(values: values), nil) }
            return (DecoderReply(values: cover.values.merging(values) { _, media in media }), fd)
        }
    }

    /// The cover art of the media file open at `input`, its bytes in a sealed memfd (the caller
    /// closes it); nil when the file has none.
    static func cover(_ input: Int32) throws(MediaError) -> Int32? {
        try discovered(input) { (info: DossierMediaInfo) throws(MediaError) -> Int32? in
            var size: gsize = 0
            guard let bytes = info.cover, let data = g_bytes_get_data(bytes, &size), size > 0 else { return nil }
            return SealedBlob.seal(UnsafeRawBufferPointer(start: data, count: Int(size)), name: "dossier-cover")
        }
    }

    /// GStreamer's discoverer on the file open at `input`: `body` reads what it found, which is
    /// freed after.
    private static func discovered<Result>(
        _ input: Int32, _ body: (DossierMediaInfo) throws(MediaError) -> Result
    ) throws(MediaError) -> Result {
        guard let registry = getenv("GST_REGISTRY_1_0"), access(registry, R_OK) == 0 else { throw .noRegistry }
        var info = DossierMediaInfo()
        var message: UnsafeMutablePointer<CChar>?
        let timeout = MediaInspection.discovererTimeout.components
        let result = dossier_media_discover("file:///proc/self/fd/\(input)", guint64(timeout.seconds) * 1_000_000_000,
                                            &info, &message)
        defer { dossier_media_info_clear(&info) }
        let reason = takeString(message).flatMap { $0.isEmpty ? nil : $0 } ?? tr("unknown error")
        switch result {
        case DOSSIER_MEDIA_OK: break
        case DOSSIER_MEDIA_NOT_STARTED: throw .notStarted(reason)
        case DOSSIER_MEDIA_MISSING_PLUGINS: throw .missingPlugins
        case DOSSIER_MEDIA_TIMEOUT: throw .inspectionTimedOut
        default: throw .unreadable(reason)
        }
        return try body(info)
    }

    /// The cover's bytes decoded as an image file is (in a memfd of its own, read as
    /// `/proc/self/fd/M`): nil when they are not an image the decoders read.
    private static func coverPixels(_ bytes: OpaquePointer) -> (DecoderReply, Int32)? {
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size), size > 0,
              let file = SealedBlob.seal(UnsafeRawBufferPointer(start: data, count: Int(size)), name: "dossier-cover") else { return nil }
        defer { close(file) }
        var request = ImageDecoder.Request()
        request.edge = MediaInspection.coverEdge
        request.still = true
        // Where GdkPixbuf would hand the image to glycin, whose sandbox cannot start in here.
        request.jpegThroughLibjpeg = DecoderWorker.pixbufDecodesThroughGlycin
        let (reply, fd) = ImageDecoder.decode(path: "/proc/self/fd/\(file)", request)
        guard reply.error == nil, let fd else {
            if let fd { close(fd) }
            return nil
        }
        return (reply, fd)
    }
}
