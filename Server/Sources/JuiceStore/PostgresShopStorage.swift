import Foundation
import JuiceShop
internal import Logging
internal import PostgresNIO

/// The chain's store: many shops in one PostgreSQL database, through
/// postgres-nio. Each shop's journal, days, users and sessions are its own
/// (every table has a `shop` column); owners belong to the chain and sign in
/// at any shop.
///
/// The same promises as `SQLiteShopStorage`, kept by the server: a commit
/// returns once PostgreSQL has flushed its WAL (`synchronous_commit = on`
/// is asked for on every connection, whatever the server's default); the
/// journal refuses UPDATE, DELETE and TRUNCATE (a trigger); unique indexes
/// refuse a repeated client id anywhere in the chain, so a till's retry
/// that reaches another process still finds its first answer, and a second
/// correction of one order.
///
/// One process serves a shop: `takeShop` holds a session advisory lock on a
/// connection of its own, and the shop's journal is written on that
/// connection only. If the connection is lost (the server restarted), the
/// lock went with it; the next write connects again and takes the lock
/// again before it writes, or fails if another process took the shop.
///
/// Every call has a deadline (`Self.deadline`): while the server is down a
/// call fails at once or after the deadline with `StorageError.unavailable`,
/// which the web counter answers with 503 and `Retry-After`, never a hang.
public final class PostgresShopStorage: ShopStorage {
    public let shop: String
    /// The shop's number in the `shops` table: the advisory lock's key.
    let shopID: Int64
    private let client: PostgresClient
    private let clientTask: Task<Void, Never>
    private let writer: ShopWriter
    /// The URL without its password, for messages.
    public let displayURL: String
    /// Whether this value owns the client (made it), or shares another's.
    private let ownsClient: Bool
    /// Fails calls at once for a second after one found the database away.
    private let breaker: Breaker

    /// How long any call may take before it counts as unavailable.
    static let deadline: Duration = .seconds(5)
    /// The first number of every advisory lock key the server takes ('JUIC').
    static let lockClass: Int32 = 0x4A55_4943

    static let logger = Logger(label: "juice-serve.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects to the database at `url` (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
    /// or `?host=/socket/folder` for a Unix socket), brings its schema up
    /// to date and registers `shop` in it.
    ///
    /// - Throws: `StorageError.unusableDatabase` for a bad URL, a database
    ///   that cannot be reached or signed in to, or a schema newer than this
    ///   build knows.
    /// - Parameter register: whether a shop not yet in the database is
    ///   added to it; when false, such a shop reads as empty and cannot be taken.
    public init(url: String, shop: String, register: Bool = true) async throws {
        let target = try PostgresURL(url)
        displayURL = target.display
        self.shop = shop
        // One plain connection first: the pool would retry a refused or
        // failed connection until a deadline and hide why; this says it at once.
        do {
            let configuration = try target.connectionConfiguration(application: "juice-serve")
            let probe = try await Self.withDeadline(.seconds(10)) {
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: Self.logger)
            }
            try? await probe.close()
        } catch {
            throw StorageError.unusableDatabase("cannot connect to \(target.display): \(Self.describe(error))")
        }
        let client = PostgresClient(configuration: target.clientConfiguration(), backgroundLogger: Self.logger)
        self.client = client
        breaker = Breaker()
        clientTask = Task { await client.run() }
        ownsClient = true
        do {
            try await Self.migrate(client, url: target.display)
            shopID = try await Self.shopID(of: shop, registering: register, client)
        } catch {
            clientTask.cancel()
            if let storageError = error as? StorageError, case .unusableDatabase = storageError { throw storageError }
            throw StorageError.unusableDatabase("cannot use \(target.display) as a juice-serve database: \(Self.describe(error))")
        }
        do {
            writer = ShopWriter(configuration: try target.connectionConfiguration(application: "juice-serve shop \(shop)"), shop: shop, shopID: shopID)
        } catch {
            clientTask.cancel()
            throw StorageError.unusableDatabase("cannot set up TLS for \(target.display): \(error)")
        }
    }

    /// Another shop of the same database, sharing the client.
    private init(sharing other: PostgresShopStorage, shop: String, shopID: Int64) {
        self.shop = shop
        self.shopID = shopID
        client = other.client
        clientTask = other.clientTask
        breaker = other.breaker
        displayURL = other.displayURL
        ownsClient = false
        writer = ShopWriter(configuration: other.writer.configuration, shop: shop, shopID: shopID)
    }

