import Foundation
import NIOCore

/// Why a server could not listen on its configured address, read from the socket error NIO
/// throws when it binds; the command line turns it into one line naming `--host` or `--port`.
public enum ListenProblem: Equatable, Sendable {
    /// Another process listens on the port (`EADDRINUSE`).
    case addressInUse
    /// The host is not an address of this machine (`EADDRNOTAVAIL`).
    case addressNotOnThisMachine
    /// The port needs privileges the process lacks, as ports below 1024 do (`EACCES`).
    case permissionDenied
    /// The host name does not resolve.
    case unknownHost
    /// Any other socket error, by its system message.
    case other(String)

    /// The problem `error` stands for; `nil` when it is not an error of listening.
    public init?(_ error: any Error) {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: self = .addressInUse
            case EADDRNOTAVAIL: self = .addressNotOnThisMachine
            case EACCES: self = .permissionDenied
            default: self = .other(String(cString: strerror(error.errnoCode)))
            }
        } else if error is SocketAddressError.UnknownHost || error is SocketAddressError {
            self = .unknownHost
        } else {
            return nil
        }
    }
}
