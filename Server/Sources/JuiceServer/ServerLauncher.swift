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

    /// Whether `database` names a PostgreSQL database rather than a SQLite file.
    public static func isPostgres(_ database: String) -> Bool {
        database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")
    }

    /// The database as messages name it: a SQLite path, or a URL without its password.
    public static func display(_ database: String) -> String {
        isPostgres(database) ? PostgresShopStorage.masked(database) : database
    }

    /// Opens the store of `shop` in `database`: a `postgres://` URL (a
    /// chain's database, the shop registered in it the first time when
    /// `register`), or the path of a SQLite file, which holds one shop
    /// ("main"), its folder made when missing.
    public static func openStorage(_ database: String, shop: String, register: Bool = true) async throws -> any ShopStorage {
        try checkShopName(shop)
        if isPostgres(database) {
            return try await PostgresShopStorage(url: database, shop: shop, register: register)
        }
        guard shop == SQLiteShopStorage.shopName else {
            throw LaunchError("a SQLite database holds one shop, '\(SQLiteShopStorage.shopName)'; for a chain of shops give --database postgres://… (see docs/serving.md)")
        }
        let folder = (database as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        return try SQLiteShopStorage(path: database)
    }

    static func checkShopName(_ name: String) throws {
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw LaunchError("a shop name is 1 to 64 letters, digits, '-', '_' or '.'")
        }
    }

    /// Serves until stopped (SIGINT or SIGTERM).
    public static func serve(source: BookSource, database: String, shop: String, host: String, port: Int,
                             log: @escaping @Sendable (String) -> Void) async throws {
        let book: RecipeBook
        switch source.load() {
        case .success(let loaded): book = loaded
        case .failure(let problem): throw LaunchError(problem.text + "juice-serve: the book has errors; fix them first (juice-lint shows them too)")
        }
        let storage = try await openStorage(database, shop: shop)
        do {
            // One process serves a shop: a second one is refused here, before it writes a day-open.
            try await storage.takeShop()
            let service = try await ShopService(book: book, storage: storage)
            let server = ShopServer(service: service, storage: storage)
            var logger = Logger(label: "juice-serve")
            logger.logLevel = .notice
            let where_ = isPostgres(database) ? "shop \(shop), database \(display(database))" : "database \(database)"
            let app = Application(
                router: server.router(),
                configuration: .init(address: .hostname(host, port: port), serverName: "juice-serve"),
                services: [StoredSessionDriver(storage: storage), BookWatcher(source: source, service: service, log: log), LiveUpdatesCloser(service: service)],
                onServerRunning: { channel in
                    let users = (try? await storage.users().count) ?? 0
                    log("juice-serve: serving \(source.paths.joined(separator: ", ")) at http://\(host):\(channel.localAddress?.port ?? port) (\(where_))")
                    if users == 0 {
                        let shopOption = shop == SQLiteShopStorage.shopName ? "" : " --shop \(shop)"
                        log("juice-serve: no users yet; add the first manager with:\n  juice-serve users add NAME --role manager --database \(display(database))\(shopOption)")
                    }
                },
                logger: logger
            )
            try await app.runService()
        } catch {
            await storage.close()
            throw error
        }
        await storage.close()
    }

    // MARK: Users

    /// Runs `body` on the store of `shop`, and lets go of it after.
    static func withStorage<T>(_ database: String, shop: String, register: Bool = true, _ body: (any ShopStorage) async throws -> T) async throws -> T {
        let storage = try await openStorage(database, shop: shop, register: register)
        do {
            let value = try await body(storage)
            await storage.close()
            return value
        } catch {
            await storage.close()
            throw error
        }
    }

    /// Adds a user to `shop`; an owner belongs to the whole chain (every shop of the database).
    public static func addUser(database: String, shop: String, name: String, role: StoredUser.Role, password: String) async throws {
        try checkUserName(name)
        try checkPassword(password)
        let hash = await Task.detached { Bcrypt.hash(password, cost: 12) }.value
        // An owner belongs to no shop: adding one registers none.
        try await withStorage(database, shop: shop, register: role != .owner) { storage in
            try await storage.addUser(StoredUser(name: name, role: role, passwordHash: hash, created: Int64(Date().timeIntervalSince1970 * 1000)))
        }
    }

    public static func setPassword(database: String, shop: String, name: String, password: String) async throws {
        try checkPassword(password)
        let hash = await Task.detached { Bcrypt.hash(password, cost: 12) }.value
        try await withStorage(database, shop: shop) { storage in
            guard try await storage.setPasswordHash(hash, forUser: name) else { throw LaunchError("no user is called '\(name)'") }
        }
    }

    public static func removeUser(database: String, shop: String, name: String) async throws {
        try await withStorage(database, shop: shop) { storage in
            guard try await storage.removeUser(named: name) else { throw LaunchError("no user is called '\(name)'") }
        }
    }

    /// The users who may sign in at `shop`: its own and the chain's owners.
    public static func listUsers(database: String, shop: String) async throws -> [StoredUser] {
        try await withStorage(database, shop: shop, register: false) { storage in try await storage.users() }
    }

    // MARK: The journal

    /// Writes the journal of `shop` (every shop when nil) as `format`, a
    /// line at a time through `write`, in shop and journal order: the days
    /// from `since` on, or the one `day`.
    public static func exportJournal(database: String, shop: String?, since: String?, day: String?, format: JournalExport.Format,
                                     write: (String) throws -> Void) async throws -> Int {
        for date in [since, day].compactMap({ $0 }) where ShopService.day(after: date) == nil || date.count != 10 {
            throw LaunchError("'\(date)' is not a date (YYYY-MM-DD)")
        }
        // A SQLite file is opened as its one shop, and a --shop that names another is unknown in it.
        let first = isPostgres(database) ? shop ?? "main" : SQLiteShopStorage.shopName
        return try await withStorage(database, shop: first, register: false) { storage in
            let names = try await storage.shops()
            if let shop, !names.contains(shop) { throw StorageError.unknownShop(shop) }
            if let header = JournalExport.header(format: format) { try write(header + "\n") }
            var count = 0
            for name in shop.map({ [$0] }) ?? names {
                let store = try await storage.storage(forShop: name)
                for date in try await store.days().sorted() {
                    if let day, date != day { continue }
                    if let since, date < since { continue }
                    for entry in try await store.entries(day: date) {
                        try write(try JournalExport.line(for: entry, shop: name, format: format) + "\n")
                        count += 1
                    }
                }
            }
            return count
        }
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
    public static func importStock(source: BookSource, database: String, shop: String, stockFile: String) async throws -> JournalEntry {
        try await withStorage(database, shop: shop) { storage in
            // The running server is named first: the file is no use until it stops.
            do {
                try await storage.takeShop()
            } catch StorageError.shopTaken {
                throw LaunchError("juice-serve is running on \(isPostgres(database) ? "the shop '\(shop)' of " : "")'\(display(database))'; stop it before importing stock")
            }
            let book: RecipeBook
            switch BookSource(paths: source.paths, stockPath: stockFile).load() {
            case .success(let loaded): book = loaded
            case .failure(let problem): throw LaunchError(problem.text + "juice-serve: the book or the stock file has errors")
            }
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
