import Foundation

/// Writes through a file descriptor: the one loop that retries interrupted and partial writes.
public enum DescriptorIO {
    /// Writes all of `buffer` to `descriptor`; returns the `errno` of the write that failed, or nil.
    public static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}
