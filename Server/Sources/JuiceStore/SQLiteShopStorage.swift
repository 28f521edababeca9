import Foundation
internal import GRDB
import JuiceShop
#if canImport(Glibc)
import Glibc
#endif

/// The embedded store: one SQLite file in WAL mode, through GRDB.
///
/// Every change is one transaction, committed with `synchronous = FULL`, so
/// the WAL is fsync'd before a call returns: what the server acknowledges
/// survives kill -9 and power loss. The journal table refuses UPDATE and
/// DELETE (triggers), and unique indexes refuse a repeated client id and a
/// second correction of one order, whatever the caller checked.
///
/// Opening checks that the file is ours (`application_id`), that its schema
/// is not newer than this build's, and runs the versioned migrations, each
/// in its own transaction (GRDB's `DatabaseMigrator`).
public final class SQLiteShopStorage: ShopStorage {
    /// 'JUIC' in ASCII: written into every database this store makes, so a
    /// foreign SQLite file is refused instead of altered.
    static let applicationID: Int32 = 0x4A55_4943

    private let pool: DatabasePool
    public let path: String
    /// A SQLite file holds one shop, always called this; a chain of shops
    /// shares a PostgreSQL database instead.
    public static let shopName = "main"
    public var shop: String { Self.shopName }
    /// The descriptor whose `flock` holds the shop (`takeShop`), kept open for the process's life.
    private let lockDescriptor = LockDescriptor()
    /// Whether the database was opened read-only: its file is write-protected
    /// (no write permission bit, honoured even for root) or cannot be written
    /// by this process. Reads work; every write throws `cannotWrite`.
    public let isReadOnly: Bool

