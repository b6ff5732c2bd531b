#if canImport(Glibc)
    import Glibc
#endif

/// The process's resident memory, as the kernel counts it (`/proc/self/statm`'s second field,
/// in pages): what `ps` shows as RSS and what a container's memory limit measures.
enum ResidentMemory {
    /// The resident bytes now; nil where `/proc` cannot be read.
    static func currentBytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Returns the heap's free pages to the system (glibc's `malloc_trim(0)`, every arena): freed
    /// memory otherwise stays resident. Acts for the whole process.
    static func releaseFreedHeap() {
        _ = mallocTrim(0)
    }
}

/// glibc's `malloc_trim(3)` (malloc.h is not in Swift's Glibc module).
@_silgen_name("malloc_trim")
private func mallocTrim(_ padding: Int) -> Int32
