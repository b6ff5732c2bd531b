import Foundation

/// Runs `body` over `0..<count` split into contiguous chunks, one per core when the work is large
/// enough to pay for the threads, and returns when every chunk is done.
///
/// `body` gets the chunk's number and its range; chunks must write disjoint memory.
func forEachChunk(
    count: Int, minimumChunkSize: Int = 32_768, _ body: @Sendable (_ chunk: Int, _ range: Range<Int>) -> Void
) {
    let chunks = chunkCount(for: count, minimumChunkSize: minimumChunkSize)
    performChunks(chunks) { chunk in body(chunk, chunkRange(chunk, of: chunks, count: count)) }
}

/// Runs `body` for chunks `0..<chunks`, concurrently when there is more than one.
func performChunks(_ chunks: Int, _ body: @Sendable (_ chunk: Int) -> Void) {
    if chunks == 1 {
        body(0)
    } else {
        DispatchQueue.concurrentPerform(iterations: chunks, execute: body)
    }
}

/// How many chunks ``forEachChunk(count:minimumChunkSize:_:)`` splits `count` items into.
func chunkCount(for count: Int, minimumChunkSize: Int = 32_768) -> Int {
    max(1, min(processorCount, count / minimumChunkSize))
}

/// The active processors, asked once: asking costs a system call.
let processorCount = ProcessInfo.processInfo.activeProcessorCount

/// The range of chunk `chunk` of `chunks` equal parts of `0..<count`.
func chunkRange(_ chunk: Int, of chunks: Int, count: Int) -> Range<Int> {
    (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
}

/// A buffer that chunks of ``forEachChunk(count:minimumChunkSize:_:)`` share.
///
/// It is `@unchecked Sendable` because the chunks read it freely but write only the elements of
/// their own range, so no two threads ever touch the same element at once.
struct SharedBuffer<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>

    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        // An empty buffer may have no address; nothing is ever read through it then.
        base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!
    }

    subscript(index: Int) -> Element {
        @inline(__always) get { base[index] }
        @inline(__always) nonmutating set { base[index] = newValue }
    }
}
