import Foundation

extension OtherProgram {
    /// Runs `arguments` (a program and its arguments) to its end through popen(3) and returns
    /// what it printed on standard output (nothing when it could not run; standard error is
    /// dropped). For tests in a process where GLib or GVFS has run: Foundation's `Process`
    /// lost its children's exits there (xdotool and ImageMagick's import stayed zombies, the
    /// test hung), and pclose(3) waits for this one child itself.
    @discardableResult
    public static func output(of arguments: [String]) -> String {
        guard let pipe = popen(shellWords(arguments) + " 2>/dev/null", "r") else { return "" }
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

    /// Starts `arguments` in the background (its output dropped), as `output(of:)` runs a
    /// program, and returns its process id; nil when it could not start.
    public static func start(_ arguments: [String]) -> pid_t? {
        let pid = output(of: ["/bin/sh", "-c", shellWords(arguments) + " >/dev/null 2>&1 & echo $!"])
        return pid_t(pid.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The words of a command line, each quoted for /bin/sh.
    private static func shellWords(_ arguments: [String]) -> String {
        arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }
}
