@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceSimulation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line's side of a `ShopRun`: scripts checked and opened with
/// `stat`, `open` and `fstat`, destinations checked with `stat` and
/// `access`, and stop requests from `StopSignal`'s handlers.
public struct POSIXRunEnvironment: RunEnvironment {
    /// The process's files and signals.
    public init() {}

    public func defaultBookIsMissing() -> Bool {
        // Run from the wrong folder, the default book is missing: say what
        // to do, not only what is missing.
        var info = stat()
        return stat("recipes", &info) != 0 && errno == ENOENT
    }

    public func checkScript(_ script: String) throws(RunError) {
        let name = RecipeSources.displayPath(script)
        var info = stat()
        guard stat(script, &info) == 0 else {
            throw errno == ENOENT ? .scriptNotFound(name) : .scriptUnreadable(name, reason: String(cString: strerror(errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            // A folder where a script goes is most likely a recipe book.
            throw .scriptIsDirectory(name)
        }
        guard access(script, R_OK) == 0 else { throw .scriptUnreadable(name, reason: String(cString: strerror(errno))) }
    }

    public func openScript(_ script: String, name: String) throws(RunError) -> ScriptInput {
        let descriptor = open(script, O_RDONLY)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            let problem: RunError = errno == ENOENT ? .scriptNotFound(name) : .scriptUnreadable(name, reason: String(cString: strerror(errno)))
            if descriptor >= 0 { close(descriptor) }
            throw problem
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .scriptIsDirectory(name)
        }
        let size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        return ScriptInput(source: DescriptorSource(descriptor, closing: true), size: size)
    }

    /// Why `path` cannot take the saved stock, or nil when it looks as if it
    /// can: its folder exists, is a folder and is writable, and the file, if
    /// there, is a regular file (`AtomicFile` replaces it by a rename, which a
    /// directory or a device would refuse or which would lose what it is).
    /// The save can still fail later (a full disk, a folder removed meanwhile);
    /// this catches the mistakes that are there from the start.
    public func saveProblem(_ path: String) -> String? {
        guard !path.isEmpty else { return "the path is empty" }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: return "it is a directory"
            default: return "it is not a regular file"
            }
        }
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            folder = "."
        }
        guard stat(folder, &info) == 0 else {
            if errno == ENOENT { return "its folder '\(folder)' does not exist" }
            if errno == ENOTDIR { return "a part of its folder '\(folder)' is not a folder" }
            return "cannot reach its folder '\(folder)': \(String(cString: strerror(errno)))"
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "'\(folder)' is not a folder" }
        guard access(folder, W_OK | X_OK) == 0 else {
            return "its folder '\(folder)' is not writable: \(String(cString: strerror(errno)))"
        }
        return nil
    }

    public func watchForStop() { StopSignal.install() }

    public var stopRequest: StopRequest { StopRequest(word: StopSignal.word) }

    public var stopExitCode: ToolExitCode { StopSignal.exitCode }
}

extension RunStreams {
    /// The process's standard streams, and whether each is a terminal.
    public static func standard() -> RunStreams {
        RunStreams(
            output: .standardOutput(), errors: .standardError(), input: DescriptorSource(STDIN_FILENO, closing: false),
            inputIsTerminal: isatty(STDIN_FILENO) == 1, errorsAreTerminal: isatty(STDERR_FILENO) == 1
        )
    }
}
