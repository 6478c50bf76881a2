import CGLib
import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GObjectSupport
import XCTest

@testable import DocumentUI

/// Files on the clipboard as GNOME Files 43 writes and reads them (nautilus-clipboard.c at
/// 43.2: "copy" or "cut", then one URI a line joined by "\n", no trailing newline and no empty
/// line, which Files refuses), for remote items as for local ones.
final class ClipboardURITests: XCTestCase {
    private static let remote = [
        URL(string: "sftp://127.0.0.1:2222/home/me/Q3%20report.pdf")!,
        URL(string: "smb://nas.local/share/Photos%20%C3%A9t%C3%A9/")!,
        URL(fileURLWithPath: "/tmp/local note.txt"),
    ]

    func testRemoteItemsGoOnTheClipboardAsFilesWritesThemAndComeBack() throws {
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let clipboard = try XCTUnwrap(gdk_display_get_clipboard(gdk_display_get_default()))
            FileClipboard.copy(Self.remote, cut: true)
            defer {
                // Given up, so that no program started by a later test asks this process for it.
                X11Selections.giveUp("CLIPBOARD")
                XCTAssertTrue(spin { gdk_clipboard_is_local(clipboard) == 0 })
            }

            var copied: String?
            Self.read(clipboard, "x-special/gnome-copied-files") { copied = $0 }
            XCTAssertTrue(spin { copied != nil })
            XCTAssertEqual(copied, "cut\nsftp://127.0.0.1:2222/home/me/Q3%20report.pdf\nsmb://nas.local/share/Photos%20%C3%A9t%C3%A9/"
                + "\nfile:///tmp/local%20note.txt")
            XCTAssertFalse(copied?.split(separator: "\n", omittingEmptySubsequences: false).contains("") ?? true,
                           "Files 43 refuses a clipboard with an empty line")

            var list: String?
            Self.read(clipboard, "text/uri-list") { list = $0 }
            XCTAssertTrue(spin { list != nil })
            XCTAssertEqual(list, Self.remote.map { $0.absoluteString + "\r\n" }.joined())

            var content: ClipboardContent?
            ClipboardFiles.read(clipboard) { content = $0 }
            XCTAssertTrue(spin { content != nil })
            XCTAssertEqual(content?.urls, Self.remote)
            XCTAssertEqual(content?.cut, true)
        }
    }

    func testWhatFilesWritesIsReadAsFilesToCopyOrMove() {
        // Exactly as nautilus_clipboard_to_string builds it for an sftp and a local file.
        let written = "copy\nsftp://me@server.lan/srv/Shared%20Docs/plan%20v2.odt\nfile:///home/me/Desktop/a%23b.txt"
        let content = ClipboardContent.gnomeCopiedFiles(written)
        XCTAssertEqual(content?.cut, false)
        XCTAssertEqual(content?.urls.map(\.absoluteString),
                       ["sftp://me@server.lan/srv/Shared%20Docs/plan%20v2.odt", "file:///home/me/Desktop/a%23b.txt"])
        XCTAssertEqual(content?.urls.first?.lastPathComponent, "plan v2.odt", "the name a paste gives the copy")
        XCTAssertEqual(ClipboardContent.gnomeCopiedFiles("cut\ndav://cloud.example/remote.php/webdav/x.md")?.cut, true)
        XCTAssertNil(ClipboardContent.gnomeCopiedFiles("move\nsftp://h/x"), "only copy and cut are verbs")
        XCTAssertEqual(ClipboardContent.uriList("# from a drag\r\nsmb://nas/share/a.pdf\r\n").urls,
                       [URL(string: "smb://nas/share/a.pdf")!])
    }

    /// Reads the clipboard's `type` as text, through the browser's own reader.
    @MainActor
    private static func read(_ clipboard: OpaquePointer, _ type: String, _ done: @escaping @MainActor (String?) -> Void) {
        let request = ClipboardFiles.ReadRequest(done)
        withCStringArray([type]) { types in
            gdk_clipboard_read_async(clipboard, types, G_PRIORITY_DEFAULT, nil, { source, result, data in
                MainActor.assumeIsolated {
                    let request = Unmanaged<ClipboardFiles.ReadRequest>.fromOpaque(data!).takeRetainedValue()
                    guard let stream = gdk_clipboard_read_finish(OpaquePointer(source), result, nil, nil) else {
                        return request.finish(nil)
                    }
                    request.drain(stream)
                }
            }, Unmanaged.passRetained(request).toOpaque())
        }
    }
}
