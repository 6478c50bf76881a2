import DossierFixtures
import Foundation
import XCTest

/// The previewer as a user sees it, under the test's Xvfb display: every renderer on the
/// samples, the keyboard, bad files, and the Nautilus previewer service over D-Bus.
final class PreviewerUITests: XCTestCase {
    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

    /// The window's content area (below the header) on the 1280×1024 test screen.
    private let content = (x: 20, y: 70, width: 860, height: 600)

    override func setUp() async throws {
        try XCTSkipUnless(DesktopSession.isAvailable, "no display: UI tests run under `make test`, which starts Xvfb")
    }

    func testEveryItemIsRenderedAndTheArrowsWalkThem() throws {
        // Each sample and what the accessibility tree shows for it once loaded.
        let cases: [(String, String)] = [
            ("photo.jpg", "Image photo.jpg"),
            ("alpha.png", "Image alpha.png"),
            ("animation.gif", "Image animation.gif"),
            ("drawing.svg", "Image drawing.svg"),
            ("document.pdf", "Page 1"),
            ("notes.txt", "Text of notes.txt"),
            ("hello.swift", "Text of hello.swift"),
            ("readme.md", "Formatted text of readme.md"),
            ("table.csv", "Table of table.csv, 20 rows"),
            ("archive.zip", "Contents of archive.zip"),
            ("sound.ogg", "Audio sound.ogg"),
            ("clip.webm", "Video clip.webm"),
            ("font.ttf", "Font specimen of font.ttf"),
            ("folder", "Summary of folder folder"),
            ("mystery.xyz9", "Information about mystery.xyz9"),
        ]
        let app = try DesktopSession.launch([CommandRunner.binary, "preview"] + cases.map { samples.appendingPathComponent($0.0).path })
        defer { app.terminate() }
        var previous: URL?
        for (index, (file, accessible)) in cases.enumerated() {
            XCTAssertTrue(DesktopSession.waitForAccessible(accessible), "\(file): '\(accessible)' is shown")
            XCTAssertTrue(DesktopSession.waitForAccessible("\(index + 1) of \(cases.count)"), "\(file): the header counts")
            // Screenshots until the item is drawn: not blank, and no longer the item before (the
            // cross-fade and the first frame take their time). The 64×64 animation shows at its
            // own size: a small part of the area.
            let least = file == "animation.gif" ? 0.005 : 0.02
            var variation = 0.0, change = 0.0
            var drawn: URL?
            XCTAssertTrue(eventually(timeout: 60) {
                let shot = DesktopSession.screenshot("preview-\(index)-\(file)")
                drawn = shot
                variation = DesktopSession.variation(shot, x: content.x, y: content.y, width: content.width, height: content.height)
                change = previous.map { DesktopSession.difference($0, shot, x: content.x, y: content.y,
                                                                   width: content.width, height: content.height) } ?? 1
                return variation > least && change > 0.01
            }, "\(file): the content is not blank (variation \(variation)) and looks different from the item before (\(change))")
            previous = drawn
            if index == 0 { DesktopSession.click(x: 450, y: 400) }
            DesktopSession.key("Right")
        }
        // Right at the last item stays there; Left goes back; Space closes.
        XCTAssertTrue(DesktopSession.waitForAccessible("\(cases.count) of \(cases.count)"))
        DesktopSession.key("Left")
        XCTAssertTrue(DesktopSession.waitForAccessible("\(cases.count - 1) of \(cases.count)"))
        DesktopSession.key("space")
        XCTAssertTrue(eventually { !app.isRunning }, "Space closed the previewer")
    }

