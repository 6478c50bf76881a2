import DossierFixtures
import Foundation
import XCTest

/// The `dossier` command line as a user or a script runs it.
final class CommandLineTests: XCTestCase {
    private let runner = CommandRunner()

    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

    func testHelpAndVersion() throws {
        let help = try runner.run(["--help"])
        XCTAssertEqual(help.status, 0)
        for command in ["info", "apps", "open", "bookmark", "recents", "tag", "favorites"] {
            XCTAssertTrue(help.output.contains("  \(command) "), help.output)
        }
        let version = try runner.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.output.hasPrefix("dossier 0."), version.output)
        XCTAssertTrue(version.output.contains("Files are decoded in a separate process, confined by"), version.output)
    }

    func testUnknownCommandsAndOptionsAreUsageErrors() throws {
        let command = try runner.run(["frobnicate"])
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.errors.contains("Unknown command 'frobnicate'"), command.errors)
        let option = try runner.run(["info", "--colour", "x"])
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.errors.contains("Unknown option '--colour'"), option.errors)
        let nothing = try runner.run(["info"])
        XCTAssertEqual(nothing.status, 2)
    }

    func testInfoDescribesEverySample() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 15)
        let result = try runner.run(["info"] + names.map { samples.appendingPathComponent($0).path })
        XCTAssertEqual(result.status, 0, result.errors)
        for name in names {
            XCTAssertTrue(result.output.contains("\n\(name)\n") || result.output.hasPrefix("\(name)\n"), name)
        }
        XCTAssertTrue(result.output.contains("Type: image/jpeg — JPEG image"), result.output)
        XCTAssertTrue(result.output.contains("Type: application/pdf — PDF document"))
        XCTAssertTrue(result.output.contains("Type: inode/directory — folder"))
        XCTAssertTrue(result.output.contains("Type: application/octet-stream"))
        XCTAssertTrue(result.output.contains("Conforms to: image/svg+xml → application/xml → text/plain → application/octet-stream"))
    }

    func testEveryCommandWorksWithoutADisplay() throws {
        var headless = runner
        headless.environment["DISPLAY"] = nil
        headless.environment["WAYLAND_DISPLAY"] = nil
        let photo = samples.appendingPathComponent("photo.jpg").path
        for arguments in [["info", photo], ["apps", photo], ["apps", "--all"], ["--help"]] {
            let result = try headless.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.errors)")
        }
    }

    /// A display that is named but has no server (gone, or never there): a line that says so
    /// and status 1, not a crash inside GTK. No session bus either, so that no running Dossier
    /// takes the launch over.
    func testADisplayThatCannotBeOpenedIsSaid() throws {
        let display = ":4093"
        guard !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X4093") else {
            throw XCTSkip("an X server answers as \(display) here")
        }
        var unreachable = runner
        unreachable.environment["DISPLAY"] = display
        unreachable.environment["WAYLAND_DISPLAY"] = nil
        unreachable.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let folder = try TemporaryFolder()
        let photo = samples.appendingPathComponent("photo.jpg").path
        // The browser's launch (the application) and the previewer's own command.
        for arguments in [[folder.url.path], ["preview", photo]] {
            let result = try unreachable.run(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.errors)")
            XCTAssertTrue(result.errors.contains("Cannot open the display \(display): browsing and previewing need a graphical session."),
                          "\(arguments): \(result.errors)")
            XCTAssertFalse(result.errors.contains("CRITICAL"), "\(arguments): \(result.errors)")
        }
    }

    func testInfoAsJSON() throws {
        let photo = samples.appendingPathComponent("photo.jpg").path
        let reports = try runner.json(["info", "--json", photo]) as? [[String: Any]]
        let report = try XCTUnwrap(reports?.first)
        XCTAssertEqual(report["type"] as? String, "image/jpeg")
        XCTAssertEqual(report["typeDescription"] as? String, "JPEG image")
        XCTAssertEqual(report["kind"] as? String, "regular")
        XCTAssertEqual(report["conformsTo"] as? [String], ["application/octet-stream"])
        XCTAssertEqual((report["iconNames"] as? [String])?.first, "image-jpeg")
        let size = try XCTUnwrap(report["size"] as? Int)
        XCTAssertEqual(size, try FileManager.default.attributesOfItem(atPath: photo)[.size] as? Int)
        XCTAssertNotNil(report["modified"] as? String)
        XCTAssertEqual(report["path"] as? String, photo)
    }

    func testMissingPathIsReportedAndTheOthersStillAre() throws {
        let folder = try TemporaryFolder()
        let present = try folder.write("present.png", bytes: SampleFiles.png)
        let result = try runner.run(["info", folder.url.appendingPathComponent("missing.pdf").path, present.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("'missing.pdf' does not exist"), result.errors)
        XCTAssertTrue(result.output.contains("present.png"), result.output)
        XCTAssertTrue(result.output.contains("Type: image/png"), result.output)

        let json = try runner.run(["info", "--json", folder.url.appendingPathComponent("missing.pdf").path, present.path])
        XCTAssertEqual(json.status, 1)
        let reports = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        XCTAssertEqual(reports?.count, 2)
        XCTAssertEqual(reports?.first?["error"] as? String, "'missing.pdf' does not exist")
        XCTAssertEqual(reports?.last?["type"] as? String, "image/png")
    }

    func testANameThatIsNotUTF8IsFoundByItsBytes() throws {
        // A Latin-1 "café.txt", named by the shell's printf: its argument is bytes, not UTF-8.
        let folder = try TemporaryFolder()
        let script = #"cd "$1" && printf 'caf\351 au lait\n' > "$(printf 'caf\351.txt')" && exec "$0" info --json "$(printf 'caf\351.txt')""#
        let result = try OtherProgram.run("/bin/sh", ["-c", script, CommandRunner.binary, folder.url.path])
        XCTAssertEqual(result.status, 0, result.errors)
        let reports = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let uri = try XCTUnwrap(reports.first?["uri"] as? String)
        XCTAssertTrue(uri.hasPrefix("file:///") && uri.hasSuffix("/caf%E9.txt"), uri)
        XCTAssertEqual(reports.first?["name"] as? String, "caf\u{FFFD}.txt (invalid encoding)")
        XCTAssertEqual(reports.first?["size"] as? Int, 13)
        XCTAssertEqual(reports.first?["type"] as? String, "text/plain")
    }

    func testFIFOAndDevicesAreReportedWithoutBeingRead() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("named-pipe.txt").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // A read of either would never end: the runner's timeout fails the test if one happens.
        let result = try runner.run(["info", fifo, "/dev/zero"], timeout: 120)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("Type: inode/fifo"), result.output)
        XCTAssertTrue(result.output.contains("named pipe (FIFO), not read"), result.output)
        XCTAssertTrue(result.output.contains("Type: inode/chardevice"), result.output)
    }

    func testSymlinkLoopIsAClearError() throws {
        let folder = try TemporaryFolder()
        let a = folder.url.appendingPathComponent("a").path
        let b = folder.url.appendingPathComponent("b").path
        XCTAssertEqual(symlink(b, a), 0)
        XCTAssertEqual(symlink(a, b), 0)
        let result = try runner.run(["info", a])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("'a' could not be opened: too many levels of symbolic links"), result.errors)
    }

    func testUnreadableFileIsTypedByItsNameAndSaysSo() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("secret.pdf", SampleFiles.pdf, mode: 0o000)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.path)
        // Root reads every file: run as nobody then, for whom the file is closed. Nobody may not
        // reach the build tree, so it runs a copy of the binary kept beside the file.
        var closed = runner
        if getuid() == 0 {
            closed.program = folder.url.appendingPathComponent("dossier").path
            try FileManager.default.copyItem(atPath: CommandRunner.binary, toPath: closed.program)
        }
        let result = try closed.run(["info", "--json", file.path], as: getuid() == 0 ? "65534" : nil)
        XCTAssertEqual(result.status, 0, result.errors)
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(report["type"] as? String, "application/pdf")
        XCTAssertEqual(report["typeEvidence"] as? String, "name")
    }

    func testAppsAcceptsTypesNamesExtensionsAndPaths() throws {
        for subject in ["image/png", "image", ".png", samples.appendingPathComponent("alpha.png").path] {
            let result = try runner.run(["apps", subject])
            XCTAssertEqual(result.status, 0, "\(subject): \(result.errors)")
        }
        let png = try runner.run(["apps", ".png"])
        XCTAssertTrue(png.output.hasPrefix("image/png — PNG image"), png.output)
        let bogus = try runner.run(["apps", "no-such-thing"])
        XCTAssertEqual(bogus.status, 1)
        XCTAssertTrue(bogus.errors.contains("neither a file nor a known document type"), bogus.errors)
        let missing = try runner.run(["apps", "/no/such/file.pdf"])
        XCTAssertEqual(missing.status, 1)
    }

    func testChineseLabelsWithZhCNLocale() throws {
        var chinese = runner
        chinese.environment["LANG"] = "zh_CN.UTF-8"
        chinese.environment["LANGUAGE"] = nil
        chinese.environment["LC_ALL"] = nil
        chinese.environment["LC_MESSAGES"] = nil
        let result = try chinese.run(["info", samples.appendingPathComponent("document.pdf").path, "/no/such.pdf"])
        XCTAssertTrue(result.output.contains("类型： application/pdf — PDF 文档"), result.output)
        XCTAssertTrue(result.output.contains("大小："), result.output)
        XCTAssertTrue(result.errors.contains("“such.pdf”不存在"), result.errors)
        let help = try chinese.run(["--help"])
        XCTAssertTrue(help.output.hasPrefix("用法："), help.output)
    }

    func testTypesFromAnInstalledMIMEPackageAreFound() throws {
        // Install Dossier's own MIME package into a private XDG_DATA_HOME, as a user install would.
        let home = try TemporaryFolder("dossier-mime")
        let packages = home.url.appendingPathComponent("mime/packages")
        try FileManager.default.createDirectory(at: packages, withIntermediateDirectories: true)
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/mime/io.github.dossier.Dossier.xml").standardized
        try FileManager.default.copyItem(at: package, to: packages.appendingPathComponent(package.lastPathComponent))
        let update = Process()
        update.executableURL = URL(fileURLWithPath: "/usr/bin/update-mime-database")
        update.arguments = [home.url.appendingPathComponent("mime").path]
        try update.run()
        update.waitUntilExit()
        XCTAssertEqual(update.terminationStatus, 0)

        let files = try TemporaryFolder()
        let bookmark = try files.write("report.dossierbookmark", "DOSSIER-BOOKMARK\n")
        let unnamed = try files.write("no-extension", "DOSSIER-BOOKMARK\n")
        let swift = try files.write("main.swift", "import Foundation\nprint(1)\n")
        var installed = runner
        installed.environment["XDG_DATA_HOME"] = home.url.path
        installed.environment["XDG_DATA_DIRS"] = "/usr/share"
        let reports = try installed.json(["info", "--json", bookmark.path, unnamed.path, swift.path]) as? [[String: Any]]
        XCTAssertEqual(reports?.map { $0["type"] as? String }, ["application/x-dossier-bookmark", "application/x-dossier-bookmark", "text/x-swift"])
        XCTAssertEqual(reports?.last?["conformsTo"] as? [String], ["text/plain", "application/octet-stream"])
    }
}
