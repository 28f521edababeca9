import Foundation
import Hummingbird
import HummingbirdBcrypt
import JuiceBook
import JuiceShop
import JuiceStore
import Logging
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// What `juice-serve` does, apart from parsing its arguments: open the
/// database (one server per database, held by a lock file), load the book,
/// serve, and watch the book's files. Also the user and stock commands.
public enum ServerLauncher {
    /// Where the database goes when `--database` is not given: `.juice/shop.sqlite` beside the book.
    public static func defaultDatabase(recipePaths: [String]) -> String {
        let first = recipePaths.first ?? "recipes"
        let parent = (first as NSString).deletingLastPathComponent
        return ((parent.isEmpty ? "." : parent) as NSString).appendingPathComponent(".juice/shop.sqlite")
    }

    /// Opens the store at `path`, creating its folder.
    public static func openStorage(_ path: String) throws -> SQLiteShopStorage {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        return try SQLiteShopStorage(path: path)
    }

    /// Holds an exclusive `flock` on the database file itself for as long as
    /// the process lives, so a second server (or a stock import) on the same
    /// database refuses to start, whatever path names the file (a symbolic
    /// or hard link too). SQLite's own locks are `fcntl` locks, which a
    /// `flock` leaves alone. The file is made, empty, when it does not exist
    /// (SQLite takes an empty file as a new database); a read-only
    /// descriptor is enough, so a write-protected database can be locked.
    ///
    /// - Returns: nil when another process holds the lock.
    /// - Throws: `LaunchError` when the file cannot be opened at all.
    public static func lock(database path: String) throws -> Int32? {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let descriptor = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LaunchError("cannot open '\(path)': \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Serves until stopped (SIGINT or SIGTERM).
    public static func serve(source: BookSource, database: String, host: String, port: Int,
                             log: @escaping @Sendable (String) -> Void) async throws {
        guard try lock(database: database) != nil else {
            throw LaunchError("another juice-serve is using '\(database)'; stop it first (or give another --database)")
        }
        let book: RecipeBook
        switch source.load() {
        case .success(let loaded): book = loaded
        case .failure(let problem): throw LaunchError(problem.text + "juice-serve: the book has errors; fix them first (juice-lint shows them too)")
        }
        let storage = try openStorage(database)
        let service = try await ShopService(book: book, storage: storage)
        let server = ShopServer(service: service, storage: storage)
        var logger = Logger(label: "juice-serve")
        logger.logLevel = .notice
        let app = Application(
            router: server.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "juice-serve"),
            services: [StoredSessionDriver(storage: storage), BookWatcher(source: source, service: service, log: log), LiveUpdatesCloser(service: service)],
            onServerRunning: { channel in
                let users = (try? await storage.users().count) ?? 0
                log("juice-serve: serving \(source.paths.joined(separator: ", ")) at http://\(host):\(channel.localAddress?.port ?? port) (database \(database))")
                if users == 0 {
                    log("juice-serve: no users yet; add the first manager with:\n  juice-serve users add NAME --role manager --database \(database)")
                }
            },
            logger: logger
        )
        try await app.runService()
    }

    // MARK: Users

    public static func addUser(database: String, name: String, role: StoredUser.Role, password: String) async throws {
        try checkUserName(name)
        try checkPassword(password)
        let storage = try openStorage(database)
        let hash = await Task.detached { Bcrypt.hash(password, cost: 12) }.value
        try await storage.addUser(StoredUser(name: name, role: role, passwordHash: hash, created: Int64(Date().timeIntervalSince1970 * 1000)))
    }

    public static func setPassword(database: String, name: String, password: String) async throws {
        try checkPassword(password)
        let storage = try openStorage(database)
        let hash = await Task.detached { Bcrypt.hash(password, cost: 12) }.value
        guard try await storage.setPasswordHash(hash, forUser: name) else { throw LaunchError("no user is called '\(name)'") }
    }

    public static func removeUser(database: String, name: String) async throws {
        let storage = try openStorage(database)
        guard try await storage.removeUser(named: name) else { throw LaunchError("no user is called '\(name)'") }
    }

    public static func listUsers(database: String) async throws -> [StoredUser] {
        try await openStorage(database).users()
    }

    static func checkUserName(_ name: String) throws {
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw LaunchError("a user name is 1 to 64 letters, digits, '-', '_' or '.'")
        }
    }

    static func checkPassword(_ password: String) throws {
        guard password.count >= 10 else { throw LaunchError("a password needs at least 10 characters") }
        // bcrypt reads at most 72 bytes: a longer password would be cut without a word.
        guard password.utf8.count <= 72 else { throw LaunchError("a password may have at most 72 bytes") }
    }

    // MARK: Stock

    /// Sets the shop's stock from a stock file (juice-run's `--stock` format), as one journal entry.
    public static func importStock(source: BookSource, database: String, stockFile: String) async throws -> JournalEntry {
        guard try lock(database: database) != nil else {
            throw LaunchError("juice-serve is running on '\(database)'; stop it before importing stock")
        }
        let withStock = BookSource(paths: source.paths, stockPath: stockFile)
        let book: RecipeBook
        switch withStock.load() {
        case .success(let loaded): book = loaded
        case .failure(let problem): throw LaunchError(problem.text + "juice-serve: the book or the stock file has errors")
        }
        let storage = try openStorage(database)
        let service = try await ShopService(book: book, storage: storage)
        let stock = JournalEntry.Stock(
            fruit: book.fruits.indices.map { JournalEntry.Count(id: book.fruits[$0].id, count: book.openingStock[$0]) },
            servings: book.keepsServings ? book.recipes.indices.map { JournalEntry.Count(id: book.recipes[$0].id, count: book.openingServings.indices.contains($0) ? book.openingServings[$0] : 0) } : []
        )
        switch await service.submit(.setStock(stock, reason: "stock import from \(stockFile)"), by: .init(user: "system", role: .manager, till: "import")) {
        case .success(.written(let entry)), .success(.repeated(let entry)): return entry
        case .failure(let failure): throw LaunchError(APIError(failure).message)
        }
    }
}

/// A launch or command failure, with the message to print.
public struct LaunchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Ends the tills' event streams when the server is asked to stop, which
/// would otherwise wait on them for ever.
struct LiveUpdatesCloser: Service {
    let service: ShopService

    func run() async throws {
        try? await gracefulShutdown()
        await service.stopAllListening()
    }
}

/// Watches the book's files once a second. A change that loads without
/// errors is taken at once (every till sees the new menu); one with errors
/// is refused, the running book stays, and managers see the errors.
struct BookWatcher: Service {
    let source: BookSource
    let service: ShopService
    let log: @Sendable (String) -> Void

    func run() async throws {
        let seen = source.fingerprint()
        // The loop ends when the server shuts down.
        try? await cancelWhenGracefulShutdown { try await watch(from: seen) }
    }

    private func watch(from start: [String: String]) async throws {
        var seen = start
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(1))
            let now = source.fingerprint()
            guard now != seen else { continue }
            seen = now
            switch source.load() {
            case .success(let book):
                if await service.replaceBook(book) {
                    log("juice-serve: took the changed book")
                } else {
                    await service.refuseBook(diagnostics: "the changed book does not fit today's journal (a fruit that orders took is gone); the running book stays\n")
                    log("juice-serve: refused the changed book: it does not fit today's journal")
                }
            case .failure(let problem):
                await service.refuseBook(diagnostics: problem.text)
                log("juice-serve: refused the changed book; the running book stays:\n" + problem.text)
            }
        }
    }
}