    func testAFontsSpecimenLinesArePicturesNamedByTheirText() throws {
        // The lines are drawn by the decoder worker and shown as pictures: a screen reader reads
        // each one's text.
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", samples.appendingPathComponent("font.ttf").path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Font specimen of font.ttf"))
        var names: [String] = []
        XCTAssertTrue(eventually {
            names = DesktopSession.accessibleNames()
            return ["DejaVu Sans Mono", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "The quick brown fox jumps over the lazy dog."]
                .allSatisfy { names.contains("image: " + $0) }
        }, "the name, the alphabet and the sample are named pictures: \(names)")
    }

    func testBadFilesEndOnAnErrorPageAndNothingHangs() throws {
        let folder = try TemporaryFolder()
        let files = try DamagedFiles.writeAll(into: folder.url)
        let app = try DesktopSession.launch([CommandRunner.binary, "preview"] + files.map(\.path))
        defer { app.terminate() }
        for (index, name) in files.map(\.lastPathComponent).enumerated() {
            let shown = DesktopSession.waitForAccessible("“\(name)” cannot be shown")
            XCTAssertTrue(shown, "\(name) ends on an error page")
            DesktopSession.screenshot("bad-\(index)-\(name)")
            if index == 0 { DesktopSession.click(x: 450, y: 400) }
            DesktopSession.key("Right")
        }
        XCTAssertTrue(app.isRunning, "the previewer is still alive")
    }

    func testAPictureNoDecoderReadsGetsTheInformationPageNotAnErrorPage() throws {
        // GIMP's XCF is filed under image/ by shared-mime-info (its magic: "gimp xcf "), and no
        // gdk-pixbuf loader reads it: the file is not to blame.
        let folder = try TemporaryFolder()
        let picture = folder.url.appendingPathComponent("layers.xcf")
        var bytes = Data("gimp xcf v011\0".utf8)
        bytes.append(Data(count: 64))
        try bytes.write(to: picture)
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", picture.path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Information about layers.xcf"), "the information page")
        var names: [String] = []
        XCTAssertTrue(eventually {
            names = DesktopSession.accessibleNames()
            return names.contains { $0.contains("No picture decoder on this computer reads this kind of image.") }
        }, "the page says why: \(names)")
        XCTAssertFalse(names.contains { $0.contains("cannot be shown") }, "no error page")
        DesktopSession.screenshot("info-undecodable-picture")
    }

    func testACompressedDocumentIsShownAsTheDocumentItHolds() throws {
        let folder = try TemporaryFolder()
        let pdf = folder.url.appendingPathComponent("paper.pdf")
        try FileManager.default.copyItem(at: samples.appendingPathComponent("document.pdf"), to: pdf)
        let script = folder.url.appendingPathComponent("figure.ps")
        try "%!PS-Adobe-3.0\n72 700 moveto (Hello) show showpage\n".write(to: script, atomically: true, encoding: .utf8)
        // A bomb: a PDF header and 300 MB of zeros in about 300 KB, past the 256 MB a
        // decompressed copy may take.
        let made = OtherProgram.output(of: ["/bin/sh", "-c",
                                            #"cd "$0" && gzip paper.pdf figure.ps && (echo %PDF-1.4; head -c 300M /dev/zero) | gzip > bomb.pdf.gz && echo made"#,
                                            folder.url.path])
        XCTAssertEqual(made, "made\n")
        let names = ["paper.pdf.gz", "figure.ps.gz", "bomb.pdf.gz"]
        let app = try DesktopSession.launch([CommandRunner.binary, "preview"] + names.map { folder.url.appendingPathComponent($0).path })
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 1"), "the PDF's pages")
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 3"), "all three")
        DesktopSession.screenshot("compressed-pdf")
        DesktopSession.click(x: 450, y: 400)
        DesktopSession.key("Right")
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of figure.ps.gz"), "PostScript as its source, as a .ps is")
        DesktopSession.key("Right")
        XCTAssertTrue(DesktopSession.waitForAccessible("“bomb.pdf.gz” cannot be shown"), "the bomb ends on an error page")
        XCTAssertTrue(DesktopSession.waitForAccessible("It is larger than"), "which says why")
        DesktopSession.screenshot("compressed-bomb")
        DesktopSession.key("space")
        XCTAssertTrue(eventually { !app.isRunning })
        let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].map { $0 + "/dossier/archive-previews" } ?? ""
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? [], [], "no decompressed copy is left")
    }

    func testMarkdownSourceButtonSwitchesToTheSource() throws {
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", samples.appendingPathComponent("readme.md").path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Formatted text of readme.md"))
        XCTAssertFalse(DesktopSession.accessibleNames().contains { $0.hasSuffix(": Source of readme.md") },
                       "the source is hidden at first")
        let formatted = try XCTUnwrap(DesktopSession.steadyScreenshot("markdown-formatted", region: content) {
            DesktopSession.variation($0, x: content.x, y: content.y, width: content.width, height: content.height) > 0.02
        }, "the formatted text is drawn")
        let button = try XCTUnwrap(DesktopSession.centre(of: "Show source", inApp: "dossier"), "the Source button is there")
        DesktopSession.click(x: button.x, y: button.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("Source of readme.md"), "the source is shown")
        XCTAssertTrue(DesktopSession.waitForAccessible("Show formatted text"), "the button now goes back")
        var change = 0.0
        XCTAssertTrue(eventually(timeout: 60) {
            change = DesktopSession.difference(formatted, DesktopSession.screenshot("markdown-source"), x: content.x, y: content.y + 40,
                                               width: content.width, height: content.height - 40)
            return change > 0.01
        }, "the source looks different from the formatted text (\(change))")
    }

    func testAMillionRowTableLoadsAndShowsItsLastRow() throws {
        let folder = try TemporaryFolder()
        var text = "id,name,value\n"
        text.reserveCapacity(30_000_000)
        for row in 1...1_000_000 { text += "\(row),Row \(row),\(row * 2)\n" }
        let file = try folder.write("million.csv", text)
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", file.path])
        defer { app.terminate() }
        // Every row; or, when the machine is too busy for the reader to get through the file
        // within its time limit (8 s), the rows it read and a note that says so. How fast a
        // million rows are read is for the benchmarks, not for a test. The deadlines are a
        // generous net for the launch and the reading in a debug build on a loaded machine.
        var rows = 0
        XCTAssertTrue(eventually(timeout: 300) {
            // "panel: Table of million.csv, 1000000 rows"
            let marker = ": Table of million.csv, "
            let name = DesktopSession.accessibleNames().first { $0.contains(marker) }
            rows = name.flatMap { $0.components(separatedBy: marker).last?.split(separator: " ").first.flatMap { Int($0) } } ?? 0
            return rows > 0
        }, "the table is shown")
        if rows != 1_000_000 {
            XCTAssertTrue(eventually(timeout: 60) { DesktopSession.accessibleNames().contains { $0.contains("only the first") } },
                          "a note says that only \(rows) rows were read")
        }
        XCTAssertTrue(DesktopSession.waitForAccessible("Row 1"), "the first rows are shown")
        XCTAssertTrue(eventually(timeout: 60) {
            let shot = DesktopSession.screenshot("table-million")
            return DesktopSession.variation(shot, x: content.x, y: content.y, width: content.width, height: content.height) > 0.02
        }, "the table is drawn")
        // End in the table goes to the last row.
        DesktopSession.click(x: 300, y: 200)
        DesktopSession.key("End")
        XCTAssertTrue(DesktopSession.waitForAccessible("Row \(rows)", timeout: 300), "the last row is shown")
        DesktopSession.screenshot("table-million-end")
    }

    func testArchiveEntriesPreviewInPlaceAndUnsafeOnesAreNeverExtracted() throws {
        let folder = try TemporaryFolder("dossier-archive")
        let cache = folder.url.appendingPathComponent("cache")
        let absolute = "/tmp/dossier-absolute-\(UUID().uuidString).txt"
        let zip = folder.url.appendingPathComponent("evil.zip")
        // Python's zipfile keeps the names as given, "../" and all.
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                z.writestr('../escape.txt', 'outside\\n')
                z.writestr(sys.argv[2], 'absolute\\n')
                z.writestr('docs/ok.txt', 'inside\\n')
            """
        DesktopSession.run(["/usr/bin/python3", "-c", script, zip.path, absolute])
        XCTAssertTrue(FileManager.default.fileExists(atPath: zip.path))
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", zip.path], environment: ["XDG_CACHE_HOME": cache.path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Contents of evil.zip"))
        XCTAssertTrue(DesktopSession.waitForAccessible("Unsafe path, not extracted: ../escape.txt"), "flagged")
        XCTAssertTrue(DesktopSession.waitForAccessible("Unsafe path, not extracted: \(absolute)"), "flagged")
        DesktopSession.screenshot("archive-listing")

        // A safe entry previews in place; Back returns to the listing.
        let entry = try XCTUnwrap(DesktopSession.centre(of: "ok.txt", inApp: "dossier"))
        DesktopSession.doubleClick(x: entry.x, y: entry.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of ok.txt"), "the entry is previewed")
        DesktopSession.screenshot("archive-entry")
        let back = try XCTUnwrap(DesktopSession.centre(of: "Back to the archive", inApp: "dossier"))
        DesktopSession.click(x: back.x, y: back.y)
        XCTAssertTrue(eventually { !DesktopSession.accessibleNames().contains { $0.hasSuffix(": Text of ok.txt") } },
                      "back at the listing")

        // An unsafe entry is refused, and nothing lands outside the private folder.
        let unsafe = try XCTUnwrap(DesktopSession.centre(of: "Unsafe path, not extracted: ../escape.txt", inApp: "dossier"))
        DesktopSession.doubleClick(x: unsafe.x, y: unsafe.y)
        XCTAssertTrue(DesktopSession.waitForAccessible("Not extracted: Its path leads outside the archive"), "refused")
        DesktopSession.screenshot("archive-unsafe")
        let written = FileManager.default.enumerator(atPath: folder.url.path)?.compactMap { $0 as? String } ?? []
        XCTAssertFalse(written.contains { $0.hasSuffix("escape.txt") || $0.hasSuffix("absolute.txt") }, "\(written)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: absolute))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.deletingLastPathComponent().appendingPathComponent("escape.txt").path))
    }

    func testShowFileOverDBusShowsTheWindowAndSetsVisible() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        let service = try DesktopSession.launch([CommandRunner.binary, "previewer-service"])
        defer { service.terminate() }
        func call(_ arguments: [String]) -> String {
            DesktopSession.run(["/usr/bin/gdbus", "call", "--session", "--dest", "org.gnome.NautilusPreviewer",
                                "--object-path", "/org/gnome/NautilusPreviewer"] + arguments)
        }
        func visible() -> String {
            call(["--method", "org.freedesktop.DBus.Properties.Get", "org.gnome.NautilusPreviewer2", "Visible"])
        }
        let photo = samples.appendingPathComponent("photo.jpg").absoluteString
        XCTAssertTrue(eventually { call(["--method", "org.gnome.NautilusPreviewer2.ShowFile", photo, "x11:0", "false"]) == "()\n" })
        XCTAssertTrue(DesktopSession.waitForAccessible("Image photo.jpg"))
        XCTAssertEqual(visible(), "(<true>,)\n")
        XCTAssertTrue(eventually(timeout: 60) {
            let shot = DesktopSession.screenshot("dbus-showfile")
            return DesktopSession.variation(shot, x: content.x, y: content.y, width: content.width, height: content.height) > 0.02
        }, "the photo is drawn")
        // The same file again with closeIfAlreadyShown toggles the window off.
        XCTAssertEqual(call(["--method", "org.gnome.NautilusPreviewer2.ShowFile", photo, "x11:0", "true"]), "()\n")
        XCTAssertTrue(eventually { visible() == "(<false>,)\n" })
        XCTAssertEqual(call(["--method", "org.gnome.NautilusPreviewer2.ShowFile", photo, "x11:0", "true"]), "()\n")
        XCTAssertTrue(eventually { visible() == "(<true>,)\n" })
        XCTAssertEqual(call(["--method", "org.gnome.NautilusPreviewer2.Close"]), "()\n")
        XCTAssertTrue(eventually { visible() == "(<false>,)\n" })
    }

    func testANameThatIsNotUTF8OpensFromTheCommandLineAndOverDBusAndNoNameHidesItsExtension() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        // A Latin-1 "café.txt" (the shell's printf makes the byte), and a name whose
        // right-to-left override would make "invoice<U+202E>fdp.exe" read "invoiceexe.pdf".
        let folder = try TemporaryFolder()
        let made = OtherProgram.output(of: ["/bin/sh", "-c", #"cd "$0" && printf 'caf\351 au lait\n' > "$(printf 'caf\351.txt')" && echo made"#,
                                            folder.url.path])
        XCTAssertEqual(made, "made\n")
        let override = try folder.write("invoice\u{202E}fdp.exe", bytes: Array("MZ".utf8))
        let latin1 = "caf\u{FFFD}.txt (invalid encoding)"

        let app = try DesktopSession.launch(["/bin/sh", "-c", #"exec "$0" preview "$1/$(printf 'caf\351.txt')""#,
                                             CommandRunner.binary, folder.url.path])
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of \(latin1)"), "from the command line: the text, titled as GLib shows the name")
        DesktopSession.screenshot("name-latin1-command-line")
        app.terminate()
        XCTAssertTrue(eventually { !app.isRunning })

        // Space in Files: ShowFile with the file's URI, whose escape keeps the byte.
        let service = try DesktopSession.launch([CommandRunner.binary, "previewer-service"])
        defer { service.terminate() }
        func show(_ uri: String) -> String {
            DesktopSession.run(["/usr/bin/gdbus", "call", "--session", "--dest", "org.gnome.NautilusPreviewer",
                                "--object-path", "/org/gnome/NautilusPreviewer", "--method", "org.gnome.NautilusPreviewer2.ShowFile",
                                uri, "x11:0", "false"])
        }
        XCTAssertTrue(eventually { show("file://" + folder.url.path + "/caf%E9.txt") == "()\n" })
        XCTAssertTrue(DesktopSession.waitForAccessible("Text of \(latin1)"), "over D-Bus: the same file")
        DesktopSession.screenshot("name-latin1-dbus")
        XCTAssertEqual(show(override.absoluteString), "()\n")
        XCTAssertTrue(DesktopSession.waitForAccessible("Information about invoice<U+202E>fdp.exe"), "the override is written out")
        XCTAssertFalse(DesktopSession.accessibleNames().contains { $0.contains("invoice\u{202E}") }, "never shown as it is")
        DesktopSession.screenshot("name-override-dbus")
    }

    func testSpaceInNautilusShowsDossiersPreviewerAndRightMovesToTheNextFile() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/nautilus"), "Debian's nautilus is not installed")
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "no session bus")
        let install = try CommandRunner().run(["previewer-service", "--install-user"])
        XCTAssertEqual(install.status, 0, install.errors)
        defer { _ = try? CommandRunner().run(["previewer-service", "--uninstall-user"]) }
        let folder = try TemporaryFolder("dossier-nautilus")
        for name in ["alpha.png", "drawing.svg"] {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        // Nautilus opens the folder with the file selected (`--select`, in every Nautilus since
        // 43), and the window gets the keyboard as a window manager would give it. Screen
        // positions from the accessibility tree are not used: GTK 4.18 and later report none.
        let nautilus = try DesktopSession.launch(["/usr/bin/nautilus", "--select", folder.url.appendingPathComponent("alpha.png").path])
        defer {
            DesktopSession.run(["/usr/bin/nautilus", "-q"])
            nautilus.terminate()
            // The activated previewer service, found by the bus name it owns.
            DesktopSession.endBusOwner("org.gnome.NautilusPreviewer")
        }
        // Its window, once it shows the folder (its title is the folder's name; Nautilus 51's
        // items are not in the accessibility tree under Xvfb).
        var window: String?
        XCTAssertTrue(eventually(timeout: 60) {
            window = DesktopSession.run(["/usr/bin/xdotool", "search", "--onlyvisible", "--class", "nautilus"])
                .split(separator: "\n").map(String.init)
                .first { DesktopSession.run(["/usr/bin/xdotool", "getwindowname", $0]).contains(folder.url.lastPathComponent) }
            return window != nil
        }, "Nautilus shows the folder")
        guard let window else { return }
        // And once its view shows the folder's items at rest (its title comes first): a Space
        // that came while the folder loaded found nothing selected, and `--select` then lost
        // its selection too (one loaded run). The view is right of the sidebar.
        let view = (x: 260, y: 70, width: 560, height: 200)
        XCTAssertNotNil(DesktopSession.steadyScreenshot("nautilus-folder", region: view) { shot in
            DesktopSession.variation(shot, x: view.x, y: view.y, width: view.width, height: view.height) > 0.02
        }, "Nautilus shows the folder's items")
        DesktopSession.run(["/usr/bin/xdotool", "windowfocus", "--sync", window])
        DesktopSession.key("space")
        XCTAssertTrue(DesktopSession.waitForAccessible("Image alpha.png", timeout: 60), "Space in Nautilus opened Dossier's previewer")
        DesktopSession.screenshot("nautilus-space")
        // The previewer is kept above the Nautilus window that asked for it.
        let previewer = DesktopSession.run(["/usr/bin/xdotool", "search", "--name", "^alpha.png$"]).split(separator: "\n").first.map(String.init)
        let nautilusWindows = Set(DesktopSession.run(["/usr/bin/xdotool", "search", "--class", "nautilus"]).split(separator: "\n")
            .compactMap { Int($0) })
        if let previewer, let id = Int(previewer) {
            let property = DesktopSession.run(["/usr/bin/xprop", "-id", String(id), "WM_TRANSIENT_FOR"])
            let parent = property.split(separator: "#").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16) }
            XCTAssertTrue(parent.map(nautilusWindows.contains) ?? false, "transient for Nautilus: \(property)")
        } else {
            XCTFail("the previewer window was not found by its title")
        }
        // Right in the previewer: Nautilus moves its selection and asks for the next file.
        DesktopSession.click(x: 450, y: 400)
        DesktopSession.key("Right")
        XCTAssertTrue(DesktopSession.waitForAccessible("Image drawing.svg"), "Right showed the next file")
        DesktopSession.screenshot("nautilus-right")
    }

    func testHTMLOfficeDocumentsAndInstalledPreviewers() throws {
        let folder = try TemporaryFolder("dossier-previewers")
        // An installed previewer for tar archives that writes a text summary.
        let home = folder.url.appendingPathComponent("data")
        try folder.write("data/dossier/previewers/tar-summary.previewer", """
            [Previewer Entry]
            Name=Tar summary
            TryExec=bash
            Exec=bash -c "echo 'An archive, summarised by an external previewer' > \\"$1\\"" previewer %o
            MimeType=application/x-tar;
            Output=text

            """)
        let archive = try folder.write("backup.tar", bytes: SampleFiles.tar)
        var files = [samples.appendingPathComponent("page.html").path, archive.path]
        var expected = ["Web page page.html", "Tar summary preview of backup.tar"]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/soffice") {
            // A real OpenDocument text, made by LibreOffice itself.
            let text = try folder.write("letter.txt", "A letter written for the office renderer.\n")
            DesktopSession.run(["/usr/bin/soffice", "--headless", "-env:UserInstallation=file://\(folder.url.path)/profile",
                                "--convert-to", "odt", "--outdir", folder.url.path, text.path])
            files.append(folder.url.appendingPathComponent("letter.odt").path)
            expected.append("Document letter.odt")
        }
        let app = try DesktopSession.launch([CommandRunner.binary, "preview"] + files,
                                            environment: ["XDG_DATA_HOME": home.path,
                                                          "XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path])
        defer { app.terminate() }
        for (index, name) in expected.enumerated() {
            XCTAssertTrue(DesktopSession.waitForAccessible(name, timeout: 60), "\(name) is shown")
            // WebKit and the converters draw after the page reports ready: wait for the drawing.
            // Some of these are a line or two of text on white: a low bar, but not blank.
            var variation = 0.0
            XCTAssertTrue(eventually(timeout: 60) {
                let shot = DesktopSession.screenshot("converted-\(index)")
                variation = DesktopSession.variation(shot, x: content.x, y: content.y, width: content.width, height: content.height)
                return variation > 0.005
            }, "\(name) is drawn (variation \(variation))")
            if index == 0 { DesktopSession.click(x: 450, y: 400) }
            DesktopSession.key("Right")
        }
    }

    /// Showing a web page writes nothing in the temporary folder (WebKit compiles its content
    /// filter through temporary files): Dossier keeps its temporary files in its cache.
    func testAWebPageLeavesTheTemporaryFolderAsItWas() throws {
        let folder = try TemporaryFolder("dossier-tmpdir")
        let tmp = folder.url.appendingPathComponent("tmp")
        let cache = folder.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let before = try FileManager.default.attributesOfItem(atPath: tmp.path)[.modificationDate] as? Date
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", samples.appendingPathComponent("page.html").path],
                                            environment: ["TMPDIR": tmp.path, "XDG_CACHE_HOME": cache.path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Web page page.html", timeout: 60), "the page is shown")
        let after = try FileManager.default.attributesOfItem(atPath: tmp.path)[.modificationDate] as? Date
        XCTAssertEqual(before, after, "nothing was made (or made and removed) in TMPDIR")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("dossier/tmp").path),
                      "the temporary folder in the cache")
    }

    /// A page that redirects itself (meta refresh), frames a local file and a remote page, and
    /// shows an image from a server on 127.0.0.1: the page stays itself, with a banner; the
    /// server hears nothing, not even a connection (a preconnect), until "Load Remote Content"
    /// is pressed, and then only the image, never the redirect or the frames (nor the image
    /// inside the framed local file).
    func testAPageThatRedirectsStaysAndItsRemoteContentLoadsOnlyWhenAsked() throws {
        let folder = try TemporaryFolder("dossier-html-remote")
        let log = folder.url.appendingPathComponent("requests.log")
        let portFile = folder.url.appendingPathComponent("port")
        DesktopSession.run(["/usr/bin/convert", "-size", "160x100", "xc:#00c000", folder.url.appendingPathComponent("beacon.png").path])
        let server = try folder.write("beacon-server.py", """
            import http.server, os, sys
            folder = sys.argv[1]
            png = open(os.path.join(folder, 'beacon.png'), 'rb').read()
            log = open(os.path.join(folder, 'requests.log'), 'a', buffering=1)
            class Beacon(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    log.write(self.path + '\\n')
                    self.send_response(200)
                    self.send_header('Content-Type', 'image/png')
                    self.send_header('Content-Length', str(len(png)))
                    self.end_headers()
                    self.wfile.write(png)
                def log_message(self, *arguments): pass
            class Server(http.server.HTTPServer):
                def get_request(self):
                    accepted = super().get_request()
                    log.write('connection\\n')
                    return accepted
            httpd = Server(('127.0.0.1', 0), Beacon)
            with open(os.path.join(folder, 'port.new'), 'w') as f: f.write(str(httpd.server_port))
            os.rename(os.path.join(folder, 'port.new'), os.path.join(folder, 'port'))
            httpd.serve_forever()
            """)
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let beacon = Process()
        beacon.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        beacon.arguments = [server.path, folder.url.path]
        try beacon.run()
        defer { beacon.terminate() }
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: portFile.path) }, "the beacon server listens")
        let port = try String(contentsOf: portFile, encoding: .utf8)
        let origin = "http://127.0.0.1:\(port)"
        try folder.write("framed.html", "<p>A local file the page framed</p><img src=\"\(origin)/from-frame.png\">\n")
        let page = try folder.write("stays.html", """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=\(origin)/redirect">
            <link rel="preconnect" href="\(origin)"><link rel="dns-prefetch" href="\(origin)"></head>
            <body><h1>This page stays itself</h1><p>Its own text.</p>
            <img src="\(origin)/beacon.png" alt="beacon">
            <iframe src="framed.html"></iframe><iframe src="\(origin)/frame"></iframe>
            </body></html>
            """)
        func requests() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", page.path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Web page stays.html", timeout: 60), "the page is shown")
        XCTAssertTrue(DesktopSession.waitForAccessible("Remote content was blocked"), "the banner says so")
        // The page draws its heading (dark pixels below the banner) and stays, its refresh refused.
        var dark = 0
        XCTAssertTrue(eventually(timeout: 60) {
            dark = Self.darkPixels(DesktopSession.screenshot("html-remote-1-blocked"), x: 10, y: 100, width: 870, height: 560)
            return dark > 500
        }, "the page's heading is drawn (\(dark) dark pixels)")
        XCTAssertEqual(requests(), [], "nothing reached the server before the button, not even a connection")

        XCTAssertTrue(DesktopSession.activate("Load Remote Content", role: "push button"), "the banner's button is pressed")
        XCTAssertTrue(eventually(timeout: 60) { requests().contains("/beacon.png") }, "the image is loaded: \(requests())")
        // The image on screen: the page is the page, with its image, and not the redirect's target.
        var green = 0
        XCTAssertTrue(eventually(timeout: 60) {
            let shot = DesktopSession.screenshot("html-remote-2-loaded")
            green = Self.greenPixels(shot)
            dark = Self.darkPixels(shot, x: 10, y: 50, width: 870, height: 610)
            return green > 160 * 100 / 2 && dark > 500
        }, "the image shows in the page (\(green) green pixels), with its heading (\(dark) dark pixels)")
        XCTAssertTrue(DesktopSession.accessibleNames().contains { $0.hasSuffix(": Web page stays.html") }, "still the page")
        XCTAssertEqual(Set(requests().filter { $0.hasPrefix("/") }), ["/beacon.png"], "only the image: no redirect, no frame")
    }

    /// How many pixels of a part of the screenshot are dark (text).
    static func darkPixels(_ shot: URL, x: Int, y: Int, width: Int, height: Int) -> Int {
        let text = DesktopSession.run(["/usr/bin/convert", shot.path, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage",
                                       "-colorspace", "gray", "-threshold", "25%", "-format", "%[fx:round((1-mean)*w*h)]", "info:"])
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// How many pixels of the screenshot are the beacon's green.
    static func greenPixels(_ shot: URL) -> Int {
        let text = DesktopSession.run(["/usr/bin/convert", shot.path, "-fill", "black", "+opaque", "#00c000", "-fill", "white",
                                       "-opaque", "#00c000", "-format", "%[fx:round(mean*w*h)]", "info:"])
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func testALinkInAPDFOpensInTheDefaultBrowser() throws {
        let fixture = try ApplicationFixture()
        try fixture.addApp("browser", name: "Browser", types: ["x-scheme-handler/https"], exec: "\(fixture.recorder.path) browser %u")
        try fixture.writeMimeApps("config/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=browser.desktop\n")
        let pdf = try fixture.folder.write("linked.pdf", SampleFiles.linkedPDF(to: "https://example.org/dossier"))
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", pdf.path], environment: [
            "XDG_CONFIG_HOME": fixture.configHome.path, "XDG_DATA_HOME": fixture.dataHome.path,
            "XDG_DATA_DIRS": fixture.dataDirs.path + ":/usr/share",
        ])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 1"))
        let page = try XCTUnwrap(DesktopSession.centre(of: "Page 1", inApp: "dossier"))
        DesktopSession.click(x: page.x, y: page.y)
        XCTAssertEqual(fixture.launches(waitingFor: 1), [["browser", "https://example.org/dossier"]])
    }

    func testZoomKeysEnlargeTheImageAndZeroFitsItAgain() throws {
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", samples.appendingPathComponent("photo.jpg").path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Image photo.jpg"))
        func difference(_ a: URL, _ b: URL) -> Double {
            DesktopSession.difference(a, b, x: content.x, y: content.y, width: content.width, height: content.height)
        }
        // Each picture measured once it has come to rest (the sharper pixels decoded for a zoom
        // come after its first frames).
        let fitted = try XCTUnwrap(DesktopSession.steadyScreenshot("zoom-fit", region: content) {
            DesktopSession.variation($0, x: content.x, y: content.y, width: content.width, height: content.height) > 0.02
        }, "the photo is drawn")
        DesktopSession.click(x: 450, y: 400)
        DesktopSession.key("plus", "plus", "plus")
        var zoomChange = 0.0
        XCTAssertNotNil(DesktopSession.steadyScreenshot("zoom-in", region: content) {
            zoomChange = difference(fitted, $0)
            return zoomChange > 0.05
        }, "+ enlarged the picture (\(zoomChange))")
        DesktopSession.key("0")
        // The sharper pixels decoded for the zoom resample a little differently when fitted.
        var refitChange = 1.0
        XCTAssertNotNil(DesktopSession.steadyScreenshot("zoom-refit", region: content) {
            refitChange = difference(fitted, $0)
            return refitChange < zoomChange / 2
        }, "0 fits it again (\(refitChange) from the fitted picture, \(zoomChange) zoomed)")
    }

    /// A 64×64 GIF of four blue and red squares shows at 64×64, centred in the window (not
    /// blown up to fill it, blurred); zoomed in, its pixels stay sharp: no pixel of the picture
    /// is a blend of the two (nearest-neighbour above 100 %); 0 brings it back to 64×64.
    func testASmallImageShowsAtItsOwnSizeCentredAndStaysSharpZoomedIn() throws {
        let folder = try TemporaryFolder("dossier-small-image")
        let image = folder.url.appendingPathComponent("squares.gif")
        DesktopSession.run(["/usr/bin/convert", "-size", "64x64", "xc:red", "-fill", "blue", "-draw", "rectangle 0,0 31,31",
                            "-draw", "rectangle 32,32 63,63", image.path])
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", image.path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Image squares.gif"))

        var box = PictureBox(width: 0, height: 0, x: 0, y: 0)
        XCTAssertTrue(eventually(timeout: 60) {
            box = Self.pictureBox(DesktopSession.screenshot("small-image-1-own-size"))
            return box.width == 64 && box.height == 64
        }, "shown at 64×64: \(box)")
        // Centred in the content area: the window's middle, below its header bar.
        let window = try XCTUnwrap(DesktopSession.frame(of: "squares.gif", inApp: "dossier"), "the previewer's window")
        XCTAssertEqual(Double(box.x + 32), Double(window.x + window.width / 2), accuracy: 12, "centred across: \(box) in \(window)")
        XCTAssertEqual(Double(box.y + 32), Double(window.y + window.height / 2), accuracy: 40, "centred down: \(box) in \(window)")

        DesktopSession.click(x: box.x + 32, y: box.y + 32)
        DesktopSession.key("plus", "plus", "plus")
        XCTAssertTrue(eventually(timeout: 60) {
            box = Self.pictureBox(DesktopSession.screenshot("small-image-2-zoomed"))
            return box.width > 100
        }, "+ enlarges it: \(box)")
        let shot = DesktopSession.screenshot("small-image-2-zoomed")
        box = Self.pictureBox(shot)
        XCTAssertEqual(Self.blendedPixels(shot, in: box), 0, "no pixel of \(box) is smoothed between blue and red")

        DesktopSession.key("0")
        XCTAssertTrue(eventually(timeout: 60) {
            box = Self.pictureBox(DesktopSession.screenshot("small-image-3-fitted"))
            return box.width == 64 && box.height == 64
        }, "0 shows it at its own size again: \(box)")
    }

    struct PictureBox: CustomStringConvertible {
        let width: Int, height: Int, x: Int, y: Int
        var description: String { "\(width)×\(height) at \(x),\(y)" }
    }

    /// Where the screenshot's pure red and blue pixels are (ImageMagick's trim box).
    static func pictureBox(_ shot: URL) -> PictureBox {
        let text = DesktopSession.run(["/usr/bin/convert", shot.path, "-fill", "red", "-opaque", "blue", "-fill", "black",
                                       "+opaque", "red", "-format", "%@", "info:"])
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count == 4 ? PictureBox(width: numbers[0], height: numbers[1], x: numbers[2], y: numbers[3])
            : PictureBox(width: 0, height: 0, x: 0, y: 0)
    }

    /// How many pixels of `box` in the screenshot are neither pure red nor pure blue.
    static func blendedPixels(_ shot: URL, in box: PictureBox) -> Int {
        let text = DesktopSession.run(["/usr/bin/convert", shot.path, "-crop", "\(box.width)x\(box.height)+\(box.x)+\(box.y)",
                                       "+repage", "-fill", "black", "-opaque", "red", "-opaque", "blue", "-fill", "white",
                                       "+opaque", "black", "-format", "%[fx:round(mean*w*h)]", "info:"])
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func testThePageSidebarScrollsToAPage() throws {
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", samples.appendingPathComponent("document.pdf").path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 3 thumbnail"), "the sidebar shows a picture of each page")
        // Where they rest once laid out.
        let before = try XCTUnwrap(DesktopSession.steadyCentre(of: "Page 3", inApp: "dossier"), "page 3 is on screen")
        let thumbnail = try XCTUnwrap(DesktopSession.steadyCentre(of: "Page 3 thumbnail", inApp: "dossier"), "its thumbnail too")
        DesktopSession.screenshot("pdf-sidebar")
        DesktopSession.click(x: thumbnail.x, y: thumbnail.y)
        var after = before
        XCTAssertTrue(eventually(timeout: 60) {
            after = DesktopSession.centre(of: "Page 3", inApp: "dossier") ?? before
            return after.y < before.y - 200
        }, "page 3 scrolled up into view (\(before.y) → \(after.y))")
        DesktopSession.screenshot("pdf-page-3")
    }

    /// The previewer's process never loads poppler: a PDF's pages, its text and its links come
    /// from the PDF worker (the process that shows, selected and scrolled, maps no libpoppler).
    func testAPDFIsShownWithoutPopplerInThePreviewersProcess() throws {
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", samples.appendingPathComponent("document.pdf").path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 1"))
        let page = try XCTUnwrap(DesktopSession.steadyFrame(of: "Page 1", inApp: "dossier"), "the page rests on screen")
        DesktopSession.drag(from: (page.x + page.width / 20, page.y + page.height / 20),
                            to: (page.x + page.width * 19 / 20, page.y + page.height / 3))
        DesktopSession.screenshot("pdf-worker-selection")
        var libraries = ""
        if let maps = fopen("/proc/\(app.processIdentifier)/maps", "r") {
            defer { fclose(maps) }
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            defer { free(line) }
            while getline(&line, &capacity, maps) > 0, let line { libraries += String(cString: line) }
        }
        XCTAssertTrue(libraries.contains("libgtk-4"), "the previewer's maps were read")
        XCTAssertFalse(libraries.contains("libpoppler"), "poppler is mapped into the previewer's process")
    }

    func testDraggingOverAPDFPageSelectsItsTextAndCtrlCCopiesIt() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip"), "xclip reads the clipboard for this test")
        let app = try DesktopSession.launch([CommandRunner.binary, "preview", samples.appendingPathComponent("document.pdf").path])
        defer { app.terminate() }
        XCTAssertTrue(DesktopSession.waitForAccessible("Page 1"))
        let page = try XCTUnwrap(DesktopSession.steadyFrame(of: "Page 1", inApp: "dossier"), "the page rests on screen")
        // Over the heading and the first paragraph: the top third of the page, most of its width.
        DesktopSession.drag(from: (page.x + page.width / 20, page.y + page.height / 20),
                            to: (page.x + page.width * 19 / 20, page.y + page.height / 3))
        DesktopSession.screenshot("pdf-selection")
        DesktopSession.key("ctrl+c")
        var copied = ""
        XCTAssertTrue(eventually(timeout: 60) {
            copied = DesktopSession.run(["/usr/bin/xclip", "-o", "-selection", "clipboard"])
            return copied.contains("Dossier Sample Document")
        }, "Ctrl+C copied the selected text: \(copied)")
        XCTAssertFalse(copied.contains("example web site"), "text outside the dragged area is not selected: \(copied)")
    }
}
