import Foundation
import MapUtilities
import Testing

/// Finding a tool Mapwright runs on a search path, as a shell does.
struct URLExecutableTests {
    @Test func theFirstFolderHoldingItWinsThenTheFallbacks() {
        #expect(URL.executable(named: "sh", searchPath: "/no/such/folder::/bin:/usr/bin")?.path == "/bin/sh")
        #expect(
            URL.executable(named: "sh", searchPath: "/no/such/folder", fallbacks: ["/no/sh", "/bin/sh"])?.path
                == "/bin/sh")
        #expect(URL.executable(named: "no-such-tool-here", searchPath: "/bin:/usr/bin") == nil)
        // A file that is not executable is not a tool.
        #expect(URL.executable(named: "passwd", searchPath: "/etc") == nil)
    }
}
