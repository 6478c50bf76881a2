import CGLib
import Foundation
import GObjectSupport

/// How Dossier runs helper programs that read untrusted files (thumbnailers, previewers,
/// converters), as GNOME runs thumbnailers: under bubblewrap when it is installed — no network,
/// no capabilities (even when Dossier runs as root), nothing of the system but /usr and a few
/// files read-only, the input read-only at a fixed path, only a private output folder and /tmp
/// writable, dying with its parent.
package enum Sandbox {
    /// True when bubblewrap is installed; without it helpers run unconfined (but still timed).
    package static var isAvailable: Bool { takeString(g_find_program_in_path("bwrap")) != nil }

    /// Where the input and output appear to the helper.
    package struct Paths: Sendable {
        /// The input file's path as the helper sees it.
        package let input: String
        /// The output file's path as the helper sees it.
        package let output: String
    }

    /// The descriptor a helper inherits its input on (`SandboxedProcess(arguments:input:)`).
    package static let inputDescriptor: Int32 = 3

    /// The paths the helper sees for `input` and the private `outputFolder`. Under bubblewrap
    /// the input is at a fixed name with the input's extension, a compressed one whole
    /// (`.pdf.gz`: thumbnailers tell a document by it). Unconfined, the helper is given the real
    /// path; for a name that is not UTF-8, which an argument cannot carry, the descriptor it
    /// inherits (`/proc/self/fd/3`).
    package static func paths(input: FileSystemPath, outputFolder: String, outputName: String) -> Paths {
        guard isAvailable else {
            return Paths(input: input.string ?? "/proc/self/fd/\(inputDescriptor)", output: outputFolder + "/" + outputName)
        }
        let ext = inputExtension(of: input.nameForMatching)
        return Paths(input: "/tmp/dossier-input" + (ext.isEmpty ? "" : "." + ext), output: "/tmp/dossier-output/" + outputName)
    }

    /// The extension a helper is shown: the last one, or a document's with its compression's
    /// (`pdf.gz`, `tar.xz`).
    package static func inputExtension(of name: String) -> String {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).dropFirst()
        guard let last = parts.last, !last.isEmpty else { return "" }
        guard parts.count >= 2, FileName.compressionExtensions.contains(last.lowercased()) else { return String(last) }
        let inner = parts[parts.index(before: parts.endIndex - 1)]
        guard (1...8).contains(inner.count), inner.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return String(last)
        }
        return inner + "." + last
    }

    /// The full command: `command` wrapped in bubblewrap when it is available.
    /// `readOnly` names more system folders the helper needs (LibreOffice its /etc/libreoffice).
    /// A helper named by an absolute path outside /usr (an app run from its build folder, as
    /// `meson devenv` runs them) also sees its own folder and the Swift runtime's, read-only.
    /// The input is the descriptor the helper inherits (`inputDescriptor`), bound read-only at
    /// `paths.input`: the file that was opened, whatever its name's bytes.
    package static func wrap(_ command: [String], outputFolder: String, paths: Paths,
                            readOnly: [String] = []) -> [String] {
        guard isAvailable else { return command }
        // The program's folders after /tmp's tmpfs, which would hide one under /tmp.
        let programFolders = (command.first.map(programFolders(outside:)) ?? []).flatMap { ["--ro-bind-try", $0, $0] }
        return ["bwrap"] + readOnly.flatMap { ["--ro-bind-try", $0, $0] } + [
                "--ro-bind", "/usr", "/usr",
                "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
                "--ro-bind-try", "/etc/alternatives", "/etc/alternatives",
                "--ro-bind-try", "/etc/fonts", "/etc/fonts",
                "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
                "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
                "--ro-bind-fd", String(inputDescriptor), paths.input,
                "--bind", outputFolder, "/tmp/dossier-output"] + programFolders + [
                "--chdir", "/", "--setenv", "GIO_USE_VFS", "local", "--setenv", "HOME", "/tmp",
                "--setenv", "TMPDIR", "/tmp",
                // Run as root (CI, tests), bubblewrap keeps every capability inside unless told;
                // and its own root folder is a writable tmpfs until remounted (last: after the binds).
                "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                "--remount-ro", "/", "--"] + command
    }

    /// For a program at an absolute path outside /usr: its folder, and the folder of the Swift
    /// runtime this process runs on (a Swift helper built by the same toolchain needs it). Never
    /// the home folder or a folder above it: a program lying in the home folder itself runs
    /// without it (it fails to start) rather than show the user's files to a hostile input.
    static func programFolders(outside program: String) -> [String] {
        let home = URL(fileURLWithPath: NSHomeDirectory()).standardizedFileURL.path
        guard program.hasPrefix("/"), !program.hasPrefix("/usr/") else { return [] }
        // The folder as the command names it (bubblewrap follows links in the source, not in the target).
        var folders = [URL(fileURLWithPath: program).deletingLastPathComponent().path]
        if let runtime = DecoderWorker.mappedLibrary(prefix: "libswiftCore.so") {
            folders.append((runtime as NSString).deletingLastPathComponent)
        }
        return folders.filter { folder in
            !folder.hasPrefix("/usr/") && folder != "/" && folder != home && !home.hasPrefix(folder + "/")
        }
    }

    /// Expands the field codes of a helper's `Exec` line: `%i` input path, `%u` its URI,
    /// `%o` output path, `%s` size, `%%` a percent sign.
    package static func expand(_ exec: String, input: String, uri: String, output: String, size: Int) -> [String]? {
        var argc: Int32 = 0
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        guard g_shell_parse_argv(exec, &argc, &argv, nil) != 0 else { return nil }
        return takeStringArray(argv).map { argument in
            var result = ""
            var characters = argument.makeIterator()
            while let character = characters.next() {
                guard character == "%", let code = characters.next() else {
                    result.append(character)
                    continue
                }
                switch code {
                case "i": result += input
                case "u": result += uri
                case "o": result += output
                case "s": result += String(size)
                case "%": result += "%"
                default: break
                }
            }
            return result
        }
    }
}
