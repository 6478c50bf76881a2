import CSandbox
import DecoderWire
import Foundation

/// Decoders that misbehave on purpose, in the test decoder only (the containment tests): each
/// does what a hostile file could make a buggy decoder do, and the confinement must hold. A test
/// asks for one with a `.misbehave` request, or with a file that names it.
enum Misbehaviours {
    /// The marker in a test file's first 512 bytes (after a real format's signature, so that the
    /// previewer takes it for that format), followed by a misbehaviour's name (`test.crash`), its
    /// options as `key=value` words (`test.connect port=4242`) and a newline: the test decoder
    /// then does that instead of decoding the file. `DossierFixtures.misbehaviourMarker` is the same.
    static let marker = "DOSSIER-TEST-MISBEHAVIOUR "

    /// Answers a misbehaviour asked for, or named by the file of a picture, media or thumbnail
    /// picture request; nil leaves the request to the decoders.
    @Sendable
    static func intercept(_ request: DecoderRequest, _ input: FileDescriptor) -> DecoderReply? {
        switch request {
        case .misbehave(let misbehaviour):
            return perform(misbehaviour) ?? DecoderReply(error: "no misbehaviour \(misbehaviour.name)")
        case .image, .media, .thumbnailPicture:
            return performNamed(in: input.rawValue)
        default:
            return nil
        }
    }

    /// The misbehaviour a file open at `input` names, with its options, if it is such a test file.
    static func misbehaviour(namedIn input: Int32) -> Misbehaviour? {
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
        return Misbehaviour(name: String(name), options: options)
    }

    /// The reply of the misbehaviour a test file open at `input` names, if it is one.
    static func performNamed(in input: Int32) -> DecoderReply? {
        guard let misbehaviour = misbehaviour(namedIn: input) else { return nil }
        return perform(misbehaviour) ?? DecoderReply(error: "no misbehaviour \(misbehaviour.name)")
    }

    static func perform(_ misbehaviour: Misbehaviour) -> DecoderReply? {
        let options = misbehaviour.options
        switch misbehaviour.name {
        case "test.crash":
            crash()
            return DecoderReply(error: "did not crash")
        case "test.loop":
            var counter = 0
            while true { counter &+= 1; if counter == -1 { break } }
            return DecoderReply(error: "left the loop")
        case "test.allocate":
            var blocks: [UnsafeMutableRawPointer] = []
            while true {
                guard let block = malloc(16 << 20) else { break }
                memset(block, 1, 16 << 20)
                blocks.append(block)
            }
            // Out of address space: a real decoder would now write through the null pointer.
            crash()
            return DecoderReply(error: "allocated \(blocks.count) blocks")
        case "test.connect":
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return DecoderReply(values: ["denied": "socket", "errno": String(errno)]) }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(options["port"] ?? "0")!).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return result == 0 ? DecoderReply(values: ["connected": "1"]) : DecoderReply(values: ["denied": "connect", "errno": String(errno)])
        case "test.write":
            let fd = open(options["path"] ?? "/nonexistent", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { return DecoderReply(values: ["denied": "open", "errno": String(errno)]) }
            defer { close(fd) }
            let written = write(fd, "planted", 7)
            return DecoderReply(values: ["written": String(written)])
        case "test.exec":
            let marker = options["path"] ?? "/nonexistent"
            let words: [String] = ["/bin/sh", "-c", "echo planted > '\(marker)'"]
            let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { arguments.forEach { free($0) } }
            execv("/bin/sh", arguments)
            return DecoderReply(values: ["denied": "execve", "errno": String(errno)])
        default:
            return nil
        }
    }

    /// Writes through a pointer to nowhere, as a decoder with a memory bug would: SIGSEGV.
    private static func crash() {
        let nowhere = UnsafeMutablePointer<Int32>(bitPattern: 16)!
        nowhere.pointee = 1
    }
}