    public func close() async {
        await writer.close()
        if ownsClient { clientTask.cancel() }
    }

    // MARK: Schema

    /// The schema's versions, oldest first. Each runs once, in a transaction
    /// that first takes a transaction advisory lock, so two processes
    /// starting together migrate one after the other.
    static let migrations: [(id: String, sql: [String])] = [
        ("1-chain-journal-users-sessions", [
            """
            CREATE TABLE shops (
                id BIGSERIAL PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                created BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE journal (
                shop TEXT NOT NULL REFERENCES shops(name),
                sequence BIGINT NOT NULL,
                day TEXT NOT NULL,
                time BIGINT NOT NULL,
                "user" TEXT NOT NULL,
                till TEXT NOT NULL,
                kind TEXT NOT NULL,
                client_id TEXT,
                target BIGINT,
                body TEXT NOT NULL,
                PRIMARY KEY (shop, sequence)
            )
            """,
            "CREATE INDEX journal_day ON journal (shop, day, sequence)",
            "CREATE INDEX journal_kind ON journal (shop, kind, sequence)",
            // Chain-wide: a till's id for an order is unique across every shop.
            "CREATE UNIQUE INDEX journal_client_id ON journal (client_id) WHERE client_id IS NOT NULL",
            "CREATE UNIQUE INDEX journal_correction ON journal (shop, target) WHERE kind IN ('void', 'refund')",
            """
            CREATE FUNCTION juice_journal_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'the journal is append-only'; END $$
            """,
            "CREATE TRIGGER journal_no_change BEFORE UPDATE OR DELETE ON journal FOR EACH ROW EXECUTE FUNCTION juice_journal_append_only()",
            "CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON journal FOR EACH STATEMENT EXECUTE FUNCTION juice_journal_append_only()",
            // An owner's shop is '' (the chain).
            """
            CREATE TABLE users (
                shop TEXT NOT NULL,
                name TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'staff')),
                password_hash TEXT NOT NULL,
                created BIGINT NOT NULL,
                PRIMARY KEY (shop, name),
                CHECK ((role = 'owner') = (shop = ''))
            )
            """,
            """
            CREATE TABLE sessions (
                shop TEXT NOT NULL,
                key TEXT NOT NULL,
                value BYTEA NOT NULL,
                expires BIGINT NOT NULL,
                PRIMARY KEY (shop, key)
            )
            """,
            """
            CREATE TABLE sign_in_failures (
                id BIGSERIAL PRIMARY KEY,
                shop TEXT NOT NULL,
                "user" TEXT NOT NULL,
                time BIGINT NOT NULL
            )
            """,
            "CREATE INDEX sign_in_failures_user ON sign_in_failures (shop, \"user\", time)",
        ]),
    ]

