import Foundation
import Hummingbird
import HummingbirdAuth
import JuiceStore
import ServiceLifecycle

/// A signed-in user, as routes see them: the name and the role the store holds now.
public struct ShopUser: Sendable, Hashable {
    public let name: String
    public let role: StoredUser.Role
}

/// What the session cookie stands for, kept in the store: the user, and the
/// CSRF token that unsafe requests must echo in `X-CSRF-Token`.
public struct ShopSession: Codable, Sendable, Hashable {
    public var user: String
    public var csrf: String
    /// When the session's 12-hour idle expiry was last pushed forward
    /// (milliseconds since 1970). It is pushed at most once a minute: pushing
    /// it on every request wrote (and fsync'd) the session with every order,
    /// and halved the orders a second.
    public var renewed: Int64?
}

/// The request context of every route: hummingbird-auth's identity and
/// session, and a 64 KiB cap on request bodies.
public struct ShopRequestContext: AuthRequestContext, SessionRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: ShopUser?
    public let sessions: SessionContext<ShopSession>

    public init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
        sessions = .init()
    }

    /// Request bodies are capped at 64 KiB: nothing the counter sends comes near it.
    public var maxUploadSize: Int { 64 * 1024 }
}

/// hummingbird-auth's session storage, kept in the shop's store (not in
/// memory), so sessions survive a restart and end when they expire.
struct StoredSessionDriver: PersistDriver {
    let storage: any ShopStorage

    private static func milliseconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }

    private static func expiry(_ expires: Duration?) -> Int64 {
        let seconds = expires.map { Double($0.components.seconds) } ?? 12 * 3600
        return milliseconds(Date().addingTimeInterval(seconds))
    }

    func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        if try await storage.session(key: key, now: Self.milliseconds(Date())) != nil { throw PersistError.duplicate }
        try await storage.setSession(key: key, value: Array(try JSONEncoder().encode(value)), expires: Self.expiry(expires))
    }

    func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        do {
            try await storage.setSession(key: key, value: Array(try JSONEncoder().encode(value)), expires: Self.expiry(expires))
        } catch StorageError.cannotWrite(let why) {
            // A session that exists keeps its expiry when the disk is full or
            // read-only, and its request is answered: pushing the idle expiry
            // forward must not turn every read into an error. A new session
            // (a sign-in) has nothing to keep, and is refused.
            guard (try? await storage.session(key: key, now: Self.milliseconds(Date()))) != nil else { throw StorageError.cannotWrite(why) }
        }
    }

    func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        let bytes: [UInt8]?
        do {
            bytes = try await storage.session(key: key, now: Self.milliseconds(Date()))
        } catch {
            // hummingbird-auth would take this for "no session"; the request's
            // record lets SignedInMiddleware answer 503 instead of 401.
            SessionReadFailure.current?.record(error)
            throw error
        }
        guard let bytes else { return nil }
        return try? JSONDecoder().decode(type, from: Data(bytes))
    }

    func remove(key: String) async throws {
        try await storage.removeSession(key: key)
    }

    func shutdown() async throws {}

    func run() async throws {
        // Expired sessions are swept once a minute; a read never returns one
        // anyway. The loop ends when the server shuts down.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await storage.removeExpiredSessions(now: Self.milliseconds(Date()))
                try await Task.sleep(for: .seconds(60))
            }
        }
    }
}

/// Whether the request's session could not be read from the store.
///
/// hummingbird-auth's `SessionMiddleware` takes a session it failed to read
/// for no session at all, so with the database away (PostgreSQL
/// restarting) a signed-in till was told to sign in again (401). The
/// driver records the failure here, in a task-local of the request, and
/// `SignedInMiddleware` answers it with the store's error (503, Retry-After).
final class SessionReadFailure: @unchecked Sendable {
    @TaskLocal static var current: SessionReadFailure?

    // Written and read under `lock` only. (Not Synchronization's Mutex: it needs macOS 15.)
    private var error: (any Error)?
    private let lock = NSLock()

    func record(_ failure: any Error) { lock.withLock { error = failure } }

    var recorded: (any Error)? { lock.withLock { error } }

    /// Sets up the record for each request, outside the session middleware.
    struct Middleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            try await $current.withValue(SessionReadFailure()) { try await next(request, context) }
        }
    }
}
