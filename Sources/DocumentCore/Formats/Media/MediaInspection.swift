import DecoderWire
import Foundation

/// What a media file holds, found out of process: the file goes to a decoder worker as an open
/// descriptor, GStreamer's discoverer reads it there (`MediaDiscoverer`), and the tags come
/// back as small values, the cover art as pixels in a sealed memfd. Nothing of the answer is
/// trusted: the texts are cut to a length, the pixels' layout is checked against the memfd.
///
/// It asks the previewer's own workers (`PreviewWorkers`), as images and archives do.
package enum MediaInspection {
    /// The longest the discoverer may take, inside the worker's own limits.
    package static let discovererTimeout: Duration = .seconds(5)
    /// Cover art is decoded no larger than this on its long side.
    package static let coverEdge: Int32 = 512
    /// The most characters of a title, artist or album kept.
    package static let textLimit = 1000
    /// The longest duration believed (a day; longer says nothing a person can use).
    static let longestDuration: UInt64 = 86_400 * 1_000_000_000

    /// Whether GStreamer's plugin registry is in the user's cache: without it, an inspection
    /// first loads GStreamer in the calling process, which makes it (once per user and machine).
    package static var hasRegistry: Bool { GStreamerRegistry.exists }

    /// Inspects the media file at `path` in a decoder worker, off the calling thread.
    package static func inspect(_ path: FileSystemPath) async -> Result<MediaDetails, MediaError> {
        await blockingWork { Result { () throws(MediaError) -> MediaDetails in try inspectNow(path) } }
    }

    /// `inspect(_:)` on the calling thread, which it blocks until the worker answers (never
    /// the main thread).
    package static func inspectNow(_ path: FileSystemPath, workers: DecoderWorkerPool = PreviewWorkers.current) throws(MediaError) -> MediaDetails {
        // The first time GStreamer is used at all, the registry is made here, as playback needs.
        if !GStreamerRegistry.exists { try MediaPlayback.load() }
        let fd: Int32
        do { fd = try WorkerInput.open(path) } catch { throw .unreadable(error.reason) }
        defer { close(fd) }
        do throws(MediaError) {
            return try ask(workers, input: fd)
        } catch .noRegistry {
            // A worker started before the registry existed has left; its successor is given it.
            try MediaPlayback.load()
            return try ask(workers, input: fd)
        }
    }

    private static func ask(_ workers: DecoderWorkerPool, input: Int32) throws(MediaError) -> MediaDetails {
        let output = try workers.perform(.media, input: input) { failure -> MediaError in
            switch failure {
            case .refused(let message): .unreadable(message)
            case .stopped(let how): .decoderStopped(how)
            case .timedOut(let seconds): .timedOut(seconds: seconds)
            case .unavailable(let why): .cannotStart(why)
            case .cancelled: .decoderStopped(tr("it was stopped"))
            }
        }
        return try details(from: output)
    }

    /// The worker's answer, checked: a worker is not trusted to say where pixels lie, nor how
    /// long its texts are.
    static func details(from output: DecoderWorker.Output) throws(MediaError) -> MediaDetails {
        let values = output.values
        guard let hasVideo = values["hasVideo"], let hasAudio = values["hasAudio"] else { throw .malformedResult }
        func text(_ name: String) -> String? {
            values[name].map { String($0.prefix(textLimit)) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var details = MediaDetails(title: text("title"), artist: text("artist"), album: text("album"),
                                   hasVideo: hasVideo == "1", hasAudio: hasAudio == "1")
        guard details.hasVideo || details.hasAudio else { throw .nothingPlayable }
        if let nanoseconds = values["duration"].flatMap(UInt64.init), nanoseconds <= longestDuration {
            details.duration = .nanoseconds(Int64(nanoseconds))
        }
        if output.blob != nil {
            guard case .still(let cover)? = try? ImageDecoding.image(from: output),
                  cover.pixels.width <= coverEdge, cover.pixels.height <= coverEdge else { throw .malformedResult }
            details.cover = cover
        }
        return details
    }
}
