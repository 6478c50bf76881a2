import CGLib
import Foundation
import XCTest

@testable import DocumentCore

/// GFiles of one server made and dropped on several threads at once, as the listing and the
/// thumbnails' downloads do: GVFS's client frees a location's shared mount spec while another
/// thread takes it, and without `GVFSFiles` the process crashes within the first few thousand.
final class GVFSFilesTests: XCTestCase {
    func testGFilesOfOneServerMadeAndDroppedOnFourThreadsAtOnceDoNotCrashTheProcess() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: GIO uses GVFS's client only with one (make test starts it)")
        }
        let vfs = String(cString: g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(g_vfs_get_default()))))
        guard vfs == "GDaemonVfs" else { throw XCTSkip("GIO does not use GVFS here (\(vfs)): gvfs is not installed") }
        for uri in ["sftp://someone@127.0.0.1:2222/folder/file.txt", "smb://127.0.0.1/share/folder/file.txt"] {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<50_000 {
                    let file = GVFSFiles.file(forURI: uri)
                    let child = g_file_get_child(file, "a")
                    g_object_unref(UnsafeMutableRawPointer(child))
                    g_object_unref(UnsafeMutableRawPointer(file))
                }
            }
        }
    }

    func testALocationIsItsSchemeUserHostPortAndFirstSegment() {
        XCTAssertEqual(GVFSFiles.locationKey("sftp://ann@host:2222/home/ann/a.txt"), "sftp://ann@host:2222/home")
        XCTAssertEqual(GVFSFiles.locationKey("smb://nas/share/folder/a.txt"), "smb://@nas:/share")
        XCTAssertEqual(GVFSFiles.locationKey("DAV://nas/"), "dav://@nas:/")
        XCTAssertNil(GVFSFiles.locationKey("file:///tmp/a.txt"))
        XCTAssertNil(GVFSFiles.locationKey("not a uri"))
    }
}
