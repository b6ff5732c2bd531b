/// A value handed across a concurrency boundary that the compiler cannot prove safe: the
/// package's one unchecked `Sendable` box (as swift-nio keeps one), in place of a private box per
/// file.
///
/// It is sound only when the code that makes it guarantees what the compiler cannot see, and
/// says so where it makes it:
///
/// - concurrent work only reads the value (pointers to bytes nothing writes meanwhile, a parser
///   over immutable input), or each piece of work writes only its own disjoint part of it (its
///   own rows of an image, its own slot of a results buffer); or
/// - one thread at a time uses it (closures called under a lock, a value given to another thread
///   that alone touches it from then on).
///
/// Whoever made the box keeps what it points into alive until the work is done. For example:
///
/// ```swift
/// let output = UnsafeTransfer(buffer) // each band writes only its own rows
/// DispatchQueue.concurrentPerform(iterations: bands) { band in fill(band, of: output.wrappedValue) }
/// ```
public struct UnsafeTransfer<Wrapped>: @unchecked Sendable {
    /// The value.
    public var wrappedValue: Wrapped

    /// Boxes `wrappedValue`.
    @inlinable
    public init(_ wrappedValue: Wrapped) {
        self.wrappedValue = wrappedValue
    }
}
