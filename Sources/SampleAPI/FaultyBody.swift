import FlyingFox
import FlyingSocks
import Foundation

/// A response body that a fault sends differently from the whole: padded, cut off, or stalled.
///
/// FlyingFox announces the `count` it is given as `Content-Length` and writes whatever this sequence yields. When the
/// sequence throws, FlyingFox stops writing and closes the connection, so a body can end short of its length.
struct FaultyBodySequence: AsyncBufferedSequence {
    typealias Element = UInt8

    /// What happens after the bytes have been sent.
    enum Ending: Sendable {
        /// The body is complete.
        case finish
        /// The connection closes (FIN).
        case close
        /// The connection is reset (RST) when FlyingFox closes `socket`; a plain close when it is nil.
        case reset(Socket?)
        /// Nothing is sent for `duration`, then the connection closes.
        case stall(Duration)
        /// Everything, then zeros without end, goes out a little every tenth of a second at this many bytes a
        /// second.
        case trickle(bytesPerSecond: Int)
    }

    /// Thrown to make FlyingFox drop the connection.
    struct InjectedFault: Error {}

    /// How long a reset waits after the last bytes, so that the client has read them before the RST arrives.
    static let pauseBeforeReset = Duration.milliseconds(100)

    let bytes: Data
    let zeroPadding: Int
    let ending: Ending

    /// The sequence that sends `response` the way its delivery says; `socket` is the connection's, for resets.
    init(_ response: SampleAPIResponse, socket: Socket?) {
        switch response.delivery {
        case .whole:
            (bytes, zeroPadding, ending) = (response.body, 0, .finish)
        case .zeroPadded(let count):
            (bytes, zeroPadding, ending) = (response.body, Swift.max(count, 0), .finish)
        case .cutOff(let sentBytes, let reset):
            (bytes, zeroPadding, ending) = (Data(response.body.prefix(sentBytes)), 0, reset ? .reset(socket) : .close)
        case .stalled(let sentBytes, let duration):
            (bytes, zeroPadding, ending) = (Data(response.body.prefix(sentBytes)), 0, .stall(duration))
        case .trickled(let rate):
            (bytes, zeroPadding, ending) = (response.body, 0, .trickle(bytesPerSecond: rate))
        }
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(bytes: bytes, zeroPadding: zeroPadding, ending: ending)
    }

    /// Yields `bytes`, then the zero padding, in buffers of the suggested size, then ends as `ending` says.
    struct Iterator: AsyncBufferedIteratorProtocol {
        let bytes: Data
        let zeroPadding: Int
        let ending: Ending
        private var sent = 0
        private var padded = 0

        init(bytes: Data, zeroPadding: Int, ending: Ending) {
            self.bytes = bytes
            self.zeroPadding = zeroPadding
            self.ending = ending
        }

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            if case .trickle(let rate) = ending { return try await trickle(bytesPerSecond: rate) }
            let count = Swift.max(count, 1)
            if sent < bytes.count {
                let start = bytes.startIndex + sent
                let end = Swift.min(start + count, bytes.endIndex)
                sent += end - start
                return bytes.subdata(in: start..<end)
            }
            if padded < zeroPadding {
                let length = Swift.min(count, zeroPadding - padded)
                padded += length
                return Data(count: length)
            }
            switch ending {
            case .finish:
                return nil
            case .close:
                throw InjectedFault()
            case .reset(let socket):
                try await Task.sleep(for: FaultyBodySequence.pauseBeforeReset)
                try? socket?.setValue(linger(l_onoff: 1, l_linger: 0), for: LingerSocketOption())
                throw InjectedFault()
            case .stall(let duration):
                try await Task.sleep(for: duration)
                throw InjectedFault()
            case .trickle:
                return nil
            }
        }

        /// The next tenth of a second's worth of `bytes`, or of zeros once they are sent, after that tenth.
        private mutating func trickle(bytesPerSecond rate: Int) async throws -> Data {
            try await Task.sleep(for: .milliseconds(100))
            let length = Swift.max(1, rate / 10)
            guard sent < bytes.count else { return Data(count: length) }
            let start = bytes.startIndex + sent
            let end = Swift.min(start + length, bytes.endIndex)
            sent += end - start
            return bytes.subdata(in: start..<end)
        }
    }
}

/// `SO_LINGER`: with `l_onoff` 1 and `l_linger` 0, closing the socket sends a TCP reset instead of a FIN.
struct LingerSocketOption: SocketOption {
    var name: Int32 { SO_LINGER }

    func makeValue(from socketValue: linger) -> linger {
        socketValue
    }

    func makeSocketValue(from value: linger) -> linger {
        value
    }
}

/// Finds the sockets FlyingFox holds, which it gives neither to its handlers nor to the code that starts it.
enum ConnectionSocket {
    /// The listening socket bound to `localPort`, found by scanning this process's file descriptors; nil when there
    /// is none or the platform does not list them.
    static func listening(localPort: UInt16) -> Socket? {
        openSockets().first { socket in
            guard case .ip4(_, port: localPort)? = try? socket.sockname() else { return false }
            return (try? socket.getValue(for: BoolSocketOption(name: SO_ACCEPTCONN))) == true
        }
    }

    /// The open socket whose local port is `localPort` and whose peer is `peer`, found by scanning this process's
    /// file descriptors; nil when there is none or the platform does not list them.
    static func find(localPort: UInt16, peer: HTTPRequest.Address?) -> Socket? {
        guard case .ip4(let peerIP, port: let peerPort)? = peer else { return nil }
        return openSockets().first { socket in
            guard case .ip4(_, port: localPort)? = try? socket.sockname(),
                case .ip4(peerIP, port: peerPort)? = try? socket.remotePeer()
            else { return false }
            return true
        }
    }

    /// Every open file descriptor of this process, each as a `Socket` (most calls fail on one that is not).
    private static func openSockets() -> [Socket] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd"))
            ?? (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).map { Socket(file: .init(rawValue: $0)) }
    }
}

extension Socket {
    /// Whether small writes are sent at once (`TCP_NODELAY`). FlyingFox writes a response's head and body in
    /// separate sends; with Nagle's algorithm on, the body then waits for the client's delayed ACK of the head
    /// (about 40 ms on Linux) on every request of a kept-alive connection.
    var sendsSmallWritesAtOnce: Bool {
        (try? getValue(for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))) == true
    }

    /// Turns Nagle's algorithm off. On a listening socket, Linux hands the setting on to every connection it accepts.
    func disableNagle() {
        try? setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
    }
}
