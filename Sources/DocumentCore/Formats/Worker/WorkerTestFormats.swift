import CSandbox
import Foundation

/// Decoders that misbehave on purpose, offered only by a worker started with --test-formats
/// (the containment tests): each does what a hostile file could make a buggy decoder do, and
/// the confinement must hold.
enum WorkerTestFormats {
    /// The marker a test file starts with (after at most 16 bytes of a real format's
    /// signature, so that the previewer takes it for that format), followed by an operation's
    /// name (`test.crash`), its options as `key=value` words (`test.connect port=4242`) and a
    /// newline: a worker with the test formats then does that instead of decoding the file.
    static let marker = "DOSSIER-TEST-MISBEHAVIOUR "

    /// The test operation a file open at `input` names, with its options, if it is such a test file.
    static func misbehaviour(namedIn input: Int32) -> WorkerRequest? {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = pread(input, &bytes, bytes.count, 0)
        guard count > 0, let text = String(bytes: bytes[..<count].filter { $0 < 0x80 }, encoding: .ascii),
              let range = text.range(of: marker) else { return nil }
        let words = text[range.upperBound...].prefix { $0 != "\n" }.split(separator: " ")
        guard let name = words.first, name.hasPrefix("test.") else { return nil }
        var options: [String: String] = [:]
        for word in words.dropFirst() {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { options[String(parts[0])] = String(parts[1]) }
        }
        return WorkerRequest(operation: String(name), options: options)
    }

    /// The reply of the misbehaviour a test file open at `input` names, if it is one.
    static func performNamed(in input: Int32) -> WorkerReply? {
        guard let request = misbehaviour(namedIn: input) else { return nil }
        return perform(request) ?? WorkerReply(error: "no misbehaviour \(request.operation)")
    }

    static func perform(_ request: WorkerRequest) -> WorkerReply? {
        let options = request.options
        switch request.operation {
        case "test.crash":
            dossier_worker_test_crash()
            return WorkerReply(error: "did not crash")
        case "test.loop":
            var counter = 0
            while true { counter &+= 1; if counter == -1 { break } }
            return WorkerReply(error: "left the loop")
        case "test.allocate":
            var blocks: [UnsafeMutableRawPointer] = []
            while true {
                guard let block = malloc(16 << 20) else { break }
                memset(block, 1, 16 << 20)
                blocks.append(block)
            }
            // Out of address space: a real decoder would now write through the null pointer.
            dossier_worker_test_crash()
            return WorkerReply(error: "allocated \(blocks.count) blocks")
        case "test.connect":
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return WorkerReply(values: ["denied": "socket", "errno": String(errno)]) }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(options["port"] ?? "0")!).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return result == 0 ? WorkerReply(values: ["connected": "1"]) : WorkerReply(values: ["denied": "connect", "errno": String(errno)])
        case "test.write":
            let fd = open(options["path"] ?? "/nonexistent", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { return WorkerReply(values: ["denied": "open", "errno": String(errno)]) }
            defer { close(fd) }
            let written = write(fd, "planted", 7)
            return WorkerReply(values: ["written": String(written)])
        case "test.exec":
            let marker = options["path"] ?? "/nonexistent"
            let words: [String] = ["/bin/sh", "-c", "echo planted > '\(marker)'"]
            let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { arguments.forEach { free($0) } }
            execv("/bin/sh", arguments)
            return WorkerReply(values: ["denied": "execve", "errno": String(errno)])
        default:
            return nil
        }
    }
}
