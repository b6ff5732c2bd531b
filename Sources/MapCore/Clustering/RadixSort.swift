import Foundation

/// Sorts `keys` ascending and applies the same permutation to `values`: a stable least-significant
/// digit radix sort, 11 bits a pass, skipping the digits in which no two keys differ.
///
/// Large arrays are counted and scattered by one chunk per core; each chunk scatters to its own
/// precomputed slots, so the result is the same as sorting on one thread. The passes alternate
/// between the arrays and `scratch`, which grows to fit and is kept for the next sort: sorting
/// level after level of a cluster index then touches no fresh memory.
func radixSort(keys: inout [UInt64], values: inout [Int32], scratch: inout RadixSortScratch) {
    precondition(keys.count == values.count, "radixSort: keys and values differ in length")
    let count = keys.count
    guard count > 1 else { return }
    let digitBits = 11
    let bucketCount = 1 << digitBits
    let varyingBits = keys.withUnsafeBufferPointer { keys -> UInt64 in
        var all: UInt64 = .max
        var any: UInt64 = 0
        for key in keys {
            all &= key
            any |= key
        }
        return all ^ any
    }
    guard varyingBits != 0 else { return }

    if scratch.keys.count < count {
        scratch.keys = [UInt64](repeating: 0, count: count)
        scratch.values = [Int32](repeating: 0, count: count)
    }
    let chunks = chunkCount(for: count)
    var histograms = [Int](repeating: 0, count: chunks * bucketCount)

    keys.withUnsafeMutableBufferPointer { keys in
        values.withUnsafeMutableBufferPointer { values in
            scratch.keys.withUnsafeMutableBufferPointer { spareKeys in
                scratch.values.withUnsafeMutableBufferPointer { spareValues in
                    histograms.withUnsafeMutableBufferPointer { histograms in
                        var source = (SharedBuffer(keys), SharedBuffer(values))
                        var target = (SharedBuffer(spareKeys), SharedBuffer(spareValues))
                        var shift = 0
                        while shift < 64, varyingBits >> UInt64(shift) != 0 {
                            defer { shift += digitBits }
                            guard (varyingBits >> UInt64(shift)) & UInt64(bucketCount - 1) != 0 else { continue }
                            scatterPass(
                                shift: shift, digitBits: digitBits, chunks: chunks, count: count,
                                from: source, to: target, histograms: SharedBuffer(histograms)
                            )
                            swap(&source, &target)
                        }
                        // An odd number of passes leaves the result in the scratch arrays.
                        if source.0.base != keys.baseAddress {
                            keys.baseAddress!.update(from: source.0.base, count: count)
                            values.baseAddress!.update(from: source.1.base, count: count)
                        }
                    }
                }
            }
        }
    }
}

/// The spare arrays ``radixSort(keys:values:scratch:)`` scatters into, kept between sorts.
struct RadixSortScratch {
    var keys: [UInt64] = []
    var values: [Int32] = []
}

/// One counting-sort pass on the digit at `shift`: counts per chunk, turns the counts into each
/// chunk's first slot per digit, and scatters.
private func scatterPass(
    shift: Int,
    digitBits: Int,
    chunks: Int,
    count: Int,
    from source: (keys: SharedBuffer<UInt64>, values: SharedBuffer<Int32>),
    to target: (keys: SharedBuffer<UInt64>, values: SharedBuffer<Int32>),
    histograms: SharedBuffer<Int>
) {
    let bucketCount = 1 << digitBits
    let mask = UInt64(bucketCount - 1)
    let shiftBits = UInt64(shift)
    performChunks(chunks) { chunk in
        let histogram = histograms.base + chunk * bucketCount
        histogram.update(repeating: 0, count: bucketCount)
        for index in chunkRange(chunk, of: chunks, count: count) {
            histogram[Int((source.keys[index] >> shiftBits) & mask)] += 1
        }
    }
    var next = 0
    for bucket in 0..<bucketCount {
        for chunk in 0..<chunks {
            let slot = chunk * bucketCount + bucket
            let size = histograms[slot]
            histograms[slot] = next
            next += size
        }
    }
    performChunks(chunks) { chunk in
        let offsets = histograms.base + chunk * bucketCount
        for index in chunkRange(chunk, of: chunks, count: count) {
            let key = source.keys[index]
            let bucket = Int((key >> shiftBits) & mask)
            let slot = offsets[bucket]
            offsets[bucket] = slot + 1
            target.keys[slot] = key
            target.values[slot] = source.values[index]
        }
    }
}
