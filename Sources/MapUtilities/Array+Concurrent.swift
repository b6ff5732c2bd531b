import Dispatch

extension Array {
    /// `transform` of every index below `count`, in index order, computed on every core at once
    /// (`DispatchQueue.concurrentPerform`) when `count` is more than one.
    ///
    /// `transform` is called once per index, from several threads at a time: it must only read
    /// what it shares with the other calls. For a few large pieces of work (a tile's layers, an
    /// image's row bands), not for many tiny ones.
    public init(concurrentlyComputing count: Int, _ transform: (Int) -> Element) {
        guard count > 1 else {
            self = (0..<count).map(transform)
            return
        }
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each call writes only its own element of `buffer`.
            let shared = UnsafeTransfer(buffer)
            withoutActuallyEscaping(transform) { transform in
                let work = UnsafeTransfer(transform)
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    (shared.wrappedValue.baseAddress! + index).initialize(to: work.wrappedValue(index))
                }
            }
            initialized = count
        }
    }

    /// Arrays of `counts[i]` elements, element `j` of array `i` being `transform(i, j)`: every
    /// element of every array computed on every core at once, as one flat list of work, so that a
    /// long array among short ones is not left to one core (see ``init(concurrentlyComputing:_:)``).
    public init<Inner>(concurrentlyComputing counts: [Int], _ transform: (Int, Int) -> Inner) where Element == [Inner] {
        var jobs: [(outer: Int, inner: Int)] = []
        for (outer, count) in counts.enumerated() { jobs += (0..<count).map { (outer, $0) } }
        let flat = [Inner](concurrentlyComputing: jobs.count) { transform(jobs[$0].outer, jobs[$0].inner) }
        var start = 0
        self = counts.map { count in
            defer { start += count }
            return [Inner](flat[start..<start + count])
        }
    }
}
