import DossierFixtures
import Foundation
import XCTest

/// The Open With data through `dossier apps` and `dossier open`, against an isolated desktop
/// whose applications and mimeapps.list files the tests write themselves.
final class OpenWithTests: XCTestCase {
    private func appIDs(_ fixture: ApplicationFixture, _ subject: String) throws -> [String] {
        let listing = try fixture.runner.json(["apps", "--json", subject]) as? [String: Any]
        let apps = listing?["applications"] as? [[String: Any]] ?? []
        return apps.compactMap { $0["id"] as? String }
    }

    private func roles(_ fixture: ApplicationFixture, _ subject: String) throws -> [String] {
        let listing = try fixture.runner.json(["apps", "--json", subject]) as? [String: Any]
        let apps = listing?["applications"] as? [[String: Any]] ?? []
        return apps.compactMap { $0["role"] as? String }
    }

    func testDefaultFirstThenRecommendedThenSupertypeApps() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("c-editor", name: "C Editor", types: ["text/x-csrc"])
        try fixture.addApp("text-editor", name: "Text Editor", types: ["text/plain"])
        try fixture.addApp("viewer", name: "Viewer", types: ["image/png"])
        try fixture.writeMimeApps("config/mimeapps.list", "[Default Applications]\ntext/x-csrc=c-editor.desktop\n")
        XCTAssertEqual(try appIDs(fixture, "text/x-csrc"), ["c-editor.desktop", "text-editor.desktop"])
        XCTAssertEqual(try roles(fixture, "text/x-csrc"), ["default", "fallback"])
        XCTAssertEqual(try appIDs(fixture, "image/png"), ["viewer.desktop"])
        XCTAssertEqual(try appIDs(fixture, "application/x-nothing-opens-this"), [])
    }

    func testUserDefaultBeatsSystemDefault() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer-a", name: "Viewer A", types: ["image/png"], system: true)
        try fixture.addApp("viewer-b", name: "Viewer B", types: ["image/png"], system: true)
        try fixture.writeMimeApps("sysdata/applications/mimeapps.list", "[Default Applications]\nimage/png=viewer-a.desktop\n")
        XCTAssertEqual(try appIDs(fixture, "image/png").first, "viewer-a.desktop")
        try fixture.writeMimeApps("sysconfig/mimeapps.list", "[Default Applications]\nimage/png=viewer-b.desktop\n")
        XCTAssertEqual(try appIDs(fixture, "image/png").first, "viewer-b.desktop", "XDG_CONFIG_DIRS beats XDG_DATA_DIRS")
        try fixture.writeMimeApps("config/mimeapps.list", "[Default Applications]\nimage/png=viewer-a.desktop\n")
        XCTAssertEqual(try appIDs(fixture, "image/png").first, "viewer-a.desktop", "XDG_CONFIG_HOME beats the system")
    }

    func testDesktopSpecificListBeatsTheGenericOne() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer-a", name: "Viewer A", types: ["image/png"])
        try fixture.addApp("viewer-b", name: "Viewer B", types: ["image/png"])
        try fixture.writeMimeApps("config/mimeapps.list", "[Default Applications]\nimage/png=viewer-a.desktop\n")
        try fixture.writeMimeApps("config/fixture-mimeapps.list", "[Default Applications]\nimage/png=viewer-b.desktop\n")
        XCTAssertEqual(try appIDs(fixture, "image/png").first, "viewer-b.desktop")
        fixture.desktop = "Other"
        XCTAssertEqual(try appIDs(fixture, "image/png").first, "viewer-a.desktop", "another desktop ignores fixture-mimeapps.list")
    }

    func testAddedAndRemovedAssociations() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer", name: "Viewer", types: ["image/png"])
        try fixture.addApp("unwanted", name: "Unwanted", types: ["image/png"])
        try fixture.addApp("painter", name: "Painter", types: ["image/jpeg"])
        try fixture.writeMimeApps("config/mimeapps.list", """
            [Added Associations]
            image/png=painter.desktop;
            [Removed Associations]
            image/png=unwanted.desktop;

            """)
        let ids = try appIDs(fixture, "image/png")
        XCTAssertTrue(ids.contains("painter.desktop"), "\(ids)")
        XCTAssertTrue(ids.contains("viewer.desktop"), "\(ids)")
        XCTAssertFalse(ids.contains("unwanted.desktop"), "\(ids)")
    }

    func testSetDefaultWritesTheUsersMimeAppsList() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer-a", name: "Viewer A", types: ["image/png"])
        try fixture.addApp("viewer-b", name: "Viewer B", types: ["image/png"])
        let result = try fixture.runner.run(["apps", "--set-default", "viewer-b", "image/png"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(try appIDs(fixture, "image/png").first, "viewer-b.desktop")
        let list = try String(contentsOf: fixture.configHome.appendingPathComponent("mimeapps.list"), encoding: .utf8)
        XCTAssertTrue(list.contains("image/png=viewer-b.desktop"), list)
    }

    func testFilesAreOpenedInPlaceHonouringFieldCodes() throws {
        let fixture = try ApplicationFixture()
        let recorder = fixture.recorder.path
        try fixture.addApp("many-paths", name: "Many Paths", types: ["image/png"], exec: "\(recorder) F %F")
        try fixture.addApp("one-path", name: "One Path", types: ["image/png"], exec: "\(recorder) f %f")
        // For %u and %U GIO hands local files over as paths, unless the app asks for URIs.
        try fixture.addApp("many-uris", name: "Many URIs", types: ["image/png"], exec: "\(recorder) U %U")
        try fixture.addApp("one-uri", name: "One URI", types: ["image/png"], exec: "\(recorder) u %u",
                           extra: "X-GIO-NoFuse=true")
        let first = try fixture.folder.write("docs/first photo.png", bytes: SampleFiles.png)
        let second = try fixture.folder.write("docs/second.png", bytes: SampleFiles.png)
        let paths = [first.path, second.path]
        let uris = [first.absoluteString, second.absoluteString]

        for (app, expected) in [("many-paths", [["F"] + paths]), ("many-uris", [["U"] + paths])] {
            try? FileManager.default.removeItem(at: fixture.recordLog)
            let result = try fixture.runner.run(["open", "--with", app] + paths)
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertEqual(fixture.launches(waitingFor: 1), expected, app)
        }
        for (app, expected) in [("one-path", [["f", paths[0]], ["f", paths[1]]]), ("one-uri", [["u", uris[0]], ["u", uris[1]]])] {
            try? FileManager.default.removeItem(at: fixture.recordLog)
            let result = try fixture.runner.run(["open", "--with", app] + paths)
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertEqual(fixture.launches(waitingFor: 2).sorted { $0.joined() < $1.joined() }, expected, "one process per file: \(app)")
        }
    }

    func testOpenUsesEachFilesDefaultApplication() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer", name: "Viewer", types: ["image/png"])
        try fixture.addApp("reader", name: "Reader", types: ["application/pdf"])
        let png = try fixture.folder.write("a.png", bytes: SampleFiles.png)
        let pdf = try fixture.folder.write("b.pdf", SampleFiles.pdf)
        let result = try fixture.runner.run(["open", png.path, pdf.path])
        XCTAssertEqual(result.status, 0, result.errors)
        let launches = fixture.launches(waitingFor: 2).sorted { $0[0] < $1[0] }
        XCTAssertEqual(launches, [["reader", pdf.path], ["viewer", png.path]])
        XCTAssertTrue(result.output.contains("'a.png'"), result.output)
    }

    func testFailedLaunchNamesTheAppAndTheReason() throws {
        let fixture = try ApplicationFixture()
        // The program exists (GIO checks that when loading the entry) but cannot be executed.
        try fixture.folder.write("bin/broken", "#!/nonexistent/interpreter\n", mode: 0o755)
        try fixture.addApp("broken", name: "Broken Viewer", types: ["image/png"],
                           exec: fixture.root.appendingPathComponent("bin/broken").path + " %f")
        let png = try fixture.folder.write("a.png", bytes: SampleFiles.png)
        let result = try fixture.runner.run(["open", "--with", "broken", png.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("Broken Viewer"), result.errors)
        XCTAssertTrue(result.errors.contains("a.png"), result.errors)
        XCTAssertTrue(result.errors.contains("its interpreter '/nonexistent/interpreter' is missing"), result.errors)
    }

    func testAllApplicationsListsEveryShownApp() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("viewer", name: "Viewer", types: ["image/png"])
        try fixture.addApp("editor", name: "Editor", types: ["text/plain"], system: true)
        try fixture.addApp("hidden", name: "Hidden", types: ["text/plain"], extra: "NoDisplay=true")
        let listing = try fixture.runner.json(["apps", "--all", "--json"]) as? [[String: Any]]
        XCTAssertEqual(listing?.compactMap { $0["id"] as? String }, ["editor.desktop", "viewer.desktop"])
    }

    func testDBusActivatableAppIsActivatedOverTheSessionBus() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: `make test` runs the tests inside dbus-run-session")
        }
        let fixture = try ApplicationFixture()
        let log = fixture.root.appendingPathComponent("dbus.log")
        // A real org.freedesktop.Application service that records what it is asked to open.
        let service = try fixture.folder.write("bin/recorder-service.py", """
            import sys
            from gi.repository import Gio, GLib
            XML = ('<node><interface name="org.freedesktop.Application">'
                   '<method name="Activate"><arg type="a{sv}" direction="in"/></method>'
                   '<method name="Open"><arg type="as" direction="in"/><arg type="a{sv}" direction="in"/></method>'
                   '<method name="ActivateAction"><arg type="s" direction="in"/><arg type="av" direction="in"/>'
                   '<arg type="a{sv}" direction="in"/></method></interface></node>')
            loop = GLib.MainLoop()
            def call(connection, sender, path, interface, method, parameters, invocation):
                uris = parameters.unpack()[0] if method == 'Open' else []
                with open(sys.argv[1], 'a') as log:
                    log.write('\\t'.join([method] + list(uris)) + '\\n')
                invocation.return_value(None)
            def acquired(connection, name):
                connection.register_object('/org/example/Recorder', Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], call, None, None)
            Gio.bus_own_name(Gio.BusType.SESSION, 'org.example.Recorder', 0, acquired, lambda c, n: print('ready', flush=True), None)
            GLib.timeout_add_seconds(30, loop.quit)
            loop.run()

            """)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [service.path, log.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { process.terminate() }
        var ready = Data()
        while !ready.contains(0x0a) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            ready.append(chunk)
        }
        XCTAssertEqual(String(decoding: ready, as: UTF8.self), "ready\n")

        try fixture.addApp("org.example.Recorder", name: "Recorder", types: ["image/png"], exec: "/bin/false %U",
                           extra: "DBusActivatable=true")
        let png = try fixture.folder.write("a photo.png", bytes: SampleFiles.png)
        let result = try fixture.runner.run(["open", "--with", "org.example.Recorder", png.path])
        XCTAssertEqual(result.status, 0, result.errors)
        var lines: [String] = []
        _ = eventually(timeout: 60) {
            lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            return !lines.isEmpty
        }
        XCTAssertEqual(lines, ["Open\t\(png.absoluteString)"], "activated over D-Bus with the file's own URI, not by Exec")
    }

    func testAppThatFailsAtOnceIsReported() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("failing", name: "Failing Viewer", types: ["image/png"], exec: "/bin/false %f")
        let png = try fixture.folder.write("a.png", bytes: SampleFiles.png)
        let result = try fixture.runner.run(["open", "--with", "failing", png.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("'a.png' could not be opened with Failing Viewer: it exited at once with status 1"), result.errors)
    }

    func testNoApplicationAndUnknownApplicationAreClearErrors() throws {
        let fixture = try ApplicationFixture()
        let file = try fixture.folder.write("data.xyz9", bytes: [0, 1, 2, 3, 0xff])
        let none = try fixture.runner.run(["open", file.path])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.errors.contains("No application is installed for 'data.xyz9'"), none.errors)
        let unknown = try fixture.runner.run(["open", "--with", "no.such.app", file.path])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.errors.contains("No application with the ID 'no.such.app'"), unknown.errors)
    }
}