    private static func migrate(_ client: PostgresClient, url: String) async throws {
        try await withDeadline(.seconds(30)) {
            try await client.withConnection { connection in
                try await connection.query("BEGIN", logger: logger)
                do {
                    try await connection.query("SELECT pg_advisory_xact_lock(\(lockClass), 0)", logger: logger)
                    try await connection.query("CREATE TABLE IF NOT EXISTS juice_schema (id TEXT PRIMARY KEY, applied BIGINT NOT NULL)", logger: logger)
                    var applied: Set<String> = []
                    for try await id in try await connection.query("SELECT id FROM juice_schema", logger: logger).decode(String.self) { applied.insert(id) }
                    let known = Set(migrations.map(\.id))
                    let newer = applied.subtracting(known).sorted()
                    guard newer.isEmpty else {
                        throw StorageError.unusableDatabase("\(url) has a newer schema (\(newer.joined(separator: ", "))) than this juice-serve knows; use a newer juice-serve")
                    }
                    for migration in migrations where !applied.contains(migration.id) {
                        for statement in migration.sql {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                        try await connection.query("INSERT INTO juice_schema (id, applied) VALUES (\(migration.id), \(milliseconds()))", logger: logger)
                    }
                    try await connection.query("COMMIT", logger: logger)
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }
    }

    /// The shop's number (0 for a shop not in the database), registering the shop the first time when asked.
    private static func shopID(of shop: String, registering: Bool, _ client: PostgresClient) async throws -> Int64 {
        try await withDeadline(deadline) {
            if registering {
                try await client.query("INSERT INTO shops (name, created) VALUES (\(shop), \(milliseconds())) ON CONFLICT (name) DO NOTHING", logger: logger)
            }
            for try await id in try await client.query("SELECT id FROM shops WHERE name = \(shop)", logger: logger).decode(Int64.self) { return id }
            return 0
        }
    }

    /// A database URL with its password replaced by `***`, for messages.
    public static func masked(_ url: String) -> String { PostgresURL.masked(url) }

    // MARK: The shop

    public func takeShop() async throws {
        guard shopID > 0 else { throw StorageError.unknownShop(shop) }
        try await writer.take()
    }

    public func shops() async throws -> [String] {
        try await read { client in
            var names: [String] = []
            for try await name in try await client.query("SELECT name FROM shops ORDER BY name", logger: Self.logger).decode(String.self) { names.append(name) }
            return names
        }
    }

    public func storage(forShop name: String) async throws -> any ShopStorage {
        if name == shop { return self }
        let id: Int64? = try await read { client in
            for try await id in try await client.query("SELECT id FROM shops WHERE name = \(name)", logger: Self.logger).decode(Int64.self) { return id }
            return nil
        }
        guard let id else { throw StorageError.unknownShop(name) }
        return PostgresShopStorage(sharing: self, shop: name, shopID: id)
    }

    // MARK: The journal

    public func append(_ entries: [JournalEntry]) async throws {
        guard !entries.isEmpty else { return }
        let rows = try entries.map { entry in
            let (clientID, target) = StoredEntry.keys(of: entry.event)
            return (entry, clientID, target, try StoredEntry.body(of: entry))
        }
        let shop = shop
        try await writer.write { connection in
            for (entry, clientID, target, body) in rows {
                try await connection.query("""
                    INSERT INTO journal (shop, sequence, day, time, "user", till, kind, client_id, target, body)
                    VALUES (\(shop), \(entry.sequence), \(entry.day), \(entry.time), \(entry.user), \(entry.till), \(entry.event.kind), \(clientID), \(target), \(body))
                    """, logger: Self.logger)
            }
        }
    }

    public func lastSequence() async throws -> Int64 {
        try await read { [shop] client in
            for try await last in try await client.query("SELECT coalesce(max(sequence), 0) FROM journal WHERE shop = \(shop)", logger: Self.logger).decode(Int64.self) { return last }
            return 0
        }
    }

    public func entries(day: String) async throws -> [JournalEntry] {
        try await bodies("SELECT body FROM journal WHERE shop = \(shop) AND day = \(day) ORDER BY sequence")
    }

    public func entriesOfLastDay() async throws -> [JournalEntry] {
        try await bodies("""
            SELECT body FROM journal WHERE shop = \(shop) AND sequence >= coalesce(
                (SELECT max(sequence) FROM journal WHERE shop = \(shop) AND kind = 'day-open'), 0)
            ORDER BY sequence
            """)
    }

    public func entry(sequence: Int64) async throws -> JournalEntry? {
        try await bodies("SELECT body FROM journal WHERE shop = \(shop) AND sequence = \(sequence)").first
    }

    /// A client id is unique across the chain, and found in whichever shop wrote it.
    public func entry(clientID: String) async throws -> JournalEntry? {
        try await bodies("SELECT body FROM journal WHERE client_id = \(clientID)").first
    }

    public func entries(clientIDs: [String]) async throws -> [String: JournalEntry] {
        guard !clientIDs.isEmpty else { return [:] }
        var found: [String: JournalEntry] = [:]
        for entry in try await bodies("SELECT body FROM journal WHERE client_id = ANY(\(clientIDs))") {
            if let id = StoredEntry.keys(of: entry.event).clientID { found[id] = entry }
        }
        return found
    }

    public func correction(of order: Int64) async throws -> JournalEntry? {
        try await bodies("SELECT body FROM journal WHERE shop = \(shop) AND target = \(order) AND kind IN ('void', 'refund')").first
    }

    public func days() async throws -> [String] {
        try await read { [shop] client in
            var days: [String] = []
            for try await day in try await client.query("SELECT DISTINCT day FROM journal WHERE shop = \(shop) ORDER BY day DESC", logger: Self.logger).decode(String.self) { days.append(day) }
            return days
        }
    }

    // MARK: Users

    /// Owners are the chain's (shop ''); everyone else belongs to this
    /// shop. A name is one person in a shop: an owner's name is taken in
    /// every shop, and a shop's user cannot take an owner's name.
    public func addUser(_ user: StoredUser) async throws {
        let home = user.role == .owner ? "" : shop
        try await transaction { connection in
            // One user added at a time across the chain, so two adds of one name cannot both pass the check.
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockClass), -1)", logger: Self.logger)
            let clash = user.role == .owner
                ? try await connection.query("SELECT count(*) FROM users WHERE name = \(user.name)", logger: Self.logger)
                : try await connection.query("SELECT count(*) FROM users WHERE name = \(user.name) AND shop IN ('', \(home))", logger: Self.logger)
            for try await count in clash.decode(Int64.self) where count > 0 { throw StorageError.userExists(user.name) }
            try await connection.query("""
                INSERT INTO users (shop, name, role, password_hash, created)
                VALUES (\(home), \(user.name), \(user.role.rawValue), \(user.passwordHash), \(user.created))
                """, logger: Self.logger)
        }
    }

    public func user(named name: String) async throws -> StoredUser? {
        try await users(where: name).first
    }

    public func users() async throws -> [StoredUser] {
        try await users(where: nil)
    }

    private func users(where name: String?) async throws -> [StoredUser] {
        try await read { [shop] client in
            let rows = if let name {
                try await client.query("SELECT name, role, password_hash, created FROM users WHERE name = \(name) AND shop IN ('', \(shop))", logger: Self.logger)
            } else {
                try await client.query("SELECT name, role, password_hash, created FROM users WHERE shop IN ('', \(shop)) ORDER BY name", logger: Self.logger)
            }
            var users: [StoredUser] = []
            for try await (name, role, hash, created) in rows.decode((String, String, String, Int64).self) {
                if let role = StoredUser.Role(rawValue: role) { users.append(StoredUser(name: name, role: role, passwordHash: hash, created: created)) }
            }
            return users
        }
    }

    public func removeUser(named name: String) async throws -> Bool {
        try await transaction { [shop] connection in
            var removed = false
            for try await role in try await connection.query("DELETE FROM users WHERE name = \(name) AND shop IN ('', \(shop)) RETURNING role", logger: Self.logger).decode(String.self) {
                removed = true
                try await Self.endSessions(of: name, everywhere: role == StoredUser.Role.owner.rawValue, shop: shop, connection)
            }
            return removed
        }
    }

    public func setPasswordHash(_ hash: String, forUser name: String) async throws -> Bool {
        try await transaction { [shop] connection in
            var changed = false
            for try await role in try await connection.query("UPDATE users SET password_hash = \(hash) WHERE name = \(name) AND shop IN ('', \(shop)) RETURNING role", logger: Self.logger).decode(String.self) {
                changed = true
                try await Self.endSessions(of: name, everywhere: role == StoredUser.Role.owner.rawValue, shop: shop, connection)
            }
            return changed
        }
    }

    /// Ends a user's sessions (an owner's in every shop).
    private static func endSessions(of name: String, everywhere: Bool, shop: String, _ connection: PostgresConnection) async throws {
        let pattern = StoredEntry.sessionPattern(user: name)
        if everywhere {
            try await connection.query("DELETE FROM sessions WHERE convert_from(value, 'UTF8') LIKE \(pattern)", logger: logger)
        } else {
            try await connection.query("DELETE FROM sessions WHERE shop = \(shop) AND convert_from(value, 'UTF8') LIKE \(pattern)", logger: logger)
        }
    }

    static let failuresToLock = 5
    static let lockWindow: Int64 = 60_000

    public func beginSignIn(user: String, time: Int64) async throws -> SignInAttempt {
        try await transaction { [shop] connection in
            // One sign-in of a user at a time, so attempts made together all count towards the five.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(shop)), hashtext(\(user)))", logger: Self.logger)
            try await connection.query("DELETE FROM sign_in_failures WHERE time < \(time - 2 * Self.lockWindow)", logger: Self.logger)
            var recent: [Int64] = []
            for try await failed in try await connection.query("""
                SELECT time FROM sign_in_failures WHERE shop = \(shop) AND "user" = \(user) ORDER BY time DESC LIMIT \(Self.failuresToLock)
                """, logger: Self.logger).decode(Int64.self) { recent.append(failed) }
            if recent.count == Self.failuresToLock, let newest = recent.first, let oldest = recent.last,
               newest - oldest <= Self.lockWindow, time < newest + Self.lockWindow {
                return .locked(until: newest + Self.lockWindow)
            }
            for try await id in try await connection.query("""
                INSERT INTO sign_in_failures (shop, "user", time) VALUES (\(shop), \(user), \(time)) RETURNING id
                """, logger: Self.logger).decode(Int64.self) { return .allowed(attempt: id) }
            throw StorageError.failed("a sign-in attempt could not be recorded")
        }
    }

    public func signInSucceeded(attempt: Int64) async throws {
        try await execute("DELETE FROM sign_in_failures WHERE id = \(attempt)")
    }

    // MARK: Sessions

    public func setSession(key: String, value: [UInt8], expires: Int64) async throws {
        try await execute("""
            INSERT INTO sessions (shop, key, value, expires) VALUES (\(shop), \(key), \(Data(value)), \(expires))
            ON CONFLICT (shop, key) DO UPDATE SET value = excluded.value, expires = excluded.expires
            """)
    }

    public func session(key: String, now: Int64) async throws -> [UInt8]? {
        try await read { [shop] client in
            for try await value in try await client.query("SELECT value FROM sessions WHERE shop = \(shop) AND key = \(key) AND expires > \(now)", logger: Self.logger).decode(Data.self) {
                return [UInt8](value)
            }
            return nil
        }
    }

    public func removeSession(key: String) async throws {
        try await execute("DELETE FROM sessions WHERE shop = \(shop) AND key = \(key)")
    }

    public func removeExpiredSessions(now: Int64) async throws {
        try await execute("DELETE FROM sessions WHERE shop = \(shop) AND expires <= \(now)")
    }

    // MARK: Helpers

    private func bodies(_ query: PostgresQuery) async throws -> [JournalEntry] {
        let bodies: [String] = try await read { client in
            var bodies: [String] = []
            for try await body in try await client.query(query, logger: Self.logger).decode(String.self) { bodies.append(body) }
            return bodies
        }
        return try bodies.map(StoredEntry.entry(from:))
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
        let client = client
        try breaker.check()
        do {
            return try await Self.withDeadline(Self.deadline) { try await body(client) }
        } catch {
            let failure = Self.storageError(error)
            if case .unavailable = failure { breaker.trip() }
            throw failure
        }
    }

    private func execute(_ query: PostgresQuery) async throws {
        try await read { client in try await client.query(query, logger: Self.logger) }
    }

    /// Runs `body` in one transaction on a pooled connection.
    private func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await read { client in
            try await client.withConnection { connection in
                try await Self.inTransaction(connection, body)
            }
        }
    }

