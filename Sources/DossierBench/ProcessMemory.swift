import Foundation

/// Resident memory of a process and of the processes it started (WebKit's web and network
/// processes, GStreamer's or a thumbnailer's helpers), read from /proc. Pages shared between
/// processes (libraries) count in each, as `ps` counts them.
enum ProcessMemory {
    /// Megabytes of `field` ("VmRSS:", "VmHWM:") of process `pid`; NaN when it is gone.
    static func megabytes(_ pid: pid_t, field: String = "VmRSS:") -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            return .nan
        }
        return kilobytes / 1024
    }

    /// Every living descendant of `pid`, with its command name.
    static func descendants(of pid: pid_t) -> [(pid: pid_t, name: String)] {
        var children: [pid_t: [(pid_t, String)]] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let process = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            // "pid (comm) state ppid …": the name may hold spaces and parentheses.
            let name = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
            children[parent, default: []].append((process, name))
        }
        var found: [(pid: pid_t, name: String)] = []
        var queue = [pid]
        while let next = queue.popLast() {
            for (child, name) in children[next] ?? [] {
                found.append((child, name))
                queue.append(child)
            }
        }
        return found
    }

    /// The resident megabytes of `pid` itself, and of all its descendants together (with their names).
    static func tree(_ pid: pid_t) -> (own: Double, children: Double, names: [String]) {
        let descendants = descendants(of: pid)
        let sizes = descendants.map { megabytes($0.pid) }.filter { !$0.isNaN }
        return (megabytes(pid), sizes.reduce(0, +), descendants.map(\.name))
    }
}
