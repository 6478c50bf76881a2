import Foundation

/// Processes of this machine by their parents, read from /proc: for the tests that end a
/// decoder worker from outside (as the kernel's OOM killer would), bubblewrap and all.
public enum ProcessTree {
    /// Kills `root` and every process under it with SIGKILL, the deepest first (the worker
    /// itself, then bubblewrap's processes above it), so that the worker is gone at once rather
    /// than when bubblewrap's death reaches it.
    public static func kill(_ root: pid_t) {
        for pid in tree(under: root).reversed() { Foundation.kill(pid, SIGKILL) }
    }

    /// `root` and the processes under it, parents before their children.
    public static func tree(under root: pid_t) -> [pid_t] {
        let parents = parentsByProcess()
        func depth(_ pid: pid_t) -> Int? {
            var current = pid, steps = 0
            while current != root {
                guard let parent = parents[current], parent > 1, steps < 16 else { return nil }
                current = parent
                steps += 1
            }
            return steps
        }
        let under = parents.keys.compactMap { pid in depth(pid).map { (pid: pid, depth: $0) } }
        return [root] + under.filter { $0.pid != root }.sorted { $0.depth < $1.depth }.map(\.pid)
    }

    /// The decoder workers (`dossier-decoder`) under this process: under bubblewrap, its
    /// grandchildren.
    public static func decoderWorkers() -> Set<pid_t> {
        Set(tree(under: getpid()).filter { pid in
            let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
            return name?.trimmingCharacters(in: .whitespacesAndNewlines) == "dossier-decoder"
        })
    }

    /// The files process `pid` has open, by the paths /proc gives them; empty when they cannot
    /// be read.
    public static func openFiles(of pid: pid_t) -> [String] {
        let folder = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)
        }
    }

    private static func parentsByProcess() -> [pid_t: pid_t] {
        var parents: [pid_t: pid_t] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(name), let status = fopen("/proc/\(name)/status", "r") else { continue }
            defer { fclose(status) }
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            defer { free(line) }
            while getline(&line, &capacity, status) > 0, let line {
                let text = String(cString: line)
                if text.hasPrefix("PPid:"), let parent = pid_t(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) {
                    parents[pid] = parent
                    break
                }
            }
        }
        return parents
    }
}
