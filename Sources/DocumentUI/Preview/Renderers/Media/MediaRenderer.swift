import CDisplay
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Audio and video through GtkMediaFile (GStreamer): the video's picture, or for audio the
/// embedded cover art (else the type's icon) with the title, artist and album from the tags;
/// under either, GtkMediaControls with play/pause, the position scrubber and the volume.
///
/// What the file holds is found by GStreamer's discoverer in a decoder worker
/// (`MediaInspection`), so a damaged file or a format with no decoder ends on the error page
/// and the cover art is decoded there too. Meanwhile GStreamer is loaded in this process, off
/// the main thread. An audio page shows once the worker has answered, then opens its stream,
/// its controls waiting for the stream to be ready; a video opens its stream while the worker
/// inspects, and its page shows once the stream is ready (the first frame is its content). The
/// previewer service's first video has its stream opened before its page is made, as soon as
/// GStreamer is loaded (`prepare`). An error the stream reports later shows under the
/// controls.
/// Nothing plays by itself, and playback pauses when the page is hidden.
@MainActor
package final class MediaRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.audio, .movie]
    /// The longest the stream may take to be ready after the worker accepted the file.
    static let prepareTimeout: Duration = .seconds(10)

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    private let content: WidgetPointer
    /// The playback controls: insensitive until the stream is prepared.
    let controls: WidgetPointer
    private let problem: WidgetPointer
    private(set) var stream: ObjectReference?
    /// The stream the previewer opened ahead for this item, if it did.
    private var streamAhead: StreamAhead?
    /// An audio page's wait for its stream, after the page is shown.
    private var preparing: Task<Void, Never>?

    /// Makes a renderer that plays audio and video.
    package init() {
        content = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [])
        gtk_widget_set_vexpand(content, 1)
        controls = gtk_media_controls_new(nil)
        gtk_widget_set_margin_start(controls, 12)
        gtk_widget_set_margin_end(controls, 12)
        gtk_widget_set_margin_bottom(controls, 6)
        problem = makeLabel("", classes: ["error", "caption"], wrap: true)
        gtk_widget_set_visible(problem, 0)
        gtk_widget_set_margin_bottom(problem, 6)
        rootView = dossier_group_box_new(GTK_ORIENTATION_VERTICAL, 6)
        for child in [content, controls, problem] { gtk_box_append(cast(rootView), child) }
        connectSignal(raw(rootView), "unmap") { [weak self] in
            guard let stream = self?.stream else { return }
            gtk_media_stream_pause(stream.cast())
        }
    }

    isolated deinit {
        preparing?.cancel()
        if let stream { gtk_media_stream_pause(stream.cast()) }
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        try await load(item, type: type, prepared: nil)
    }

    package func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        let prepared = await prepared?.value as? Prepared
        streamAhead = prepared?.streamAhead
        // GtkMediaFile needs GStreamer in this process: loaded off the main thread while the
        // worker inspects the file (GTK's media module then finds it loaded).
        let loading = Task { await Self.loadGStreamer() }
        async let inspected = Self.inspect(item.url, prepared: prepared)
        // A video's stream opens while the worker still inspects: its first frame is the page's
        // content. An audio page shows once the worker has answered; its stream opens after.
        var early: ObjectReference?
        if type.conforms(to: .movie) { early = try await openStream(item.url.rawPath, after: loading) }
        let details: MediaDetails
        do {
            details = try await inspected.get()
        } catch {
            closeStream()
            throw PreviewError(error.description)
        }
        setAccessibleName(controls, tr("Playback controls"))
        guard details.hasVideo else {
            showAudio(details, type: type, title: item.displayTitle)
            setAccessibleName(rootView, tr("Audio %s", item.displayTitle))
            prepareAfterShowing(item.url.rawPath, opened: early, after: loading)
            return
        }
        let stream: ObjectReference
        do {
            if let early { stream = early } else { stream = try await openStream(item.url.rawPath, after: loading) }
            try await Self.waitUntilPrepared(stream)
        } catch {
            closeStream()
            throw error
        }
        // Frames made smaller bilinearly: GTK 4.8's cairo renderer is too slow for a full-size one.
        let frames = dossier_video_paintable_new(OpaquePointer(stream.pointer))!
        let picture = gtk_picture_new_for_paintable(frames)!
        dossier_video_paintable_draw_in(frames, picture)
        g_object_unref(raw(frames))
        gtk_picture_set_can_shrink(cast(picture), 1)
        gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_CONTAIN)
        gtk_widget_set_vexpand(picture, 1)
        gtk_box_append(cast(content), picture)
        setAccessibleName(picture, tr("Video %s", item.displayTitle))
        setAccessibleName(rootView, tr("Video %s", item.displayTitle))
    }

    /// GStreamer loaded in this process, or why not.
    private nonisolated static func loadGStreamer() async -> Result<Void, MediaError> {
        do { try await MediaPlayback.loadInBackground() } catch { return .failure(error) }
        return .success(())
    }

    /// The file's stream (the one opened ahead for it, or a new one once GStreamer is loaded),
    /// given to the controls.
    private func openStream(_ path: FileSystemPath, after loading: Task<Result<Void, MediaError>, Never>) async throws(PreviewError) -> ObjectReference {
        if case .failure(let error) = await loading.value { throw PreviewError(error.description) }
        let stream: ObjectReference
        if let ahead = streamAhead?.take() {
            stream = ahead
        } else {
            guard let file = path.withCString(gtk_media_file_new_for_filename) else { throw PreviewError(tr("The media file could not be opened.")) }
            stream = ObjectReference(adopting: UnsafeMutableRawPointer(file))
            StageTrace.mark("media stream opened")
        }
        self.stream = stream
        showLaterErrors(of: stream)
        gtk_media_controls_set_media_stream(cast(controls), stream.cast())
        return stream
    }

    /// What the decoder worker finds in the file, and a video's stream opened ahead.
    struct Prepared: Sendable {
        let inspection: Task<Result<MediaDetails, MediaError>, Never>
        let streamAhead: StreamAhead
    }

    /// A video's stream opened before its page exists, on the main thread, for its page to
    /// take once.
    @MainActor
    final class StreamAhead {
        /// The stream opened ahead and not yet taken.
        private(set) var opened: ObjectReference?
        /// Taken by the page, or let go: nothing opens after.
        private var isClosed = false

        nonisolated init() {}

        /// Opens the stream of the video at `path` now, when GStreamer is loaded and the page
        /// has not taken it: GStreamer prepares it on its own threads while the main thread goes
        /// on with the window and the page, which would open it only once made.
        func open(_ path: FileSystemPath) {
            guard MediaPlayback.isLoaded, !isClosed, opened == nil,
                  let file = path.withCString(gtk_media_file_new_for_filename) else { return }
            opened = ObjectReference(adopting: UnsafeMutableRawPointer(file))
            StageTrace.mark("media stream opened ahead")
        }

        /// The stream opened ahead, once; nothing opens after this.
        func take() -> ObjectReference? {
            isClosed = true
            defer { opened = nil }
            return opened
        }

        /// Lets a stream opened ahead go, its pipeline and threads with it.
        func drop() {
            if let stream = take() { gtk_media_file_clear(stream.cast()) }
        }
    }

    /// The worker inspects the file; meanwhile GStreamer is loaded here for the page's
    /// playback, once libraries may be opened. Then a video's stream opens on the main thread
    /// at its next turn, unless the page has taken it already (and opens its own).
    package nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        let path = preparation.url.rawPath
        let isVideo = preparation.type.conforms(to: .movie)
        let streamAhead = StreamAhead()
        Task.detached(priority: .userInitiated) {
            await preparation.librariesMayLoad()
            try? await MediaPlayback.loadInBackground()
            guard isVideo else { return }
            MainLoopIdle.run(priority: G_PRIORITY_HIGH) { streamAhead.open(path) }
        }
        let inspection = Task.detached(priority: .userInitiated) {
            // The first time GStreamer is used at all, the inspection loads it to make its registry.
            if !MediaInspection.hasRegistry { await preparation.librariesMayLoad() }
            return await MediaInspection.inspect(path)
        }
        return Prepared(inspection: inspection, streamAhead: streamAhead)
    }

    package static func discard(prepared: any Sendable) {
        (prepared as? Prepared)?.streamAhead.drop()
    }

    /// Lets the stream's pipeline and its threads go now, not with the page.
    private func closeStream() {
        guard let stream else { return }
        gtk_media_controls_set_media_stream(cast(controls), nil)
        gtk_media_file_clear(stream.cast())
        self.stream = nil
    }

    /// The audio page is shown before GtkMediaFile's pipeline has prerolled (slow on a cold
    /// start, and the worker already has the tags and the cover): the stream opens and the
    /// controls wait for it; a stream that cannot play says so under them.
    private func prepareAfterShowing(_ path: FileSystemPath, opened: ObjectReference?, after loading: Task<Result<Void, MediaError>, Never>) {
        gtk_widget_set_sensitive(controls, 0)
        preparing = Task { [weak self] in
            do throws(PreviewError) {
                var stream = opened
                if stream == nil { stream = try await self?.openStream(path, after: loading) }
                guard let stream else { return }
                try await Self.waitUntilPrepared(stream)
                guard let self else { return }
                gtk_widget_set_sensitive(self.controls, 1)
            } catch {
                guard let self, !Task.isCancelled else { return }
                self.showProblem(error.message)
            }
        }
    }

    private func showProblem(_ message: String) {
        gtk_label_set_text(opaque(problem), message)
        gtk_widget_set_visible(problem, 1)
    }

    private func showAudio(_ details: MediaDetails, type: DocumentType, title: String) {
        let art: WidgetPointer
        if let cover = details.cover, let texture = makeTexture(of: cover.pixels) {
            art = gtk_picture_new_for_paintable(texture)
            g_object_unref(raw(texture))
            gtk_picture_set_can_shrink(cast(art), 1)
            gtk_widget_set_size_request(art, 256, 256)
            gtk_widget_add_css_class(art, "card")
            setAccessibleName(art, tr("Cover art"))
        } else {
            art = gtk_image_new()
            let theme = gtk_icon_theme_get_for_display(gdk_display_get_default())
            let name = type.iconNames.first { gtk_icon_theme_has_icon(theme, $0) != 0 } ?? "audio-x-generic"
            gtk_image_set_from_icon_name(cast(art), name)
            gtk_image_set_pixel_size(cast(art), 128)
        }
        gtk_widget_set_halign(art, GTK_ALIGN_CENTER)
        let heading = makeLabel(details.title ?? title, classes: ["title-2"], wrap: true, selectable: true)
        var subtitles = [details.artist, details.album].compactMap { $0 }
        if details.title != nil { subtitles.append(title) }
        let subtitle = makeLabel(subtitles.joined(separator: " — "), classes: ["dim-label"], wrap: true, selectable: true)
        let column = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12, [art, heading, subtitle])
        gtk_widget_set_valign(column, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(column, 1)
        gtk_widget_set_margin_top(column, 24)
        gtk_box_append(cast(content), column)
    }

    /// What the decoder worker found in the file at `url` (or began to find before the page).
    private nonisolated static func inspect(_ url: URL, prepared: Prepared?) async -> Result<MediaDetails, MediaError> {
        if let prepared { return await prepared.inspection.value }
        return await MediaInspection.inspect(url.rawPath)
    }

    /// Shows errors the stream reports once it plays (a file damaged past its start) under the controls.
    private func showLaterErrors(of stream: ObjectReference) {
        let media: UnsafeMutablePointer<GtkMediaStream> = stream.cast()
        connectSignal(stream.pointer, "notify::error") { [weak self] _ in
            guard let self, let error = gtk_media_stream_get_error(media) else { return }
            self.showProblem(tr("Playback failed: %s", String(cString: error.pointee.message)))
        }
    }

    /// Waits for the stream to be ready to play; throws its error, or after `prepareTimeout`.
    private static func waitUntilPrepared(_ stream: ObjectReference) async throws(PreviewError) {
        let media: UnsafeMutablePointer<GtkMediaStream> = stream.cast()
        let outcome = Outcome()
        let watch = { () -> Bool in
            if let error = gtk_media_stream_get_error(media) {
                outcome.finish(.failure(PreviewError(tr("The media file could not be played: %s", String(cString: error.pointee.message)))))
            } else if gtk_media_stream_is_prepared(media) != 0 {
                if outcome.result == nil { StageTrace.mark("media stream prepared") }
                outcome.finish(.success(()))
            }
            return outcome.result != nil
        }
        if !watch() {
            let prepared = connectSignal(stream.pointer, "notify::prepared") { _ in _ = watch() }
            let failed = connectSignal(stream.pointer, "notify::error") { _ in _ = watch() }
            let timeout = Task { @MainActor in
                try? await Task.sleep(for: Self.prepareTimeout)
                outcome.finish(.failure(PreviewError(tr("The media file could not be played: %s", tr("it did not start in time")))))
            }
            // A page let go of while its stream prepares stops waiting at once.
            await withTaskCancellationHandler {
                await outcome.wait()
            } onCancel: {
                Task { @MainActor in outcome.finish(.failure(PreviewError(tr("Cancelled")))) }
            }
            timeout.cancel()
            prepared.disconnect(from: stream.pointer)
            failed.disconnect(from: stream.pointer)
        }
        try outcome.result?.get()
    }
}

/// A result that arrives once, from a signal or a timer, and is awaited on the main actor.
@MainActor
private final class Outcome {
    private(set) var result: Result<Void, PreviewError>?
    private var waiter: CheckedContinuation<Void, Never>?

    func finish(_ value: Result<Void, PreviewError>) {
        guard result == nil else { return }
        result = value
        waiter?.resume()
        waiter = nil
    }

    func wait() async {
        guard result == nil else { return }
        await withCheckedContinuation { waiter = $0 }
    }
}
