import CFuzzing
import DocumentCore
import Foundation

extension FuzzTarget {
    /// A desktop entry as Open With reads one (GIO's GDesktopAppInfo, then `Application`).
    /// GIO turns down an entry whose Exec or TryExec program is not on PATH, so the programs
    /// the seeds name are put there (as `true`), or no input would get past GIO.
    static let desktopEntry = FuzzTarget("desktop-entry", "desktop entries (ApplicationRegistry.application(desktopFile:))",
                                         prepare: prepareSeedPrograms) { data in
        let path = ScratchFolder.write(data, to: "desktop-entry/input.desktop").path
        guard let application = ApplicationRegistry().application(desktopFile: path) else { return }
        expect(!application.iconNames.isEmpty, "an application has no icon name, not even the fallback")
    }

    /// `mimeapps.list` as Open With reads it: GIO reads the user's config folder once per
    /// process, so each input goes into a config folder of its own (alternately two), among
    /// a few installed applications in a private data folder. The types asked for are a
    /// few common ones and those the input names as keys.
    static let mimeApps = FuzzTarget("mimeapps", "mimeapps.list (ApplicationRegistry.applications(for:))",
                                     prepare: prepareApplications) { data in
        MimeAppsRound.next.toggle()
        let list = ScratchFolder.write(data, to: "mimeapps/\(MimeAppsRound.next ? "config-a" : "config-b")/mimeapps.list")
        dossier_fuzz_set_user_dir("XDG_CONFIG_HOME", list.deletingLastPathComponent().path)
        let registry = ApplicationRegistry()
        let named = String(decoding: data.prefix(4096), as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            line.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { $0.contains("/") }.prefix(8)
        for type in ["text/plain", "text/markdown", "image/png", "application/pdf"] + named {
            _ = registry.applications(for: DocumentType(mimeType: type))
        }
        _ = registry.allApplications()
    }

    private static func prepareSeedPrograms() {
        let bin = ScratchFolder.folder("desktop-entry/bin")
        for program in ["dossier", "viewer"] {
            symlink("/bin/true", bin.appendingPathComponent(program).path)
        }
        setenv("PATH", bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), 1)
    }

    private static func prepareApplications() {
        let data = ScratchFolder.folder("mimeapps/data")
        let entries = [
            "editor": "Name=Editor\nExec=true %F\nMimeType=text/plain;text/markdown;\n",
            "viewer": "Name=Viewer\nExec=true %U\nMimeType=image/png;image/jpeg;application/pdf;\n",
            "hidden": "Name=Hidden\nExec=true %f\nNoDisplay=true\nMimeType=text/plain;\n",
        ]
        for (name, body) in entries {
            ScratchFolder.write(Data("[Desktop Entry]\nType=Application\n\(body)".utf8), to: "mimeapps/data/applications/\(name).desktop")
        }
        dossier_fuzz_set_user_dir("XDG_DATA_HOME", ScratchFolder.folder("mimeapps/data-home").path)
        dossier_fuzz_set_user_dir("XDG_DATA_DIRS", data.path)
        dossier_fuzz_set_user_dir("XDG_CONFIG_DIRS", ScratchFolder.folder("mimeapps/config-dirs").path)
    }
}

/// Which of the two config folders the next input goes into.
private enum MimeAppsRound {
    nonisolated(unsafe) static var next = false
}