    static func inTransaction<T: Sendable>(_ connection: PostgresConnection, _ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        do {
            let value = try await body(connection)
            try await connection.query("COMMIT", logger: logger)
            return value
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Runs `operation`, or throws `StorageError.unavailable` once `limit`
    /// has passed. The operation is abandoned (cancelled, not awaited): a
    /// query on a connection the server dropped mid-way can ignore
    /// cancellation for as long as the socket lives, and a task group,
    /// which waits for every child, held tills for 30 s and more while
    /// PostgreSQL restarted (test_chain.py).
    static func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = DeadlineRace<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let work = Task { race.finish(await Result(catching: { try await operation() })) }
            Task {
                try? await Task.sleep(for: limit)
                if race.finish(.failure(StorageError.unavailable("the database did not answer within \(limit.components.seconds) s"))) {
                    work.cancel()
                }
            }
        }
    }

    static func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            // A refused or failed connection: the system's reason (no such socket, connection refused).
            if let underlying = error.underlying { return String(describing: underlying) }
            return "\(error.code)"
        }
        if let error = error as? StorageError { return error.description }
        return String(describing: error)
    }

    /// What an error from postgres-nio means for the caller.
    static func storageError(_ error: any Error) -> StorageError {
        if let error = error as? StorageError { return error }
        if let error = error as? PSQLError {
            if error.code == .server, let state = error.serverInfo?[.sqlState] {
                let message = error.serverInfo?[.message] ?? state
                switch state {
                case "23505", "23P01": return .duplicate(message)
                case "53100": return .cannotWrite("the database server's disk is full; nothing was written")
                case "25006": return .cannotWrite("the database is read-only; nothing was written")
                case _ where state.hasPrefix("08") || state.hasPrefix("57") || state.hasPrefix("53"):
                    return .unavailable("the database is not available (\(message)); try again")
                default: return .failed(message)
                }
            }
            return .unavailable("the database is not available (\(error.code)); try again")
        }
        if error is CancellationError { return .unavailable("the request was cancelled") }
        // A lost or refused connection, the pool's circuit breaker, a closed channel.
        return .unavailable("the database is not available (\(String(describing: error).prefix(200))); try again")
    }
}

