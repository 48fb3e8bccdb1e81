/// Comparisons whose time does not depend on where two secrets differ, so that an attacker who
/// measures answers learns nothing about a stored hash byte by byte.
package enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes. The time depends only on the lengths: every byte
    /// is compared, the differences are gathered with OR, and nothing branches on their values.
    package static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        var difference = UInt64(truncatingIfNeeded: lhs.count ^ rhs.count)
        for (left, right) in zip(lhs, rhs) {
            difference |= UInt64(left ^ right)
        }
        return difference == 0
    }

    /// Whether two texts hold the same UTF-8 bytes, compared as ``equals(_:_:)`` does.
    package static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }
}
