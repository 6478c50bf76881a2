import DossierFixtures
import Foundation

/// An isolated desktop: `XDG_CONFIG_HOME`, `XDG_CONFIG_DIRS`, `XDG_DATA_HOME` and
/// `XDG_DATA_DIRS` in a temporary folder, with fake applications that record how they were
/// started, so tests see exactly what Open With would launch and with which arguments.
final class ApplicationFixture {
    let folder: TemporaryFolder
    var root: URL { folder.url }
    var configHome: URL { root.appendingPathComponent("config") }
    var configDirs: URL { root.appendingPathComponent("sysconfig") }
    var dataHome: URL { root.appendingPathComponent("data") }
    var dataDirs: URL { root.appendingPathComponent("sysdata") }
    var recordLog: URL { root.appendingPathComponent("launches.log") }
    var recorder: URL { root.appendingPathComponent("bin/record") }
    var desktop = "Fixture"

    init() throws {
        folder = try TemporaryFolder("dossier-apps")
        for url in [configHome, configDirs, dataHome.appendingPathComponent("applications"),
                    dataDirs.appendingPathComponent("applications")] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        // The MIME database still comes from the system; only the applications are fake.
        try FileManager.default.createSymbolicLink(
            at: dataDirs.appendingPathComponent("mime"), withDestinationURL: URL(fileURLWithPath: "/usr/share/mime"))
        // Each launch appends one line: the app's tag, then each argument after a tab.
        try folder.write("bin/record", """
            #!/bin/sh
            tag="$1"; shift
            line="$tag"
            for argument in "$@"; do line="$line\t$argument"; done
            printf '%s\\n' "$line" >> "\(recordLog.path)"

            """, mode: 0o755)
    }

    /// Installs a desktop entry in the user's (`system: false`) or the system's applications.
    func addApp(_ id: String, name: String, types: [String], exec: String? = nil, system: Bool = false,
                extra: String = "") throws {
        let folder = (system ? dataDirs : dataHome).appendingPathComponent("applications")
        let entry = """
            [Desktop Entry]
            Type=Application
            Name=\(name)
            Exec=\(exec ?? "\(recorder.path) \(id) %F")
            MimeType=\(types.map { $0 + ";" }.joined())
            \(extra)
            """
        try Data(entry.utf8).write(to: folder.appendingPathComponent(id + ".desktop"))
        // GIO finds apps for a type through mimeinfo.cache, which installs keep current.
        let update = Process()
        update.executableURL = URL(fileURLWithPath: "/usr/bin/update-desktop-database")
        update.arguments = ["--quiet", folder.path]
        try update.run()
        update.waitUntilExit()
    }

    /// Writes a mimeapps.list at `location`, relative to the fixture's root.
    func writeMimeApps(_ location: String, _ text: String) throws {
        try folder.write(location, text)
    }

    var runner: CommandRunner {
        CommandRunner(environment: [
            "XDG_CONFIG_HOME": configHome.path,
            "XDG_CONFIG_DIRS": configDirs.path,
            "XDG_DATA_HOME": dataHome.path,
            "XDG_DATA_DIRS": dataDirs.path,
            "XDG_CURRENT_DESKTOP": desktop,
        ])
    }

    /// The recorded launches, each as [tag, arguments…], waiting up to 60 s for `count`.
    func launches(waitingFor count: Int) -> [[String]] {
        let deadline = Date().addingTimeInterval(60)
        var lines: [[String]] = []
        repeat {
            let text = (try? String(contentsOf: recordLog, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            if lines.count >= count { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return lines
    }
}