/// The one connection that holds the shop's advisory lock, and on which
/// alone the shop's journal is written.
actor ShopWriter {
    let configuration: PostgresConnection.Configuration
    let shop: String
    let shopID: Int64
    private var connection: PostgresConnection?
    /// Whether `take` was ever called: only then does a write take the lock again.
    private var taken = false

    init(configuration: PostgresConnection.Configuration, shop: String, shopID: Int64) {
        self.configuration = configuration
        self.shop = shop
        self.shopID = shopID
    }

    /// Takes the shop, or says who holds it.
    func take() async throws {
        taken = true
        _ = try await lockedConnection()
    }

    /// Runs `body` in a transaction on the lock's connection.
    func write(_ body: @escaping @Sendable (PostgresConnection) async throws -> Void) async throws {
        guard taken else { throw StorageError.failed("the shop must be taken before its journal is written") }
        do {
            let connection = try await lockedConnection()
            // A dropped server can leave a query waiting on its socket: the
            // deadline answers the till, and the connection is dropped.
            try await PostgresShopStorage.withDeadline(PostgresShopStorage.deadline) {
                try await PostgresShopStorage.inTransaction(connection, body)
            }
        } catch {
            let failure = PostgresShopStorage.storageError(error)
            if case .unavailable = failure { await drop() }
            throw failure
        }
    }

    /// The connection holding the lock, connecting and locking again when it was lost.
    private func lockedConnection() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        await drop()
        let configuration = configuration
        let fresh: PostgresConnection
        do {
            fresh = try await PostgresShopStorage.withDeadline(PostgresShopStorage.deadline) {
                try await PostgresConnection.connect(configuration: configuration, id: 1, logger: PostgresShopStorage.logger)
            }
        } catch {
            throw PostgresShopStorage.storageError(error)
        }
        do {
            var locked = false
            for try await got in try await fresh.query("SELECT pg_try_advisory_lock(\(PostgresShopStorage.lockClass), \(Int32(truncatingIfNeeded: shopID)))", logger: PostgresShopStorage.logger).decode(Bool.self) {
                locked = got
            }
            guard locked else {
                let holder = await Self.holder(of: shopID, on: fresh)
                try? await fresh.close()
                throw StorageError.shopTaken("another juice-serve is serving the shop '\(shop)'\(holder.map { " (\($0))" } ?? ""); stop it first, or give another --shop")
            }
        } catch let error as StorageError {
            throw error
        } catch {
            try? await fresh.close()
            throw PostgresShopStorage.storageError(error)
        }
        connection = fresh
        return fresh
    }

    /// Who holds the shop's lock, as PostgreSQL knows the session: its application name, address and start.
    private static func holder(of shopID: Int64, on connection: PostgresConnection) async -> String? {
        guard let rows = try? await connection.query("""
            SELECT coalesce(a.application_name, ''), coalesce(host(a.client_addr), 'local socket'), a.pid, to_char(a.backend_start, 'YYYY-MM-DD HH24:MI:SS TZ')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = \(Int64(PostgresShopStorage.lockClass))
                AND l.objid::bigint = \(Int64(Int32(truncatingIfNeeded: shopID)) & 0xFFFF_FFFF) AND l.objsubid = 2
            """, logger: PostgresShopStorage.logger) else { return nil }
        do {
            for try await (application, address, pid, started) in rows.decode((String, String, Int32, String).self) {
                return "held by \(application.isEmpty ? "a session" : application), database session \(pid) from \(address), since \(started)"
            }
        } catch {}
        return nil
    }

    private func drop() async {
        if let connection { try? await connection.close() }
        connection = nil
    }

    func close() async {
        await drop()
        taken = false
    }
}

