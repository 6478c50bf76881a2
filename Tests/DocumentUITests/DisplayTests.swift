import CGtk
import DocumentUI
import Foundation
import XCTest

final class DisplayTests: XCTestCase {
    func testDisplayOpensUnderXvfbAndLibadwaitaIsReady() throws {
        try MainActor.assumeIsolated {
            guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
                throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
            }
            XCTAssertTrue(TestDisplay.initialize())
            XCTAssertTrue(Display.initialize(), "a second call answers the same without initializing again")
            XCTAssertNotNil(gdk_display_get_default())
            XCTAssertTrue(adw_is_initialized() != 0)
        }
    }

    /// GTK's media modules are registered through a cached module list of Dossier's (so that
    /// gtk_init does not load GStreamer), and still play: a media file gets GTK's GStreamer
    /// backend, not its "no media" stand-in. GTK_PATH is not left set for other programs.
    func testMediaModulesAreRegisteredWithoutLoadingAndStillUsed() throws {
        try MainActor.assumeIsolated {
            guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
                throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
            }
            XCTAssertTrue(TestDisplay.initialize())
            XCTAssertNil(getenv("GTK_PATH"))
            let cache = URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("dossier/gtk-modules/media")
            let list = try String(contentsOf: cache.appendingPathComponent("giomodule.cache"), encoding: .utf8)
            XCTAssertTrue(list.contains("libmedia-gstreamer.so: gtk-media-file"), list)
            let stream = gtk_media_file_new()!
            defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
            let type = String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GTypeInstance.self)))
            XCTAssertEqual(type, "GtkGstMediaFile")
        }
    }
}
