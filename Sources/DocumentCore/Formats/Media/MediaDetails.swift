import Foundation

/// What a media file holds, as GStreamer's discoverer found it in a decoder worker, checked by
/// the caller: whether it has sound and moving pictures, its tags and its embedded cover art.
package struct MediaDetails: Sendable {
    /// The title tag, when the file has one.
    package var title: String?
    /// The artist tag, when the file has one.
    package var artist: String?
    /// The album tag, when the file has one.
    package var album: String?
    /// Moving pictures (a still image stream, such as an MP3's cover, is not video).
    package var hasVideo: Bool
    /// Whether it has a sound stream.
    package var hasAudio: Bool
    /// How long it plays, when the container says.
    package var duration: Duration?
    /// The embedded cover art (ID3 APIC, FLAC and Vorbis pictures, MP4 covr), decoded in the
    /// worker no larger than `MediaInspection.coverEdge` on its long side.
    package var cover: StillImage?
}

/// Why a media file is not previewed, in words for the previewer's error page. Codable: the
/// decoder worker sends its own reasons back this way.
package enum MediaError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// GStreamer could not be loaded or initialised, with why.
    case notStarted(String)
    /// No decoder for the format is installed.
    case missingPlugins
    /// The discoverer gave up after its time.
    case inspectionTimedOut
    /// The file could not be read or decoded, with GStreamer's reason.
    case unreadable(String)
    /// Neither sound nor moving pictures.
    case nothingPlayable
    /// The worker has no plugin registry (it started before GStreamer made one in the user's
    /// cache); it leaves, and the next worker is given the registry.
    case noRegistry
    /// The decoder worker died during the inspection (a crash, or one of its limits).
    case decoderStopped(String)
    /// The decoder worker ran past its time and was stopped.
    case timedOut(seconds: Int)
    /// No decoder worker could be started.
    case cannotStart(String)
    /// The worker's answer did not hold together.
    case malformedResult

    package var description: String {
        switch self {
        case .notStarted(let reason): tr("GStreamer could not start: %s", reason)
        case .missingPlugins: tr("No decoder for this format is installed (GStreamer plugins are missing).")
        case .inspectionTimedOut: tr("The media file could not be read: %s", tr("it took too long to inspect"))
        case .unreadable(let reason): tr("The media file could not be read: %s", reason)
        case .nothingPlayable: tr("The file has no sound or pictures that can be played.")
        case .noRegistry: tr("GStreamer could not start: %s", tr("its list of plugins could not be made"))
        case .decoderStopped(let how):
            tr("The media decoder stopped (%s): the file is damaged, or made to harm. Other files are not affected.", how)
        case .timedOut(let seconds): tr("The media decoder took longer than %s seconds and was stopped.", String(seconds))
        case .cannotStart(let why): tr("The media decoder could not be started: %s", why)
        case .malformedResult: tr("The media decoder gave an answer that does not hold together.")
        }
    }
}
