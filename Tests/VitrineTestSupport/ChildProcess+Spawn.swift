import Foundation

/// The `posix_spawn` call behind `ChildProcess`, and the descriptors it hands the child.
enum Spawn {
    /// Starts `path` and returns its process identifier. `streams` are standard input, output and error.
    static func start(
        _ path: String, arguments: [String], environment: [String: String]?, directory: String?,
        streams: [ChildProcess.Stream]
    ) throws -> pid_t {
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        var sources: [Int32] = []
        for (target, stream) in streams.enumerated() {
            switch stream {
            case .descriptor(let descriptor): sources.append(descriptor)
            case .null, .file:
                let file = if case .file(let url) = stream { url.path } else { "/dev/null" }
                let flags = target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND
                // Close-on-exec, so that no other child started meanwhile inherits it.
                let descriptor = open(file, flags | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else {
                    throw ChildProcessError(
                        description: "cannot open \(file) for \(path)'s \(["input", "output", "errors"][target]): "
                            + String(cString: strerror(errno)))
                }
                opened.append(descriptor)
                sources.append(descriptor)
            }
        }

        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init", path)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in sources.enumerated() {
            try check(posix_spawn_file_actions_adddup2(&actions, source, Int32(target)), "adddup2", path)
        }
        // What Apple's POSIX_SPAWN_CLOEXEC_DEFAULT does: every descriptor above 2 is closed in the child, whether
        // or not whoever opened it asked for close-on-exec (a pipe end of another test, a socket of a server).
        if let closeFrom = glibc("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self) {
            try check(closeFrom(&actions, 3), "posix_spawn_file_actions_addclosefrom_np", path)
        }
        if let directory {
            guard let changeDirectory = glibc("posix_spawn_file_actions_addchdir_np", as: AddChangeDirectory.self)
            else {
                throw ChildProcessError(description: "this C library cannot start \(path) in another directory")
            }
            try check(changeDirectory(&actions, directory), "posix_spawn_file_actions_addchdir_np", path)
        }

        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes), "posix_spawnattr_init", path)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP
        try check(posix_spawnattr_setflags(&attributes, Int16(flags)), "posix_spawnattr_setflags", path)
        try check(posix_spawnattr_setsigmask(&attributes, &none), "posix_spawnattr_setsigmask", path)
        try check(posix_spawnattr_setsigdefault(&attributes, &all), "posix_spawnattr_setsigdefault", path)
        try check(posix_spawnattr_setpgroup(&attributes, 0), "posix_spawnattr_setpgroup", path)

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for string in argv + envp { free(string) } }
        var identifier = pid_t()
        let result = posix_spawn(&identifier, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw ChildProcessError(description: "cannot start \(path): " + String(cString: strerror(result)))
        }
        return identifier
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// A glibc function that Swift's Glibc module leaves out (it is declared for _GNU_SOURCE only), or nil if this C
    /// library has none.
    private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    private static func check(_ result: Int32, _ call: String, _ path: String) throws {
        guard result != 0 else { return }
        throw ChildProcessError(description: "cannot start \(path): \(call): " + String(cString: strerror(result)))
    }
}
