/// Member paths to pick out of each element of a streamed array (see
/// ``JSONValue/parse(_:streamingArraysAt:picking:into:minimumBytesForParts:add:)``): the values at
/// those paths are made, every other member is checked as JSON (its syntax errors still throw) and
/// dropped, and no object on the way is made into a dictionary. On a million wide entries this
/// saves most of the work of making them into ``JSONValue``s.
///
/// ```swift
/// let picks = JSONPicks([["type"], ["geometry", "coordinates"], ["properties"], ["properties", "title"]])
/// // From {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2, 48]}, "properties": {"title": "Pont"}}:
/// // picked[0] == .string("Feature"), picked[1] == .array([.number(2), .number(48)]),
/// // picked[2] == .object([:]) (an object: its picked members are at the longer paths),
/// // picked[3] == .string("Pont")
/// ```
///
/// A path's value is `nil` when a member along it is missing or is not an object. A path that
/// leads on to longer paths has an empty object as its value when it is an object, else the
/// value itself. Of duplicate members, the first is picked, as ``JSONValue/parse(_:)`` keeps the first.
public struct JSONPicks: Sendable {
    /// The paths, as given: member names from the element down.
    public let paths: [[String]]
    /// The paths as a tree of member names, flat: node 0 is the element itself, and a node's
    /// number is also where its value goes among the picked values.
    let nodes: [Node]
    /// The nodes' names as UTF-8, one after another.
    let keyBytes: [UInt8]
    /// Per path, its node.
    let slots: [Int]
    /// A small hash table of each node's children by their name's length and first byte:
    /// ``lookupSlots`` entries per node, each the first child in that slot plus one (0: none);
    /// a key is compared with the children in its slot only, so the members an element has
    /// but nobody picks are mostly turned away after one comparison.
    let lookup: [Int32]
    /// Per node, the next child of its parent in the same lookup slot, plus one (0: none).
    let nextInSlot: [Int32]

    /// The lookup table's slots per node.
    static let lookupSlots = 64

    /// The lookup slot of a name of `count` bytes whose first byte is `first` (0 when empty).
    @inline(__always)
    static func lookupSlot(count: Int, first: UInt8) -> Int {
        (count &+ Int(first) &* 7) & (lookupSlots - 1)
    }

    /// A member name on the way down, with the names below it.
    struct Node: Sendable {
        /// Where the name is in `keyBytes`.
        let name: Range<Int>
        /// The nodes of the names below it.
        let children: [Int]
    }

    /// Picks the values at `paths` (member names from the element down, each path not empty).
    public init(_ paths: [[String]]) {
        precondition(paths.allSatisfy { !$0.isEmpty }, "JSONPicks paths name at least one member")
        self.paths = paths
        var names: [(name: String, children: [Int])] = [("", [])]
        var pathSlots: [Int] = []
        for path in paths {
            var node = 0
            for name in path {
                if let child = names[node].children.first(where: { names[$0].name == name }) {
                    node = child
                } else {
                    names.append((name, []))
                    names[node].children.append(names.count - 1)
                    node = names.count - 1
                }
            }
            pathSlots.append(node)
        }
        var keyBytes: [UInt8] = []
        nodes = names.map { name, children in
            let start = keyBytes.count
            keyBytes += Array(name.utf8)
            return Node(name: start..<keyBytes.count, children: children)
        }
        self.keyBytes = keyBytes
        slots = pathSlots
        var lookup = [Int32](repeating: 0, count: names.count * Self.lookupSlots)
        var nextInSlot = [Int32](repeating: 0, count: names.count)
        for (parent, node) in nodes.enumerated() {
            // Children in reverse, so that each slot's chain is in the paths' order.
            for child in node.children.reversed() {
                let name = nodes[child].name
                let slot =
                    parent * Self.lookupSlots
                    + Self.lookupSlot(count: name.count, first: name.isEmpty ? 0 : keyBytes[name.lowerBound])
                nextInSlot[child] = lookup[slot]
                lookup[slot] = Int32(child + 1)
            }
        }
        self.lookup = lookup
        self.nextInSlot = nextInSlot
    }
}

/// What ``JSONPicks`` picked from one element: the element's kind and the values at its paths.
public struct JSONPicked: Sendable {
    /// The element itself when it is not an object; an empty object when it is (its members are
    /// at the picked paths).
    public let element: JSONValue
    /// Per node of the picks' tree, its value.
    let values: [JSONValue?]
    /// Per path, its node.
    let slots: [Int]

    init(element: JSONValue, values: [JSONValue?], slots: [Int]) {
        self.element = element
        self.values = values
        self.slots = slots
    }

    /// The value at the picks' path `path` (an index into ``JSONPicks/paths``); `nil` when a
    /// member along it is missing or not an object.
    public subscript(path: Int) -> JSONValue? { values[slots[path]] }
}
