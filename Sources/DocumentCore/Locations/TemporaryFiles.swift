import CGLib
import Foundation

/// Where Dossier's windows and its previewer service keep temporary files: in their cache,
/// `$XDG_CACHE_HOME/dossier/tmp`, the one place Dossier writes on a file's behalf, rather than
/// in `/tmp`. WebKit, for one, writes its content filter's compiled rules to a temporary file
/// for every web page shown, and it (like GLib, GStreamer and the C++ library) finds the folder
/// in `TMPDIR`. Programs Dossier starts for the user get the user's own `TMPDIR` back.
package enum TemporaryFiles {
    /// The user's `TMPDIR` before `keepInCache` (nil: it was unset).
    nonisolated(unsafe) package private(set) static var userValue: String?
    nonisolated(unsafe) private static var kept = false

    /// The folder, `$XDG_CACHE_HOME/dossier/tmp`.
    package static var folder: URL {
        URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("dossier/tmp", isDirectory: true)
    }

    /// Makes the folder (only the user may enter it) and points `TMPDIR` at it. Call it once
    /// at the start of the process, before any other thread runs: `setenv` is not safe while
    /// another thread reads the environment. Without the folder, `TMPDIR` is left as it is.
    package static func keepInCache() {
        guard !kept else { return }
        let path = folder.path
        guard g_mkdir_with_parents(path, 0o700) == 0 else { return }
        kept = true
        userValue = getenv("TMPDIR").map { String(cString: $0) }
        setenv("TMPDIR", path, 1)
    }

    /// Gives a program started through `context` the user's own `TMPDIR`.
    package static func restore(in context: UnsafeMutablePointer<GAppLaunchContext>?) {
        guard kept, let context else { return }
        if let userValue {
            g_app_launch_context_setenv(context, "TMPDIR", userValue)
        } else {
            g_app_launch_context_unsetenv(context, "TMPDIR")
        }
    }

    /// Opens `uri` in the default application for it (a link in a page), with the user's own
    /// `TMPDIR`; blocks while GIO finds and starts it, so call it off the main thread.
    package static func openInDefaultApplication(_ uri: String) {
        let context = g_app_launch_context_new()
        defer { if let context { g_object_unref(UnsafeMutableRawPointer(context)) } }
        restore(in: context)
        g_app_info_launch_default_for_uri(uri, context, nil)
    }
}
