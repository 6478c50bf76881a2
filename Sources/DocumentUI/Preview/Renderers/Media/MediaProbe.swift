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

    /// Inspects the file at `uri` (blocking: call it off the main thread).
    static func inspect(_ uri: String) -> Result<MediaProbe, PreviewError> {
        var error: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &error) != 0 else {
            return .failure(PreviewError(tr("GStreamer could not start: %s", consume(&error))))
        }
        guard let discoverer = gst_discoverer_new(GstClockTime(timeout), &error) else {
            return .failure(PreviewError(tr("GStreamer could not start: %s", consume(&error))))
        }
        defer { g_object_unref(raw(discoverer)) }
        let info = gst_discoverer_discover_uri(discoverer, uri, &error)
        defer { if let info { g_object_unref(raw(info)) } }
        guard let info else {
            return .failure(PreviewError(tr("The media file could not be read: %s", consume(&error))))
        }
        switch gst_discoverer_info_get_result(info) {
        case GST_DISCOVERER_OK: break
        case GST_DISCOVERER_MISSING_PLUGINS:
            return .failure(PreviewError(tr("No decoder for this format is installed (GStreamer plugins are missing).")))
        case GST_DISCOVERER_TIMEOUT:
            return .failure(PreviewError(tr("The media file could not be read: %s", tr("it took too long to inspect"))))
        default:
            return .failure(PreviewError(tr("The media file could not be read: %s", consume(&error))))
        }

        var probe = MediaProbe(hasVideo: false)
        let streams = gst_discoverer_info_get_stream_list(info)
        defer { gst_discoverer_stream_info_list_free(streams) }
        var node = streams
        while let current = node {
            if let stream = current.pointee.data {
                probe.read(gst_discoverer_stream_info_get_tags(OpaquePointer(stream)))
            }
            node = current.pointee.next
        }
        let videos = gst_discoverer_info_get_video_streams(info)
        defer { gst_discoverer_stream_info_list_free(videos) }
        node = videos
        while let current = node {
            if let video = current.pointee.data, gst_discoverer_video_info_is_image(OpaquePointer(video)) == 0 {
                probe.hasVideo = true
            }
            node = current.pointee.next
        }
        let audios = gst_discoverer_info_get_audio_streams(info)
        let hasAudio = audios != nil
        gst_discoverer_stream_info_list_free(audios)
        if !probe.hasVideo && !hasAudio {
            return .failure(PreviewError(tr("The file has no sound or pictures that can be played.")))
        }
        return .success(probe)
    }

    private mutating func read(_ tags: UnsafePointer<GstTagList>?) {
        guard let tags else { return }
        func string(_ name: UnsafePointer<CChar>) -> String? {
            var value: UnsafeMutablePointer<gchar>?
            guard gst_tag_list_get_string(tags, name, &value) != 0 else { return nil }
            return takeString(value).flatMap { $0.isEmpty ? nil : $0 }
        }
        title = title ?? string(dossier_gst_tag_title())
        artist = artist ?? string(dossier_gst_tag_artist())
        album = album ?? string(dossier_gst_tag_album())
        if cover == nil {
            cover = Self.image(tags, dossier_gst_tag_image()) ?? Self.image(tags, dossier_gst_tag_preview_image())
        }
    }

    private static func image(_ tags: UnsafePointer<GstTagList>, _ name: UnsafePointer<CChar>) -> PixbufReference? {
        var sample: OpaquePointer?
        guard gst_tag_list_get_sample(tags, name, &sample) != 0, let sample else { return nil }
        defer { gst_sample_unref(sample) }
        guard let buffer = gst_sample_get_buffer(sample) else { return nil }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        guard let loader = gdk_pixbuf_loader_new() else { return nil }
        defer { g_object_unref(raw(loader)) }
        guard gdk_pixbuf_loader_write(loader, map.data, map.size, nil) != 0,
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

    private static func consume(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        defer {
            if let error { g_error_free(error) }
            error = nil
        }
        return error.map { String(cString: $0.pointee.message) } ?? tr("unknown error")
    }
}
