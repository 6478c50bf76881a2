import Foundation

/// Animated GIFs written by the tests: frames of one colour from a palette of black, red,
/// green and blue, each frame's LZW data kept uncompressed (a clear code every two pixels keeps
/// codes 3 bits wide).
public enum AnimatedGIF {
    /// A GIF of `frames` (palette indices: 0 black, 1 red, 2 green, 3 blue), each shown for its
    /// delay in hundredths of a second, repeated `loops` times after the first play (0: for
    /// ever; nil: no NETSCAPE2.0 block).
    public static func make(width: Int, height: Int, frames: [UInt8], delays: [Int], loops: Int? = 0) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)] }
        var bytes = Array("GIF89a".utf8) + le16(width) + le16(height) + [0xf1, 0, 0]
        bytes += [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
        if let loops { bytes += [0x21, 0xff, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(loops) + [0] }
        for (index, colour) in frames.enumerated() {
            bytes += [0x21, 0xf9, 4, 0x04] + le16(delays[index]) + [0, 0]
            bytes += [0x2c] + le16(0) + le16(0) + le16(width) + le16(height) + [0]
            var codes: [Int] = []
            for pixel in 0..<width * height {
                if pixel % 2 == 0 { codes.append(4) }
                codes.append(Int(colour))
            }
            codes.append(5)
            var data: [UInt8] = []
            var buffer = 0, bits = 0
            for code in codes {
                buffer |= code << bits
                bits += 3
                while bits >= 8 {
                    data.append(UInt8(buffer & 0xff))
                    buffer >>= 8
                    bits -= 8
                }
            }
            if bits > 0 { data.append(UInt8(buffer & 0xff)) }
            bytes += [2]
            for start in stride(from: 0, to: data.count, by: 255) {
                let block = data[start..<min(start + 255, data.count)]
                bytes += [UInt8(block.count)] + block
            }
            bytes += [0]
        }
        return bytes + [0x3b]
    }
}
