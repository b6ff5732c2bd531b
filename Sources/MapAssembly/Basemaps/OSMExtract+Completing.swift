import Foundation
import MapUtilities

extension OSMExtract {
    /// What ``writeComplete(_:to:)`` changed: the ways that reached nodes the extract lacks.
    struct Completion: Hashable, Sendable {
        /// The extract's ways.
        var wayCount = 0
        /// The ways kept, cut to their longest part whose nodes the extract has.
        var shortenedWayCount = 0
        /// The ways left out: fewer than two of their nodes in a row (three for an area) are there.
        var droppedWayCount = 0

        /// Whether nothing was changed: every way's nodes are there.
        var isComplete: Bool { shortenedWayCount + droppedWayCount == 0 }

        /// One line for the build's warning: `the extract is not referentially complete (a cut by
        /// bounding box?): 1,234 of its 5,678 ways reach nodes outside it; 1,100 were cut at its
        /// edge (areas closed straight across) and 134 left out`.
        var warningLine: String {
            let reaching = shortenedWayCount + droppedWayCount
            return
                "the extract is not referentially complete (a cut by bounding box?): \(reaching.groupedText) of its \(wayCount.groupedText) ways reach nodes outside it; \(shortenedWayCount.groupedText) were cut at its edge (areas closed straight across) and \(droppedWayCount.groupedText) left out"
        }
    }

    /// Writes a copy of the extract `source` to `destination` in which every way's nodes are
    /// there, for tilemaker, which stops at a way naming a node the file lacks ("Could not find
    /// node with id ...": an extract cut by bounding box, as JOSM's and Overpass's exports and
    /// some packaged samples are; tilemaker 2.2's `--skip-integrity` does not cover ways' nodes).
    ///
    /// Blocks whose ways are all whole are copied byte for byte; the others are written again,
    /// with what the extract holds:
    ///
    /// - an open way that lost nodes keeps its longest run of nodes in a row that are there (its
    ///   part inside the box, for a way that crosses the edge once);
    /// - a closed way (an area) keeps its longest such run around the ring, closed again from
    ///   its last node straight back to its first;
    /// - a way left with fewer than two nodes in a row, or an area with fewer than three, is left out.
    ///
    /// Relations are left as they are: tilemaker passes over members it lacks, and joins what it
    /// has of a multipolygon's rings.
    ///
    /// - Returns: What was changed; ``Completion/isComplete`` when nothing was (`destination`
    ///   is then a copy).
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the extract when it cannot be read
    ///   or is damaged, or `destination` cannot be written.
    static func writeComplete(_ source: URL, to destination: URL) throws(AssemblyError) -> Completion {
        // The nodes the extract has, sorted (PBF files sort them by id, but need not).
        var nodes: [Int64] = []
        try forEachBlock(of: source) { block throws(AssemblyError) in
            guard block.type == "OSMData" else { return }
            let message = try block.message(in: source)
            for group in try Protobuf.fields(of: message, file: source) where group.number == 2 {
                for entity in try Protobuf.fields(of: message, in: group.bytes, file: source) {
                    switch entity.number {
                    case 1:  // Node: its id is field 1, a sint64.
                        let fields = try Protobuf.fields(of: message, in: entity.bytes, file: source)
                        if let id = fields.first(where: { $0.number == 1 }) {
                            nodes.append(Protobuf.zigzagDecoded(id.value))
                        }
                    case 2:  // DenseNodes: field 1, the ids, delta-coded.
                        for ids in try Protobuf.fields(of: message, in: entity.bytes, file: source)
                        where ids.number == 1 {
                            nodes += try Protobuf.deltaCoded(in: message, ids.bytes, file: source)
                        }
                    default:
                        continue
                    }
                }
            }
        }
        if zip(nodes, nodes.dropFirst()).contains(where: { $0 > $1 }) { nodes.sort() }

        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let output = FileHandle(forWritingAtPath: destination.path)
        else {
            throw .invalid(.basemap, reason: "'\(destination.path)' cannot be written")
        }
        defer { try? output.close() }
        var completion = Completion()
        try forEachBlock(of: source) { block throws(AssemblyError) in
            var written = block
            if block.type == "OSMData" {
                let message = try block.message(in: source)
                if let changed = try completed(message, nodes: nodes, file: source, counting: &completion) {
                    written = Block(type: block.type, message: changed)
                }
            }
            do { try output.write(contentsOf: written.bytes) } catch {
                throw .invalid(
                    .basemap, reason: "'\(destination.path)' cannot be written: \(error.localizedDescription)")
            }
        }
        return completion
    }

