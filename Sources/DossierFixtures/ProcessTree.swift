import Foundation

/// Processes of this machine by their parents, read from /proc: for the tests that end a
/// decoder worker from outside (as the kernel's OOM killer would), bubblewrap and all.
public enum ProcessTree {
    /// Kills `root` and every process under it with SIGKILL, the deepest first (the worker
    /// itself, then bubblewrap's processes above it), so that the worker is gone at once rather
    /// than when bubblewrap's death reaches it.
    public static func kill(_ root: pid_t) {
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
        let tree = parents.keys.compactMap { pid in depth(pid).map { (pid: pid, depth: $0) } }
        for process in tree.sorted(by: { $0.depth > $1.depth }) { Foundation.kill(process.pid, SIGKILL) }
        if !tree.contains(where: { $0.pid == root }) { Foundation.kill(root, SIGKILL) }
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