/// A `postgres://` URL, read as libpq reads it: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
/// with `?host=/folder` (or an empty host) for a Unix socket in that folder,
/// and `?sslmode=disable|prefer|require`. The password may also come from `PGPASSWORD`.
struct PostgresURL {
    var user: String
    var password: String?
    var host: String?
    var socketFolder: String?
    var port: Int
    var database: String
    var sslMode: String

    init(_ text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw StorageError.unusableDatabase("'\(Self.masked(text))' is not a postgres:// URL")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? query["user"] ?? ProcessInfo.processInfo.environment["PGUSER"] ?? "postgres"
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding } ?? query["password"] ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
        port = components.port ?? query["port"].flatMap { Int($0) } ?? 5432
        guard (1...65535).contains(port) else { throw StorageError.unusableDatabase("the port in '\(Self.masked(text))' is not 1 to 65535") }
        let named = components.host.flatMap { $0.removingPercentEncoding } ?? ""
        if let folder = query["host"], folder.hasPrefix("/") {
            socketFolder = folder
        } else if named.isEmpty {
            socketFolder = "/var/run/postgresql"
        } else {
            host = named
        }
        let path = String(components.percentEncodedPath.drop(while: { $0 == "/" })).removingPercentEncoding ?? ""
        database = path.isEmpty ? (query["dbname"] ?? user) : path
        sslMode = query["sslmode"] ?? "prefer"
        guard ["disable", "allow", "prefer", "require"].contains(sslMode) else {
            throw StorageError.unusableDatabase("sslmode '\(sslMode)' is not one of disable, prefer, require")
        }
        display = Self.masked(text)
    }

    /// The URL with its password replaced by `***`, for messages and logs.
    let display: String

    static func masked(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "the database URL" }
        if components.password != nil { components.password = "***" }
        components.queryItems = components.queryItems?.map { $0.name == "password" ? URLQueryItem(name: "password", value: "***") : $0 }
        return components.string ?? "the database URL"
    }

    var socketPath: String? { socketFolder.map { ($0 as NSString).appendingPathComponent(".s.PGSQL.\(port)") } }

    func clientConfiguration() -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database,
                                  tls: sslMode == "disable" ? .disable : sslMode == "require" ? .require(.makeClientConfiguration()) : .prefer(.makeClientConfiguration()))
        }
        configuration.options.additionalStartupParameters = [("synchronous_commit", "on"), ("application_name", "juice-serve")]
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = 16
        return configuration
    }

    func connectionConfiguration(application: String) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database,
                                  tls: sslMode == "disable" ? .disable : sslMode == "require" ? .require(try .init(configuration: .makeClientConfiguration())) : .prefer(try .init(configuration: .makeClientConfiguration())))
        }
        let name = "\(application) pid \(ProcessInfo.processInfo.processIdentifier) on \(ProcessInfo.processInfo.hostName)"
        configuration.options.additionalStartupParameters = [("synchronous_commit", "on"), ("application_name", String(name.prefix(63)))]
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}