    /// The `PrimitiveBlock` `message` with its ways' missing nodes left out, or `nil` when every
    /// way's nodes are in `nodes` (sorted).
    private static func completed(
        _ message: [UInt8], nodes: [Int64], file: URL, counting completion: inout Completion
    ) throws(AssemblyError) -> [UInt8]? {
        var block: [UInt8] = []
        var changed = false
        for field in try Protobuf.fields(of: message, file: file) {
            guard field.number == 2 else {
                block += message[field.whole]
                continue
            }
            var group: [UInt8] = []
            for entity in try Protobuf.fields(of: message, in: field.bytes, file: file) {
                guard entity.number == 3 else {
                    group += message[entity.whole]
                    continue
                }
                completion.wayCount += 1
                let wayFields = try Protobuf.fields(of: message, in: entity.bytes, file: file)
                var references: [Int64] = []
                for refs in wayFields where refs.number == 8 {
                    references += try Protobuf.deltaCoded(in: message, refs.bytes, file: file)
                }
                let present = references.map { nodes.containsSorted($0) }
                if !present.contains(false) {
                    group += message[entity.whole]
                    continue
                }
                changed = true
                guard let kept = keptReferences(references, present: present) else {
                    completion.droppedWayCount += 1
                    continue
                }
                completion.shortenedWayCount += 1
                // The way again: its fields as they were, its references (and the locations some
                // files carry beside them, fields 9 and 10) replaced by those kept.
                var way: [UInt8] = []
                for wayField in wayFields where ![8, 9, 10].contains(wayField.number) {
                    way += message[wayField.whole]
                }
                Protobuf.appendDeltaCoded(8, kept, to: &way)
                Protobuf.appendBytes(3, way, to: &group)
            }
            Protobuf.appendBytes(2, group, to: &block)
        }
        return changed ? block : nil
    }

    /// The node references a way keeps when some of its nodes (`present` false) are missing, or
    /// `nil` to leave it out: an open way's longest run of present nodes (two at least); a closed
    /// way's longest run around the ring (three at least), closed again by its first node.
    static func keptReferences(_ references: [Int64], present: [Bool]) -> [Int64]? {
        let isClosed = references.count >= 4 && references.first == references.last
        let ring = isClosed ? references.count - 1 : references.count
        // Runs start after a missing node; around a ring, from the first missing one.
        let start = isClosed ? (present.prefix(ring).firstIndex(of: false).map { $0 + 1 } ?? 0) : 0
        var best: (start: Int, count: Int) = (0, 0)
        var run: (start: Int, count: Int) = (start, 0)
        for step in 0..<ring {
            let index = (start + step) % ring
            if present[index] {
                run.count += 1
                if run.count > best.count { best = run }
            } else {
                run = (index + 1, 0)
            }
        }
        let kept = (0..<best.count).map { references[(best.start + $0) % ring] }
        if isClosed { return kept.count >= 3 ? kept + [kept[0]] : nil }
        return kept.count >= 2 ? kept : nil
    }
}

extension [Int64] {
    /// Whether the sorted array holds `value`, by binary search.
    fileprivate func containsSorted(_ value: Int64) -> Bool {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }
}