    /// Opens (or creates) the database at `path`.
    ///
    /// An existing file is first looked at through a read-only connection,
    /// so that a foreign, corrupt or newer file is refused without a byte of
    /// it changed (opening the pool would turn on WAL mode). A
    /// write-protected file is opened read-only: the shop can be read, and
    /// every change is refused.
    ///
    /// - Throws: `StorageError.unusableDatabase` for a file that is not
    ///   SQLite, is corrupt, belongs to another program, or has a schema
    ///   newer than this build knows.
    public init(path: String) throws {
        self.path = path
        let migrator = Self.migrator
        do {
            let existing = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0 > 0
            if existing { try Self.inspect(path, migrator: migrator) }
            isReadOnly = existing && !Self.isWritable(path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            configuration.readonly = isReadOnly
            pool = try DatabasePool(path: path, configuration: configuration)
            if isReadOnly {
                let upToDate = try pool.read { db in try migrator.hasCompletedMigrations(db) }
                guard upToDate else {
                    throw StorageError.unusableDatabase("'\(path)' is read-only and its schema needs an upgrade first; make it writable once")
                }
            } else {
                // FULL: the WAL is synced at every commit, so a commit that
                // returned is on disk (NORMAL would sync only at checkpoints).
                // Set on the writer after the pool is open: GRDB's WAL set-up
                // turns it to NORMAL.
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
                try pool.write { db in
                    if try Int32.fetchOne(db, sql: "PRAGMA application_id") != Self.applicationID {
                        try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
                    }
                }
                try migrator.migrate(pool)
            }
            try pool.read { db in
                let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "?"
                guard check == "ok" else { throw StorageError.unusableDatabase("'\(path)' is damaged: \(check)") }
            }
        } catch let error as StorageError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN && !Self.isWritable(path) {
            throw StorageError.unusableDatabase("cannot read '\(path)': SQLite writes a '-shm' file beside a WAL database even to read it, and its folder cannot be written (\(Self.describe(error)))")
        } catch let error as DatabaseError {
            throw StorageError.unusableDatabase("cannot use '\(path)' as a juice-serve database: \(Self.describe(error))")
        } catch {
            throw StorageError.unusableDatabase("cannot open '\(path)': \(error)")
        }
    }

    /// Refuses, through a read-only connection, a file that is not this
    /// program's database (foreign, not SQLite, damaged) or whose schema is
    /// newer than this build's. An SQLite file with no tables is taken.
    private static func inspect(_ path: String, migrator: DatabaseMigrator) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in
            let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            guard id == Self.applicationID || (id == 0 && tables == 0) else {
                throw StorageError.unusableDatabase("'\(path)' is an SQLite database of another program (application_id \(id)); juice-serve will not change it")
            }
            if try migrator.hasBeenSuperseded(db) {
                let newer = try migrator.appliedIdentifiers(db).subtracting(Set(migrator.migrations)).sorted()
                throw StorageError.unusableDatabase("'\(path)' has a newer schema (\(newer.joined(separator: ", "))) than this juice-serve knows; use a newer juice-serve")
            }
        }
    }

    /// Whether this process may write the file and the folder beside it
    /// (SQLite writes the WAL there). A file without any write permission
    /// bit counts as write-protected even for root, who could write it
    /// anyway: the operator who took the bits away meant it.
    private static func isWritable(_ path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber else { return true }
        return mode.intValue & 0o222 != 0
            && access(path, W_OK) == 0
            && access(folder.isEmpty ? "." : folder, W_OK) == 0
    }

    /// The schema's versions, oldest first; each runs once, in a transaction.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1-journal-users-sessions") { db in
            try db.execute(sql: """
                CREATE TABLE journal (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    day TEXT NOT NULL,
                    time INTEGER NOT NULL,
                    user TEXT NOT NULL,
                    till TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    client_id TEXT,
                    target INTEGER,
                    body TEXT NOT NULL
                );
                CREATE INDEX journal_day ON journal(day, sequence);
                CREATE INDEX journal_kind ON journal(kind, sequence);
                CREATE UNIQUE INDEX journal_client_id ON journal(client_id) WHERE client_id IS NOT NULL;
                CREATE UNIQUE INDEX journal_correction ON journal(target) WHERE kind IN ('void', 'refund');
                CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
                    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
                CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal
                    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
                CREATE TABLE users (
                    name TEXT PRIMARY KEY,
                    role TEXT NOT NULL CHECK (role IN ('manager', 'staff')),
                    password_hash TEXT NOT NULL,
                    created INTEGER NOT NULL
                );
                CREATE TABLE sessions (
                    key TEXT PRIMARY KEY,
                    value BLOB NOT NULL,
                    expires INTEGER NOT NULL
                );
                CREATE TABLE sign_in_failures (
                    user TEXT NOT NULL,
                    time INTEGER NOT NULL
                );
                CREATE INDEX sign_in_failures_user ON sign_in_failures(user, time);
                """)
        }
        // The owner role: SQLite cannot change a CHECK constraint, so the
        // users table is made again with the wider one, its rows copied.
        migrator.registerMigration("2-owner-role") { db in
            try db.execute(sql: """
                CREATE TABLE users_new (
                    name TEXT PRIMARY KEY,
                    role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'staff')),
                    password_hash TEXT NOT NULL,
                    created INTEGER NOT NULL
                );
                INSERT INTO users_new (name, role, password_hash, created) SELECT name, role, password_hash, created FROM users;
                DROP TABLE users;
                ALTER TABLE users_new RENAME TO users;
                """)
        }
        return migrator
    }

    // MARK: The shop

    /// Holds an exclusive `flock` on the database file itself for as long as
    /// the process lives, so a second server (or a stock import) on the same
    /// database is refused, whatever path names the file (a symbolic or hard
    /// link too). SQLite's own locks are `fcntl` locks, which a `flock`
    /// leaves alone. A read-only descriptor is enough, so a write-protected
    /// database can be locked too.
    public func takeShop() async throws {
        try lockDescriptor.lock(path)
    }

    public func shops() async throws -> [String] { [Self.shopName] }

    public func storage(forShop name: String) async throws -> any ShopStorage {
        guard name == Self.shopName else { throw StorageError.unknownShop(name) }
        return self
    }

    public func close() async {}

    // MARK: The journal

    public func append(_ entries: [JournalEntry]) async throws {
        guard !entries.isEmpty else { return }
        try refuseIfWriteProtected()
        let rows = try entries.map { entry in
            let (clientID, target) = StoredEntry.keys(of: entry.event)
            let body = try StoredEntry.body(of: entry)
            return (entry, clientID, target, body)
        }
        do {
            try await pool.write { db in
                for (entry, clientID, target, body) in rows {
                    try db.execute(
                        sql: "INSERT INTO journal (sequence, day, time, user, till, kind, client_id, target, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        arguments: [entry.sequence, entry.day, entry.time, entry.user, entry.till, entry.event.kind, clientID, target, body])
                }
            }
        } catch let error as DatabaseError {
            throw Self.storageError(error)
        }
    }

    public func lastSequence() async throws -> Int64 {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM journal") ?? 0 }
    }

    public func entries(day: String) async throws -> [JournalEntry] {
        try await read { db in try Self.decodeRows(db, sql: "SELECT body FROM journal WHERE day = ? ORDER BY sequence", arguments: [day]) }
    }

    public func entriesOfLastDay() async throws -> [JournalEntry] {
        try await read { db in
            let start = try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM journal WHERE kind = 'day-open'") ?? 0
            return try Self.decodeRows(db, sql: "SELECT body FROM journal WHERE sequence >= ? ORDER BY sequence", arguments: [start])
        }
    }

    public func entry(sequence: Int64) async throws -> JournalEntry? {
        try await read { db in try Self.decodeRows(db, sql: "SELECT body FROM journal WHERE sequence = ?", arguments: [sequence]).first }
    }

    public func entry(clientID: String) async throws -> JournalEntry? {
        try await read { db in
            try Self.decodeRows(db, sql: "SELECT body FROM journal WHERE client_id = ?", arguments: [clientID]).first
        }
    }

    public func entries(clientIDs: [String]) async throws -> [String: JournalEntry] {
        guard !clientIDs.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: JournalEntry] = [:]
            // SQLite takes at most 32,766 bound values a statement; 500 at a time stays far below.
            for start in stride(from: 0, to: clientIDs.count, by: 500) {
                let chunk = Array(clientIDs[start..<min(start + 500, clientIDs.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                for entry in try Self.decodeRows(db, sql: "SELECT body FROM journal WHERE client_id IN (\(marks))", arguments: StatementArguments(chunk)) {
                    if let id = StoredEntry.keys(of: entry.event).clientID { found[id] = entry }
                }
            }
            return found
        }
    }

    public func correction(of order: Int64) async throws -> JournalEntry? {
        try await read { db in
            try Self.decodeRows(db, sql: "SELECT body FROM journal WHERE target = ? AND kind IN ('void', 'refund')", arguments: [order]).first
        }
    }

    public func days() async throws -> [String] {
        try await read { db in try String.fetchAll(db, sql: "SELECT DISTINCT day FROM journal ORDER BY day DESC") }
    }

    // MARK: Users

    public func addUser(_ user: StoredUser) async throws {
        try refuseIfWriteProtected()
        do {
            try await pool.write { db in
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM users WHERE name = ?", arguments: [user.name]) ?? 0 > 0 {
                    throw StorageError.userExists(user.name)
                }
                try db.execute(sql: "INSERT INTO users (name, role, password_hash, created) VALUES (?, ?, ?, ?)",
                               arguments: [user.name, user.role.rawValue, user.passwordHash, user.created])
            }
        } catch let error as DatabaseError {
            throw Self.storageError(error)
        }
    }

    public func user(named name: String) async throws -> StoredUser? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT name, role, password_hash, created FROM users WHERE name = ?", arguments: [name]).flatMap(Self.user)
        }
    }

    public func users() async throws -> [StoredUser] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT name, role, password_hash, created FROM users ORDER BY name").compactMap(Self.user)
        }
    }

    public func removeUser(named name: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM users WHERE name = ?", arguments: [name])
            let removed = db.changesCount > 0
            try Self.endSessions(of: name, db)
            return removed
        }
    }

    public func setPasswordHash(_ hash: String, forUser name: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE name = ?", arguments: [hash, name])
            let changed = db.changesCount > 0
            try Self.endSessions(of: name, db)
            return changed
        }
    }

    /// Ends a user's sessions.
    private static func endSessions(of name: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM sessions WHERE CAST(value AS TEXT) LIKE ? ESCAPE '\\'", arguments: [StoredEntry.sessionPattern(user: name)])
    }

    /// How many failures within `lockWindow` milliseconds lock a user, and for how long.
    static let failuresToLock = 5
    static let lockWindow: Int64 = 60_000

    public func beginSignIn(user: String, time: Int64) async throws -> SignInAttempt {
        try await write { db in
            // Failures older than two windows can neither lock nor be part of a lock now.
            try db.execute(sql: "DELETE FROM sign_in_failures WHERE time < ?", arguments: [time - 2 * Self.lockWindow])
            let recent = try Int64.fetchAll(db, sql: "SELECT time FROM sign_in_failures WHERE user = ? ORDER BY time DESC LIMIT ?",
                                            arguments: [user, Self.failuresToLock])
            if recent.count == Self.failuresToLock, let newest = recent.first, let oldest = recent.last,
               newest - oldest <= Self.lockWindow, time < newest + Self.lockWindow {
                return .locked(until: newest + Self.lockWindow)
            }
            try db.execute(sql: "INSERT INTO sign_in_failures (user, time) VALUES (?, ?)", arguments: [user, time])
            return .allowed(attempt: db.lastInsertedRowID)
        }
    }

    public func signInSucceeded(attempt: Int64) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM sign_in_failures WHERE rowid = ?", arguments: [attempt]) }
    }

    // MARK: Sessions

    public func setSession(key: String, value: [UInt8], expires: Int64) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO sessions (key, value, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires",
                           arguments: [key, Data(value), expires])
        }
    }

    public func session(key: String, now: Int64) async throws -> [UInt8]? {
        try await read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM sessions WHERE key = ? AND expires > ?", arguments: [key, now]).map { [UInt8]($0) }
        }
    }

    public func removeSession(key: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM sessions WHERE key = ?", arguments: [key]) }
    }

    public func removeExpiredSessions(now: Int64) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM sessions WHERE expires <= ?", arguments: [now]) }
    }

    // MARK: Helpers

    private func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do { return try await pool.read(body) } catch let error as DatabaseError { throw Self.storageError(error) }
    }

    private func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        try refuseIfWriteProtected()
        do { return try await pool.write(body) } catch let error as DatabaseError { throw Self.storageError(error) }
    }

    private static func decodeRows(_ db: Database, sql: String, arguments: StatementArguments) throws -> [JournalEntry] {
        try String.fetchAll(db, sql: sql, arguments: arguments).map(StoredEntry.entry(from:))
    }

    /// A database whose file loses every write permission bit while the
    /// server runs is read-only from then on, until a bit comes back: SQLite
    /// would go on writing through the descriptor it opened, and whoever
    /// took the bits away (root too) meant it. One `stat` a write.
    private func refuseIfWriteProtected() throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o222 == 0 else { return }
        throw StorageError.cannotWrite("the database is read-only (its file is write-protected); nothing was written")
    }

    private static func user(_ row: Row) -> StoredUser? {
        guard let role = StoredUser.Role(rawValue: row["role"]) else { return nil }
        return StoredUser(name: row["name"], role: role, passwordHash: row["password_hash"], created: row["created"])
    }

    static func describe(_ error: DatabaseError) -> String {
        error.message ?? "\(error.resultCode)"
    }

    static func storageError(_ error: DatabaseError) -> StorageError {
        switch error.resultCode {
        case .SQLITE_CONSTRAINT:
            .duplicate(describe(error))
        case .SQLITE_FULL:
            .cannotWrite("the disk is full; nothing was written")
        case .SQLITE_READONLY:
            .cannotWrite("the database is read-only; nothing was written")
        case .SQLITE_IOERR, .SQLITE_CANTOPEN:
            .cannotWrite("the database cannot be written (\(describe(error))); nothing was written")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            .unusableDatabase("the database is damaged: \(describe(error))")
        default:
            .failed(describe(error))
        }
    }
}

/// The open descriptor of a `flock`, once taken.
private final class LockDescriptor: @unchecked Sendable {
    // Set once, under the lock below; read by nothing else.
    private var descriptor: Int32 = -1
    private let mutex = NSLock()

    func lock(_ path: String) throws {
        mutex.lock()
        defer { mutex.unlock() }
        guard descriptor < 0 else { return }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw StorageError.failed("cannot open '\(path)': \(String(cString: strerror(errno)))")
        }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            close(opened)
            throw StorageError.shopTaken("another juice-serve is using '\(path)'; stop it first (or give another --database)")
        }
        descriptor = opened
    }
}