/// After a call found the database away, the calls of the next second fail
/// at once with `unavailable` instead of each waiting out the 5 s deadline
/// in the pool's queue: the service decides its batches one after another,
/// so waits added up, and a till waited past 15 s for its 503 while
/// PostgreSQL restarted (test_chain.py). The first call after the second
/// tries the database again.
final class Breaker: @unchecked Sendable {
    // Read and written under `lock` only.
    private var openUntil: ContinuousClock.Instant?
    private let lock = NSLock()

    func check() throws {
        let open = lock.withLock { openUntil.map { ContinuousClock.now < $0 } ?? false }
        if open { throw StorageError.unavailable("the database is not available; try again") }
    }

    func trip() {
        lock.withLock { openUntil = ContinuousClock.now.advanced(by: .seconds(1)) }
    }
}

/// The first of an operation and its deadline to finish resumes the caller; the other is ignored.
final class DeadlineRace<T: Sendable>: @unchecked Sendable {
    // Read and written under `lock` only.
    private var continuation: CheckedContinuation<T, any Error>?
    private var early: Result<T, any Error>?
    private var done = false
    private let lock = NSLock()

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let ready: Result<T, any Error>? = lock.withLock {
            if let early { return early }
            self.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Returns whether this call decided the race.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (decided, waiting): (Bool, CheckedContinuation<T, any Error>?) = lock.withLock {
            guard !done else { return (false, nil) }
            done = true
            guard let continuation else {
                early = result
                return (true, nil)
            }
            self.continuation = nil
            return (true, continuation)
        }
        waiting?.resume(with: result)
        return decided
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
