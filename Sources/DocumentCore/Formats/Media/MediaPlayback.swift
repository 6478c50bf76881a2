import CGLib
import CGStreamer
import Foundation
import GObjectSupport

/// GStreamer in the calling process, for GtkMediaFile's playback only: the previewer loads it
/// off the main thread before a page makes its stream, so that GTK's media module finds it
/// loaded. What a file holds is never asked here (`MediaInspection` asks a decoder worker).
/// Initialising GStreamer builds or updates the user's plugin registry, which workers read.
package enum MediaPlayback {
    /// Whether GStreamer is loaded and initialised in this process.
    package static var isLoaded: Bool { dossier_gstreamer_is_loaded() != 0 }

    /// Loads and initialises GStreamer, once (blocking: not on the main thread).
    package static func load() throws(MediaError) {
        var error: UnsafeMutablePointer<CChar>?
        if dossier_gstreamer_load(&error) != 0 {
            StageTrace.mark("gstreamer loaded")
            return
        }
        throw .notStarted(takeString(error).flatMap { $0.isEmpty ? nil : $0 } ?? tr("unknown error"))
    }

    /// `load()` on one of Dispatch's threads.
    package static func loadInBackground() async throws(MediaError) {
        try await blockingWork { Result { () throws(MediaError) in try load() } }.get()
    }
}

/// GStreamer's plugin registry, which a worker cannot make: making it runs `gst-plugin-scanner`,
/// a program, and a worker runs none after its start. A worker reads the calling process's
/// (the user's cache), bound read-only where bubblewrap runs, and never updates it.
enum GStreamerRegistry {
    /// Where a worker under bubblewrap finds it.
    static let pathInWorker = "/run/dossier/gstreamer-registry.bin"

    /// The file `gst_init` reads and writes in this process: `GST_REGISTRY_1_0` or
    /// `GST_REGISTRY`, else `registry.<cpu>.bin` in the user's cache (any such file there when
    /// the machine's name for its processor is not GStreamer's).
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["GST_REGISTRY_1_0"] ?? environment["GST_REGISTRY"], !path.isEmpty { return path }
        let folder = String(cString: g_get_user_cache_dir()) + "/gstreamer-1.0"
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let own = folder + "/registry.\(machine).bin"
        if access(own, R_OK) == 0 { return own }
        let other = (try? FileManager.default.contentsOfDirectory(atPath: folder))?
            .filter { $0.hasPrefix("registry.") && $0.hasSuffix(".bin") }.sorted().first
        return other.map { folder + "/" + $0 } ?? own
    }

    /// Whether this process's registry exists (GStreamer made it here before).
    static var exists: Bool { access(path, R_OK) == 0 }
}
