extension ServerAPI {
    /// Name–value pairs, each name once: a request's query arguments and header fields, a response's
    /// header fields. Used as a `[String: String]` is — written as a dictionary literal, read and set
    /// by name with a subscript, iterated as `(key:, value:)` pairs — and equal when they hold the same
    /// pairs in any order.
    ///
    /// The pairs are kept in the order they were first set and found by comparing names, which for
    /// the handful a request or response carries costs less than a hash table: no name is hashed and
    /// no table is made for each request and each response. Names are compared exactly; a request's
    /// header names are in lower case (``Request/header(_:)`` finds any case).
    ///
    /// ```swift
    /// var headers: ServerAPI.Fields = ["Content-Type": "application/json"]
    /// headers["Cache-Control"] = "no-store"
    /// for (name, value) in headers { print("\(name): \(value)") }
    /// ```
    public struct Fields: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
        /// One pair. A struct rather than a tuple: an array of tuples copies and destroys its elements
        /// through the runtime's generic tuple witnesses.
        @usableFromInline
        struct Pair: Sendable {
            @usableFromInline var name: String
            @usableFromInline var value: String

            @inlinable
            init(_ name: String, _ value: String) {
                self.name = name
                self.value = value
            }
        }

        /// The pairs, each name once, in the order their names were first set.
        @usableFromInline var pairs: [Pair]

        /// No pairs.
        @inlinable
        public init() {
            pairs = []
        }

        /// No pairs yet, with room for `capacity` of them.
        @inlinable
        public init(minimumCapacity capacity: Int) {
            pairs = []
            pairs.reserveCapacity(capacity)
        }

        /// The pairs of a dictionary, in the order it iterates them.
        public init(_ dictionary: [String: String]) {
            pairs = dictionary.map { Pair($0.key, $0.value) }
        }

        /// The pairs of a literal; a name written twice keeps its last value.
        public init(dictionaryLiteral elements: (String, String)...) {
            pairs = []
            pairs.reserveCapacity(elements.count)
            for (name, value) in elements { self[name] = value }
        }

        /// Adds a pair whose name the caller knows is not among these (a server reading a request it
        /// has checked, a route writing its fields): no name is compared.
        @inlinable
        package mutating func appendNew(_ name: String, _ value: String) {
            pairs.append(Pair(name, value))
        }

        /// Where the pair named `name` is in the pairs' order, or `nil`.
        package func position(of name: String) -> Int? {
            pairs.firstIndex { $0.name == name }
        }

        /// The value of the pair at `position` in the pairs' order.
        package subscript(position position: Int) -> String {
            get { pairs[position].value }
            set { pairs[position].value = newValue }
        }

        /// The value named `name` (compared exactly), or `nil`; setting `nil` removes the pair, and
        /// setting a new name adds it after the others.
        @inlinable
        public subscript(name: String) -> String? {
            get {
                for pair in pairs where pair.name == name { return pair.value }
                return nil
            }
            set {
                if let index = pairs.firstIndex(where: { $0.name == name }) {
                    if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
                } else if let newValue {
                    pairs.append(Pair(name, newValue))
                }
            }
        }

        /// The number of pairs.
        @inlinable public var count: Int { pairs.count }

        /// Whether there are no pairs.
        @inlinable public var isEmpty: Bool { pairs.isEmpty }

        /// The names, in the pairs' order.
        public var keys: [String] { pairs.map(\.name) }

        /// The pairs as a dictionary.
        public var dictionary: [String: String] {
            Dictionary(pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        }

        /// Removes the pair named `name`; its value, or `nil` when there was none.
        @discardableResult
        public mutating func removeValue(forKey name: String) -> String? {
            guard let index = pairs.firstIndex(where: { $0.name == name }) else { return nil }
            return pairs.remove(at: index).value
        }

        /// These pairs with `other`'s added; for a name in both, `combine` chooses the value.
        public func merging(_ other: Fields, uniquingKeysWith combine: (String, String) -> String) -> Fields {
            var merged = self
            for (name, value) in other { merged[name] = merged[name].map { combine($0, value) } ?? value }
            return merged
        }

        /// The pairs in order, as `(key:, value:)`, as a dictionary's.
        @inlinable
        public func makeIterator() -> Iterator {
            Iterator(pairs: pairs.makeIterator())
        }

        /// Goes through the pairs in order.
        public struct Iterator: IteratorProtocol {
            @usableFromInline var pairs: IndexingIterator<[Pair]>

            @inlinable
            init(pairs: IndexingIterator<[Pair]>) {
                self.pairs = pairs
            }

            /// The next pair, or `nil` after the last.
            @inlinable
            public mutating func next() -> (key: String, value: String)? {
                pairs.next().map { (key: $0.name, value: $0.value) }
            }
        }

        /// The pairs as a dictionary would print them: `["Content-Type": "text/plain"]`.
        public var description: String {
            pairs.isEmpty
                ? "[:]"
                : "["
                    + pairs.map { "\(String(reflecting: $0.name)): \(String(reflecting: $0.value))" }
                    .joined(separator: ", ") + "]"
        }

        /// The same pairs, in any order.
        public static func == (lhs: Fields, rhs: Fields) -> Bool {
            lhs.pairs.count == rhs.pairs.count && lhs.pairs.allSatisfy { rhs[$0.name] == $0.value }
        }

        /// Hashes the pairs independently of their order.
        public func hash(into hasher: inout Hasher) {
            var sum = 0
            for pair in pairs {
                var pairHasher = Hasher()
                pairHasher.combine(pair.name)
                pairHasher.combine(pair.value)
                sum &+= pairHasher.finalize()
            }
            hasher.combine(pairs.count)
            hasher.combine(sum)
        }
    }
}
