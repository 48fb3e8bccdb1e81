import Foundation

/// A sound file for the tests that play one: a 16-bit mono PCM WAV of a 440 Hz sine, written byte by
/// byte (the RIFF header, then the samples), so no recording is needed.
public enum TestTone {
    /// `seconds` of the tone at `rate` samples a second.
    public static func wav(seconds: Double, rate: Int = 8_000) -> Data {
        let count = Int(Double(rate) * seconds)
        var data = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        append(UInt32(36 + count * 2))
        data += Data("WAVEfmt ".utf8)
        append(UInt32(16))  // the fmt chunk's size
        append(UInt16(1))  // PCM
        append(UInt16(1))  // mono
        append(UInt32(rate))
        append(UInt32(rate * 2))  // bytes per second
        append(UInt16(2))  // bytes per frame
        append(UInt16(16))  // bits per sample
        data += Data("data".utf8)
        append(UInt32(count * 2))
        for index in 0..<count {
            append(Int16(8_000 * sin(2 * Double.pi * 440 * Double(index) / Double(rate))))
        }
        return data
    }
}
