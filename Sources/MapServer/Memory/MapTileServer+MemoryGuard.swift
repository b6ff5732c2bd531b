import Dispatch
import Logging
import MapData
import MapRenderer
import Synchronization

extension MapTileServer {
    /// The share of ``ServerConfiguration/memoryLimitBytes`` from which the guard lets caches go, and runs one render at a time: 65%.
    static let memoryTrimFraction = 0.65
    /// The share from which it refuses new renders, and lets the renderers' label placements go: 75%
    /// (a render in flight allocates tens of MiB of line meshes and placements while it draws).
    static let memoryRefuseFraction = 0.75
    /// The least time between two trims, in nanoseconds: 2 s (a trim costs the tiles it lets go,
    /// and the heap takes a moment to settle).
    static let memoryTrimIntervalNanoseconds: UInt64 = 2_000_000_000

    /// The process's resident bytes and its answer files' (``answerFileBytes``), which the
    /// kernel leaves out of the resident figure though a container's limit counts them.
    private func residentBytes() -> Int? {
        ResidentMemory.currentBytes().map { $0 + answerFileBytes.load(ordering: .relaxed) }
    }

    /// Reads the resident memory and keeps it under ``ServerConfiguration/memoryLimitBytes`` (see
    /// there): called ten times a second by the server's memory guard service, and by the tests.
    /// Does nothing without a limit.
    ///
    /// - Returns: The resident bytes after any trimming; nil without a limit or where they cannot be read.
    @discardableResult
    public func checkMemory() -> Int? {
        guard let limit = configuration.memoryLimitBytes, var resident = residentBytes() else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        if Double(resident) >= Double(limit) * Self.memoryTrimFraction,
            now >= lastMemoryTrim.load(ordering: .relaxed) &+ Self.memoryTrimIntervalNanoseconds
        {
            lastMemoryTrim.store(now, ordering: .relaxed)
            memory.trim(toBytes: memory.usage.bytes / 2)
            replacedTiles.trim(toBytes: replacedTiles.usage.bytes / 2)
            if Double(resident) >= Double(limit) * Self.memoryRefuseFraction {
                // What renders made and keep for the next ones: label placements, and geometry
                // prepared per zoom (for every zoom and place drawn, it grows with the area served).
                for renderer in keptRenderers() {
                    renderer.forgetPlacements()
                    renderer.data.forgetPreparedGeometry()
                }
                for style in (try? servedContent().styles) ?? [] { style.data.forgetPreparedGeometry() }
            }
            ResidentMemory.releaseFreedHeap()
            metrics.increment("mapwright_memory_trims_total")
            resident = residentBytes() ?? resident
        }
        // One render at a time from the trimming share on: two in flight add their meshes and
        // placements (tens of MiB each) on top of what is kept.
        pool.limitConcurrency(to: Double(resident) >= Double(limit) * Self.memoryTrimFraction ? 1 : nil)
        let refuses = Double(resident) >= Double(limit) * Self.memoryRefuseFraction
        if refusesRendersForMemory.exchange(refuses, ordering: .relaxed) != refuses {
            let mebibytes = resident >> 20
            let limitMebibytes = limit >> 20
            if refuses {
                logger.warning(
                    "memory: \(mebibytes) MiB resident, at the limit of \(limitMebibytes) MiB: new renders are refused until it falls"
                )
            } else {
                logger.info(
                    "memory: \(mebibytes) MiB resident, under the limit of \(limitMebibytes) MiB again: renders resume")
            }
        }
        metrics.recordResidentMemory(bytes: resident)
        return resident
    }
}
