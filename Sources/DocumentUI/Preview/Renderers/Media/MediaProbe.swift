import CGStreamer
import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// What GStreamer's discoverer finds in a media file before it is played: whether it can be
/// decoded at all, whether it has moving pictures, its tags and its embedded cover art.
struct MediaProbe: Sendable {
    var title: String?
    var artist: String?
    var album: String?
    /// The embedded cover art (ID3 APIC, FLAC and Vorbis pictures, MP4 covr), decoded.
    var cover: PixbufReference?
    var hasVideo: Bool

    /// The longest the discoverer may take.
    static let timeout: UInt64 = 5_000_000_000  // nanoseconds
    /// Cover art is decoded no larger than this on its long side.
    static let coverSize: Int32 = 512

    /// Whether GStreamer is loaded and initialised (by a first inspection): GTK's media backend
    /// then opens a stream without loading it on the main thread.
    static var isGStreamerLoaded: Bool { dossier_media_is_loaded() != 0 }

    /// Inspects the file at `uri` (blocking: call it off the main thread). GStreamer is loaded
    /// the first time.
    static func inspect(_ uri: String) -> Result<MediaProbe, PreviewError> {
        var info = DossierMediaInfo()
        var error: UnsafeMutablePointer<CChar>?
        let result = dossier_media_discover(uri, guint64(timeout), &info, &error)
        defer { dossier_media_info_clear(&info) }
        let message = takeString(error).flatMap { $0.isEmpty ? nil : $0 } ?? tr("unknown error")
        switch result {
        case DOSSIER_MEDIA_OK: break
        case DOSSIER_MEDIA_NOT_STARTED:
            return .failure(PreviewError(tr("GStreamer could not start: %s", message)))
        case DOSSIER_MEDIA_MISSING_PLUGINS:
            return .failure(PreviewError(tr("No decoder for this format is installed (GStreamer plugins are missing).")))
        case DOSSIER_MEDIA_TIMEOUT:
            return .failure(PreviewError(tr("The media file could not be read: %s", tr("it took too long to inspect"))))
        default:
            return .failure(PreviewError(tr("The media file could not be read: %s", message)))
        }
        if info.has_video == 0 && info.has_audio == 0 {
            return .failure(PreviewError(tr("The file has no sound or pictures that can be played.")))
        }
        var probe = MediaProbe(hasVideo: info.has_video != 0)
        probe.title = info.title.map { String(cString: $0) }
        probe.artist = info.artist.map { String(cString: $0) }
        probe.album = info.album.map { String(cString: $0) }
        probe.cover = info.cover.flatMap(Self.image)
        return .success(probe)
    }

    /// Decodes embedded cover art, scaled down to `coverSize`.
    private static func image(_ bytes: OpaquePointer) -> PixbufReference? {
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size), size > 0 else { return nil }
        guard let loader = gdk_pixbuf_loader_new() else { return nil }
        defer { g_object_unref(raw(loader)) }
        guard gdk_pixbuf_loader_write(loader, data.assumingMemoryBound(to: guchar.self), size, nil) != 0,
              gdk_pixbuf_loader_close(loader, nil) != 0,
              let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader)
        else {
            gdk_pixbuf_loader_close(loader, nil)
            return nil
        }
        let width = gdk_pixbuf_get_width(pixbuf), height = gdk_pixbuf_get_height(pixbuf)
        let longest = max(width, height)
        if longest > coverSize {
            let scale = Double(coverSize) / Double(longest)
            let scaled = gdk_pixbuf_scale_simple(pixbuf, max(1, Int32(Double(width) * scale)),
                                                 max(1, Int32(Double(height) * scale)), GDK_INTERP_BILINEAR)
            return scaled.map(PixbufReference.init)
        }
        g_object_ref(raw(pixbuf))
        return PixbufReference(pixbuf)
    }
}
