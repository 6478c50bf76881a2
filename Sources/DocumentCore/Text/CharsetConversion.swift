import CGLib
import Foundation

/// Bytes in a charset to a String, through GLib's iconv (`g_iconv`). It goes piece by piece
/// rather than through `g_convert`, which gives up at the first invalid byte: text re-opened in
/// a wrong encoding still shows, with U+FFFD where a byte means nothing.
enum CharsetConversion {
    enum Failure: Error { case unknownCharset, invalidBytes }

    /// `bytes` in `encoding`. An incomplete character at the very end (the bytes may be the
    /// start of a file) is dropped, or fails the conversion when not `allowingCutEnd`. Bytes
    /// that do not decode become U+FFFD, or fail the whole conversion when `strict`.
    static func decode(_ bytes: UnsafeRawBufferPointer, as encoding: TextEncoding, strict: Bool,
                       allowingCutEnd: Bool) throws(Failure) -> String {
        if encoding == .windows1252 { return decodeWindows1252(bytes) }
        guard let converter = g_iconv_open("UTF-8", encoding.converterName), converter != OpaquePointer(bitPattern: -1) else {
            throw .unknownCharset
        }
        defer { g_iconv_close(converter) }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return "" }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 3 / 2)
        var input: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self))
        var inputLeft = bytes.count
        var chunk = [CChar](repeating: 0, count: 16 << 10)
        while inputLeft > 0 {
            let (result, failure, produced) = chunk.withUnsafeMutableBufferPointer { buffer in
                var out = buffer.baseAddress
                var outLeft = buffer.count
                let result = g_iconv(converter, &input, &inputLeft, &out, &outLeft)
                return (result, errno, buffer.count - outLeft)
            }
            chunk.withUnsafeBufferPointer { buffer in
                output.append(contentsOf: UnsafeRawBufferPointer(start: buffer.baseAddress, count: produced))
            }
            guard result == gsize.max else { continue }
            switch failure {
            case E2BIG:
                continue  // the chunk is full: another one
            case EILSEQ:
                if strict { throw .invalidBytes }
                output.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
                let skipped = min(encoding.codeUnitSize, inputLeft)
                input = input.map { $0 + skipped }
                inputLeft -= skipped
            default:
                if !allowingCutEnd { throw .invalidBytes }
                inputLeft = 0  // EINVAL: a character cut off at the end
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Windows-1252 as the WHATWG Encoding Standard reads it: every byte decodes (the five
    /// unassigned ones to the C1 controls of the same value, where glibc's iconv would fail),
    /// which makes it the last resort for bytes nothing else reads.
    static func decodeWindows1252(_ bytes: UnsafeRawBufferPointer) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            let value = byte <= 0x9F ? windows1252High[Int(byte) - 0x80] : UInt32(byte)
            // UTF-8 of U+0080…U+FFFF: two bytes below U+0800, three from there.
            if value < 0x800 {
                output.append(contentsOf: [UInt8(0xC0 | value >> 6), UInt8(0x80 | value & 0x3F)])
            } else {
                output.append(contentsOf: [UInt8(0xE0 | value >> 12), UInt8(0x80 | value >> 6 & 0x3F), UInt8(0x80 | value & 0x3F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// 0x80–0x9F in Windows-1252; the rest of the code page is ISO-8859-1.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
