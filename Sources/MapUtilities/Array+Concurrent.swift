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
}
