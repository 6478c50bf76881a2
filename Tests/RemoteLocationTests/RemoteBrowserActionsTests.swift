import DossierFixtures
import Foundation
import XCTest

/// The real `dossier` window on an sftp folder, driven by the keyboard as a person would:
/// Delete on a server without a trash asks "Delete Permanently?" and deletes only once that is
/// answered, then says so in a toast, and the listing follows. What happened is checked in the
/// served folder. (Rename and its undo on the servers are in `RemoteFileOperationsTests`.) Screenshots in `.build/test-screenshots` (remote-browser-*).
final class RemoteBrowserActionsTests: XCTestCase {
    override func setUp() async throws {
        for tool in ["/usr/bin/xdotool", "/usr/bin/import"] {
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not installed")
        }
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no display: run under `make test`")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DOSSIER_BINARY"] != nil, "no dossier binary: run under `make test`")
        try XCTSkipUnless(ServerAccount.canStartServers, "the remote-location test servers need root")
    }

    func testDeleteOnAServerWithoutTrashAsksFirstThenDeletesForGood() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "no python3 for AT-SPI")
        let server = try RemoteServer.start(.sftp)
        defer { server.stop() }
        _ = try server.folder.write("alpha.txt", "a")
        _ = try server.folder.write("beta.txt", "b")
        server.openToServer()
        try server.mount()
        // The accessibility registry answers before the app starts, so the app registers with it.
        XCTAssertTrue(eventually {
            let count = shell(["/usr/bin/timeout", "20", "/usr/bin/python3", "-c",
                               "import pyatspi\nprint(pyatspi.Registry.getDesktop(0).childCount)"])
            return (Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1) >= 0
        }, "the accessibility registry answers")
        let binary = try XCTUnwrap(ProcessInfo.processInfo.environment["DOSSIER_BINARY"])
        let pid = pid_t(shell(["/usr/bin/env", "GDK_BACKEND=x11", "GSK_RENDERER=cairo", binary, server.rootURI], background: true)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        defer { if pid > 0 { kill(pid, SIGTERM) } }
        let title = server.folder.url.lastPathComponent
        var window = ""
        XCTAssertTrue(eventually {
            window = shell(["/usr/bin/xdotool", "search", "--onlyvisible", "--name", title]).split(separator: "\n").first.map(String.init) ?? ""
            return !window.isEmpty
        }, "the window shows \(title)")
        XCTAssertTrue(eventually { names().contains { $0.contains("alpha.txt") } }, "the listing shows the files: \(names())")
        // No window manager: a click into the window gives it the keyboard; Right selects the
        // first item.
        shell(["/usr/bin/xdotool", "windowfocus", "--sync", window])
        shell(["/usr/bin/xdotool", "mousemove", "--window", window, "700", "550", "click", "1"])
        shell(["/usr/bin/xdotool", "key", "Right"])
        shell(["/usr/bin/xdotool", "key", "Delete"])
        XCTAssertTrue(eventually { names().contains { $0.hasSuffix(": Delete Permanently?") } }, "Delete asks first: \(names())")
        screenshot("remote-browser-1-delete-permanently")
        XCTAssertTrue(FileManager.default.fileExists(atPath: server.localURL("alpha.txt").path), "nothing deleted before the answer")
        shell(["/usr/bin/xdotool", "key", "alt+d"])
        XCTAssertTrue(eventually { !FileManager.default.fileExists(atPath: server.localURL("alpha.txt").path) },
                      "deleted once the dialog was answered")
        XCTAssertTrue(eventually {
            let shown = names()
            return shown.contains { $0.contains("“alpha.txt” deleted") }
                && !shown.contains { $0.contains("alpha.txt") && !$0.contains("deleted") }
        }, "the toast says so and the listing lost it: \(names())")
        screenshot("remote-browser-2-deleted")
    }

    /// Every accessible node of the app, "role: name" a line (through AT-SPI, Debian's python3).
    private func names() -> [String] {
        let script = """
            import pyatspi
            def walk(node, depth):
                try:
                    if node.name: print(node.getRoleName() + ': ' + node.name)
                    if depth < 30:
                        for i in range(node.childCount): walk(node.getChildAtIndex(i), depth + 1)
                except Exception: pass
            for application in pyatspi.Registry.getDesktop(0):
                if application is not None and application.name == 'dossier': walk(application, 0)
            """
        // Bounded: an app busy elsewhere must not hold the test; the caller asks again.
        return shell(["/usr/bin/timeout", "20", "/usr/bin/python3", "-c", script]).split(separator: "\n").map(String.init)
    }

    private func screenshot(_ name: String) {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["DOSSIER_SCREENSHOTS"] ?? NSTemporaryDirectory())
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        shell(["/usr/bin/import", "-window", "root", folder.appendingPathComponent(name + ".png").path])
    }
}

/// Runs a program to its end through popen(3) and returns what it printed; with `background`,
/// starts it and returns its process id.
@discardableResult
private func shell(_ arguments: [String], background: Bool = false) -> String {
    let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    guard let pipe = popen(background ? quoted + " >/dev/null 2>&1 & echo $!" : quoted + " 2>/dev/null", "r") else { return "" }
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, pipe)
        if count <= 0 { break }
        output.append(contentsOf: buffer[0..<count])
    }
    pclose(pipe)
    return String(decoding: output, as: UTF8.self)
}
