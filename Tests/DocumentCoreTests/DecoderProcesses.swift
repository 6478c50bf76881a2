import Foundation

/// The `dossier-decoder` processes descended from this one (under bubblewrap, grandchildren).
func decoderProcesses() -> Set<pid_t> {
    var parents: [pid_t: pid_t] = [:]
    var decoders: [pid_t] = []
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = pid_t(name), let status = fopen("/proc/\(name)/status", "r") else { continue }
        defer { fclose(status) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, status) > 0, let line {
            let text = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("Name:"), text.hasSuffix("dossier-decode") || text.hasSuffix("dossier-decoder") { decoders.append(pid) }
            if text.hasPrefix("PPid:"), let parent = pid_t(text.dropFirst(5).trimmingCharacters(in: .whitespaces)) { parents[pid] = parent }
        }
    }
    let me = getpid()
    return Set(decoders.filter { pid in
        var current = pid
        for _ in 0..<8 {
            guard let parent = parents[current], parent > 1 else { return false }
            if parent == me { return true }
            current = parent
        }
        return false
    })
}
