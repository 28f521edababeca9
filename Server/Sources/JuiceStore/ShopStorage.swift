import JuiceShop

/// The one storage protocol behind the web counter: the journal, the users
/// and the sessions of one shop. SQLite (`SQLiteShopStorage`) is the
/// embedded store, one file for one shop; PostgreSQL
/// (`PostgresShopStorage`) holds a chain of shops in one database, each
/// shop's journal, days and users its own.
///
/// The promise every store keeps: a call that returns has made its change
/// durable (on SQLite, the WAL is fsync'd at commit; on PostgreSQL, the
/// commit waits for the server's WAL flush), and a call that throws has
/// changed nothing (but see `StorageError.unavailable`). Journal entries are
/// only ever appended.
public protocol ShopStorage: Sendable {
    /// The shop this store reads and writes.
    var shop: String { get }

    /// Takes the shop for this process, for as long as it runs: a second
    /// process that asks for the same shop is refused
    /// (`StorageError.shopTaken`, saying who holds it). Only the process that
    /// holds its shop writes its journal, so sequences never clash.
    func takeShop() async throws

    /// The shops the database holds, by name, sorted.
    func shops() async throws -> [String]

    /// The same database as another shop's store, for reading it (the
    /// owner's views of the chain). Throws `StorageError.unknownShop`.
    func storage(forShop name: String) async throws -> any ShopStorage

    /// Lets go of the database (connections, locks).
    func close() async


    /// Appends `entries`, whose sequences the caller gave (the last one
    /// written plus one, and on), in one transaction: all are durable when
    /// it returns, or none is written. A repeated sequence or client id, or
    /// a second void or refund of one order, throws `StorageError.duplicate`.
    /// One transaction for many entries is the server's group commit.
    func append(_ entries: [JournalEntry]) async throws

    /// The largest sequence written, 0 for an empty journal.
    func lastSequence() async throws -> Int64

    /// The entries of one shop day, in journal order.
    func entries(day: String) async throws -> [JournalEntry]

    /// The entries from the last day-open on, in journal order: what a
    /// restarted server replays to rebuild the open day's stock.
    func entriesOfLastDay() async throws -> [JournalEntry]

    /// One entry by its sequence.
    func entry(sequence: Int64) async throws -> JournalEntry?

    /// The order, refusal or stock change written for a till's client id.
    func entry(clientID: String) async throws -> JournalEntry?

    /// The entries written for any of these client ids, by client id: one
    /// read for a whole batch of requests.
    func entries(clientIDs: [String]) async throws -> [String: JournalEntry]

    /// The void or refund of an order, if there is one.
    func correction(of order: Int64) async throws -> JournalEntry?

    /// The days that have entries, newest first.
    func days() async throws -> [String]

    // MARK: Users

    func addUser(_ user: StoredUser) async throws
    func user(named name: String) async throws -> StoredUser?
    func users() async throws -> [StoredUser]
    /// Removes a user and their sessions; false when there was none.
    func removeUser(named name: String) async throws -> Bool
    /// Replaces a user's password hash and ends their sessions; false when there is no such user.
    func setPasswordHash(_ hash: String, forUser name: String) async throws -> Bool

    /// Begins a sign-in of `user` at `time` (milliseconds). A user whose
    /// fifth failed sign-in within a minute was less than a minute ago is
    /// locked until a minute after it. Otherwise the attempt is recorded as
    /// failed at once, in the same transaction as the check, so that
    /// attempts made at the same moment all count towards the five; a
    /// right password takes it back (`signInSucceeded`).
    func beginSignIn(user: String, time: Int64) async throws -> SignInAttempt
    /// Takes back an attempt whose password was right.
    func signInSucceeded(attempt: Int64) async throws

    // MARK: Sessions

    /// Stores a session's value until `expires` (milliseconds since 1970).
    func setSession(key: String, value: [UInt8], expires: Int64) async throws
    /// A session's value, if it exists and has not expired at `now`.
    func session(key: String, now: Int64) async throws -> [UInt8]?
    func removeSession(key: String) async throws
    /// Ends every session that expired before `now`.
    func removeExpiredSessions(now: Int64) async throws
}

/// What `ShopStorage.beginSignIn` decided.
public enum SignInAttempt: Sendable, Hashable {
    /// The attempt may check its password; it counts as failed until `signInSucceeded(attempt:)` takes it back.
    case allowed(attempt: Int64)
    /// The user is locked until this time (milliseconds since 1970).
    case locked(until: Int64)
}

/// A user who may sign in, with a bcrypt hash of their password (never the password).
public struct StoredUser: Sendable, Hashable {
    public var name: String
    public var role: Role
    public var passwordHash: String
    /// When the user was added, milliseconds since 1970.
    public var created: Int64

    public init(name: String, role: Role, passwordHash: String, created: Int64) {
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.created = created
    }

    /// What a user may do: staff order and see their own journal; managers
    /// also edit stock, void, refund and close the day; an owner belongs to
    /// the chain, not to one shop, may do what a manager does in any shop,
    /// and also sees every shop's stock and reports and the chain's report.
    public enum Role: String, Sendable, Hashable, CaseIterable, Codable {
        case owner, manager, staff

        /// Whether the role may do a manager's work (stock, voids, refunds, the day close).
        public var manages: Bool { self != .staff }
    }
}

/// Why a store refused a call.
public enum StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An entry that would repeat a client id, or correct an order twice; nothing was written.
    case duplicate(String)
    /// A user name already taken.
    case userExists(String)
    /// The disk is full, or the database is read-only: nothing was written.
    case cannotWrite(String)
    /// The file is not a juice-serve database: corrupt, foreign, or of a newer schema.
    case unusableDatabase(String)
    /// The database cannot be reached now (a PostgreSQL server restarting,
    /// a connection lost): try again shortly. A write that failed this way
    /// may have been committed; a retry with the same client id finds it.
    case unavailable(String)
    /// Another process holds this shop.
    case shopTaken(String)
    /// No shop of that name is in the database.
    case unknownShop(String)
    /// Anything else the database said.
    case failed(String)

    public var description: String {
        switch self {
        case .duplicate(let why): why
        case .userExists(let name): "a user called '\(name)' already exists"
        case .cannotWrite(let why): why
        case .unusableDatabase(let why): why
        case .unavailable(let why): why
        case .shopTaken(let why): why
        case .unknownShop(let name): "no shop called '\(name)' is in the database"
        case .failed(let why): why
        }
    }
}
