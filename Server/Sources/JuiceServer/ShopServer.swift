import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdBcrypt
import HTTPTypes
import JuiceShop
import JuiceStore
import Logging
import ServiceLifecycle

/// The web counter: Hummingbird's router with the shop's pages and its
/// JSON API under `/api` (described in `openapi.yaml`). Routes are thin:
/// each decodes the request, asks `ShopService` (and through it the shop's
/// rules), and encodes the answer.
///
/// Every route but sign-in needs a session (hummingbird-auth, stored in the
/// database, HttpOnly, SameSite=Strict, 12 hours idle); manager routes
/// check the role on the server; unsafe methods need the session's CSRF
/// token; every response carries a Content-Security-Policy without inline
/// script, `X-Content-Type-Options` and `frame-ancestors 'none'`.
public struct ShopServer: Sendable {
    public let service: ShopService
    public let storage: any ShopStorage
    public init(service: ShopService, storage: any ShopStorage) {
        self.service = service
        self.storage = storage
    }

    static let idle: Duration = .seconds(12 * 3600)
    /// A bcrypt hash of no one's password, checked for unknown names so that the time taken does not tell which names exist.
    static let decoyHash = "$2b$12$C6UzMDM.H6dfI/f/IKcEeO5B0Y1bX7xqgJH8Yy9GzQXvF7kT6Kf2a"

    public func router() -> Router<ShopRequestContext> {
        let router = Router(context: ShopRequestContext.self)
        // The headers go outside the error middleware, so that an error
        // answer (401, 404, 413…) carries them as every other answer does.
        router.add(middleware: ContentSecurityMiddleware(contentSecurityPolicy: [
            .defaultSrc(.self), .scriptSrc(.self), .styleSrc(.self), .imgSrc(.self), .connectSrc(.self),
            .formAction(.self), .frameAncestors(.none), .baseURI(.none), .objectSrc(.none),
        ]))
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: SessionReadFailure.Middleware())
        router.add(middleware: SessionMiddleware(
            storage: StoredSessionDriver(storage: storage),
            configuration: .init(sessionCookieParameters: .init(name: "juice_session", path: "/", secure: false, sameSite: .strict),
                                 defaultSessionExpiration: Self.idle)))
        router.add(middleware: SignedInMiddleware(storage: storage))

        addSession(to: router)
        addAPI(to: router)
        Pages(server: self).add(to: router)
        return router
    }

    // MARK: Sessions

    private func addSession(to router: Router<ShopRequestContext>) {
        router.post("/api/session") { request, context -> Response in
            try SameOrigin.check(request)
            let body = try await Self.decode(APIBody.SignIn.self, from: request, context: context)
            let now = Self.milliseconds()
            // A name no user can have (ServerLauncher.checkUserName) is only
            // checked against a made-up hash, so it takes as long as any
            // wrong password, and never reaches the store.
            guard (try? ServerLauncher.checkUserName(body.user)) != nil else {
                _ = await Task.detached { Bcrypt.verify(body.password, hash: Self.decoyHash) }.value
                throw APIError(.unauthorized, "bad-credentials", "the user name or password is wrong")
            }
            // Five failures within a minute lock the user for a minute; the
            // attempt counts as failed until the password proves right.
            let attempt: Int64
            switch try await storage.beginSignIn(user: body.user, time: now) {
            case .allowed(let id):
                attempt = id
            case .locked(let until):
                var error = APIError(.tooManyRequests, "locked", "too many failed sign-ins; try again in a minute")
                error.headers[.retryAfter] = String(max(1, (until - now + 999) / 1000))
                throw error
            }
            let user = try await storage.user(named: body.user)
            // The hash is checked even for an unknown user, so the time taken does not tell which names exist.
            let hash = user?.passwordHash ?? Self.decoyHash
            let matches = await Task.detached { Bcrypt.verify(body.password, hash: hash) }.value
            guard let user, matches else {
                throw APIError(.unauthorized, "bad-credentials", "the user name or password is wrong")
            }
            try await storage.signInSucceeded(attempt: attempt)
            let session = ShopSession(user: user.name, csrf: Self.randomToken(), renewed: now)
            context.sessions.createSession(session, expiresIn: Self.idle)
            return try Self.json(APIBody.SignedIn(user: user.name, role: user.role.rawValue, csrf: session.csrf))
        }
        router.delete("/api/session") { request, context -> Response in
            guard context.identity != nil else { throw APIError.signInNeeded }
            try CSRF.check(request, context)
            context.sessions.clearSession()
            return Response(status: .noContent)
        }
    }

    // MARK: The API

    private func addAPI(to router: Router<ShopRequestContext>) {
        let api = router.group("/api")
        api.get("/shop") { _, context -> Response in
            let user = try context.requireUser()
            return try Self.json(await shopState(for: user))
        }
        api.post("/orders") { request, context -> Response in
            let user = try context.requireUser()
            try CSRF.check(request, context)
            let body = try await Self.decode(APIBody.OrderRequest.self, from: request, context: context)
            try Self.checkClientID(body.id)
            let actor = ShopService.Actor(user: user.name, role: user.role, till: Self.till(body.till))
            let outcome = await service.submit(.order(item: body.item, quantity: body.quantity, clientID: body.id, resolves: body.resolves), by: actor)
            switch outcome {
            case .success(.written(let entry)), .success(.repeated(let entry)):
                return try Self.orderAnswer(entry)
            case .failure(let failure):
                throw APIError(failure)
            }
        }
        api.get("/journal") { request, context -> Response in
            let user = try context.requireUser()
            let day: String
            if let asked = request.uri.queryParameters.get("day") {
                day = try Self.checkDay(String(asked))
            } else {
                day = await service.currentDay()
            }
            var limit = Int.max
            if let asked = request.uri.queryParameters.get("limit") {
                guard let number = Int(String(asked)), number >= 1 else {
                    throw APIError(.badRequest, "bad-limit", "the limit is a whole number of entries, at least 1")
                }
                limit = number
            }
            var entries = try await service.entries(day: day)
            if !user.role.manages { entries = entries.filter { $0.user == user.name } }
            if let till = request.uri.queryParameters.get("till") { entries = entries.filter { $0.till == String(till) } }
            if let name = request.uri.queryParameters.get("user") { entries = entries.filter { $0.user == String(name) } }
            return try Self.json(APIBody.Journal(day: day, entries: Array(entries.reversed().prefix(limit))))
        }
        api.post("/orders/{id}/void") { request, context -> Response in
            try await correct(request, context, void: true)
        }
        api.post("/orders/{id}/refund") { request, context -> Response in
            try await correct(request, context, void: false)
        }
        api.post("/stock") { request, context -> Response in
            let user = try context.requireManager()
            try CSRF.check(request, context)
            let body = try await Self.decode(APIBody.StockRequest.self, from: request, context: context)
            let edit: Shop.StockEdit
            switch (body.set, body.add) {
            case (let value?, nil): edit = .set(value)
            case (nil, let amount?): edit = .add(amount)
            default: throw APIError(.unprocessableContent, "bad-stock-change", "give exactly one of 'set' and 'add'")
            }
            if let id = body.id { try Self.checkClientID(id) }
            let outcome = await service.submit(.stock(name: body.fruit, edit: edit, clientID: body.id),
                                               by: .init(user: user.name, role: user.role, till: Self.till(body.till)))
            switch outcome {
            case .success(.written(let entry)): return try Self.json(entry, status: .created)
            case .success(.repeated(let entry)): return try Self.json(entry, status: .ok)
            case .failure(let failure): throw APIError(failure)
            }
        }
        api.post("/day/close") { request, context -> Response in
            let user = try context.requireManager()
            try CSRF.check(request, context)
            // The day the body names, so that a retry cannot close the next
            // day too; without a body, the one open now.
            let day: String
            if let named = try await Self.decodeIfPresent(APIBody.CloseDay.self, from: request, context: context)?.day {
                day = try Self.checkDay(named)
            } else if let open = await service.shop.openDay {
                day = open
            } else {
                throw APIError(ShopError.noDayOpen)
            }
            switch await service.submit(.closeDay(day), by: .init(user: user.name, role: user.role, till: "api")) {
            case .success: return try Self.json(APIBody.Report(try await service.report(day: day)))
            case .failure(let failure): throw APIError(failure)
            }
        }
        api.get("/day/{date}/report") { request, context -> Response in
            let user = try context.requireManager()
            _ = user
            let day = try Self.checkDay(context.parameters.get("date") ?? "")
            let format = request.uri.queryParameters.get("format").map { String($0) } ?? "json"
            guard format == "json" || format == "csv" else { throw APIError(.badRequest, "bad-format", "the format is json or csv") }
            let report = APIBody.Report(try await service.report(day: day))
            if format == "csv" {
                return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"z-report-\(day).csv\""],
                                body: .init(byteBuffer: ByteBuffer(string: ReportCSV.render(report))))
            }
            return try Self.json(report)
        }
        api.get("/chain") { _, context -> Response in
            _ = try context.requireOwner()
            let shops = try await service.chain().map { summary in
                let shop = summary.shop
                return APIBody.ChainShop(
                    shop: summary.name, day: shop.openDay ?? shop.lastDay, dayOpen: shop.openDay != nil, sequence: shop.lastSequence,
                    stock: Dictionary(shop.stockByID.fruit.map { ($0.id, $0.count) }, uniquingKeysWith: { first, _ in first }),
                    servings: Dictionary(shop.stockByID.servings.map { ($0.id, $0.count) }, uniquingKeysWith: { first, _ in first }))
            }
            return try Self.json(APIBody.Chain(shops: shops))
        }
        api.get("/chain/report") { request, context -> Response in
            _ = try context.requireOwner()
            let day: String
            if let asked = request.uri.queryParameters.get("day") {
                day = try Self.checkDay(String(asked))
            } else {
                day = await service.currentDay()
            }
            return try Self.json(APIBody.ChainReportBody(try await service.chainReport(day: day)))
        }
        api.get("/events") { _, context -> Response in
            let user = try context.requireUser()
            let (id, stream) = await service.listen()
            let service = self.service
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: .init { writer in
                defer { Task { await service.stopListening(id) } }
                try await writer.write(ByteBuffer(string: "retry: 1000\n: connected\n\n"))
                // Ends with the server: an open stream would otherwise hold a graceful shutdown forever.
                for await entry in stream.cancelOnGracefulShutdown() {
                    // Staff see only their own entries in the journal; of the
                    // others' they hear that something changed (sequence,
                    // day, time, kind), which is all a till needs to refresh.
                    let data: String
                    if user.role.manages || entry.user == user.name {
                        data = String(decoding: try JSONEncoder.api.encode(entry), as: UTF8.self)
                    } else {
                        data = String(decoding: try JSONEncoder.api.encode(APIBody.EntryNotice(entry)), as: UTF8.self)
                    }
                    try await writer.write(ByteBuffer(string: "id: \(entry.sequence)\nevent: entry\ndata: \(data)\n\n"))
                }
                try await writer.finish(nil)
            })
        }
    }

    private func correct(_ request: Request, _ context: ShopRequestContext, void: Bool) async throws -> Response {
        let user = try context.requireManager()
        try CSRF.check(request, context)
        let raw = context.parameters.get("id") ?? ""
        // An order is named by the till's id for it, or by its journal sequence.
        let order: JournalEntry?
        if let sequence = Int64(raw) {
            order = try await service.entry(sequence: sequence)
        } else if (try? Self.checkClientID(raw)) != nil {
            order = try await service.entry(clientID: raw)
        } else {
            // Not an id a till could have given (PostgreSQL refuses a NUL in text): no such order.
            order = nil
        }
        guard let order, case .order = order.event else { throw APIError(ShopError.unknownOrder(raw)) }
        let request: ShopService.Request = void ? .void(order: order.sequence) : .refund(order: order.sequence)
        switch await service.submit(request, by: .init(user: user.name, role: user.role, till: "api")) {
        case .success(.written(let entry)), .success(.repeated(let entry)): return try Self.json(entry, status: .created)
        case .failure(let failure): throw APIError(failure)
        }
    }

    func shopState(for user: ShopUser) async -> APIBody.ShopState {
        let shop = await service.shop
        let problems = await service.refusedBookDiagnostics
        let bookVersion = await service.bookVersion
        let book = shop.book
        return APIBody.ShopState(
            day: shop.openDay ?? shop.lastDay, dayOpen: shop.openDay != nil, bookVersion: bookVersion, sequence: shop.lastSequence,
            stock: Dictionary(book.fruits.indices.map { (book.fruits[$0].id, shop.stock[$0]) }, uniquingKeysWith: { first, _ in first }),
            fruits: book.fruits.indices.map { APIBody.Fruit(id: book.fruits[$0].id, label: book.fruits[$0].label, emoji: book.fruits[$0].emoji, count: shop.stock[$0]) },
            servings: book.keepsServings ? book.recipes.indices.map {
                APIBody.Servings(id: book.recipes[$0].id, label: book.recipes[$0].label, count: shop.stock.servings.indices.contains($0) ? shop.stock.servings[$0] : 0)
            } : [],
            menu: shop.menuStatus.map { status in
                let item = book.menu[status.menu]
                return APIBody.MenuItem(id: item.id, label: item.label, price: item.price, status: status.isSoldOut ? "sold-out" : "ready",
                                        capacity: status.capacity, limitingFruit: status.limitingFruit)
            },
            bookProblems: user.role.manages && !problems.isEmpty ? problems : nil,
            user: user.name, role: user.role.rawValue
        )
    }

    // MARK: Helpers

    static func orderAnswer(_ entry: JournalEntry) throws -> Response {
        switch entry.event {
        case .order: return try json(entry, status: .created)
        case .refusal(let refused):
            let short = refused.shortages.map { shortage in
                shortage.standsInFor.map { "\(shortage.fruit) (for \($0))" } ?? shortage.fruit
            }.joined(separator: ", ")
            var error = APIError(.conflict, "not-enough-fruit", "not enough fruit: \(short)")
            error.details["short"] = refused.shortages.map(\.fruit).joined(separator: ",")
            error.details["refusal"] = String(entry.sequence)
            error.shortages = refused.shortages
            return error.response()
        default: return try json(entry)
        }
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder.api.encode(value)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: ShopRequestContext) async throws -> T {
        try decode(type, from: try await collect(request, context: context))
    }

    /// The body decoded, or nil when there is none.
    static func decodeIfPresent<T: Decodable>(_ type: T.Type, from request: Request, context: ShopRequestContext) async throws -> T? {
        let buffer = try await collect(request, context: context)
        return buffer.readableBytes == 0 ? nil : try decode(type, from: buffer)
    }

    private static func collect(_ request: Request, context: ShopRequestContext) async throws -> ByteBuffer {
        do { return try await request.body.collect(upTo: context.maxUploadSize) } catch {
            throw APIError(.contentTooLarge, "body-too-large", "the request body is over 64 KiB")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        do { return try JSONDecoder().decode(type, from: Data(buffer: buffer)) } catch let error as DecodingError {
            throw APIError(.badRequest, "bad-json", ErrorMiddleware<ShopRequestContext>.describe(error))
        }
    }

    static func checkClientID(_ id: String) throws {
        guard !id.isEmpty, id.count <= 100, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw APIError(.unprocessableContent, "bad-id", "the id must be 1 to 100 letters, digits, '-' or '_' (a UUID)")
        }
    }

    static func checkDay(_ day: String) throws -> String {
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let month = Int(parts[1]), (1...12).contains(month), let dayOfMonth = Int(parts[2]), (1...31).contains(dayOfMonth)
        else { throw APIError(.badRequest, "bad-day", "a day is written YYYY-MM-DD") }
        return day
    }

    static func till(_ name: String?) -> String {
        guard let name else { return "api" }
        let cleaned = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.prefix(40).map(Character.init))
        return cleaned.isEmpty ? "api" : cleaned
    }

    static func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

extension ShopRequestContext {
    func requireUser() throws -> ShopUser {
        guard let identity else { throw APIError.signInNeeded }
        return identity
    }

    func requireManager() throws -> ShopUser {
        let user = try requireUser()
        guard user.role.manages else { throw APIError.managerOnly }
        return user
    }

    func requireOwner() throws -> ShopUser {
        let user = try requireUser()
        guard user.role == .owner else { throw APIError.ownerOnly }
        return user
    }
}

/// Unsafe methods need the session's CSRF token in `X-CSRF-Token`, besides the cookie.
enum CSRF {
    static func check(_ request: Request, _ context: ShopRequestContext) throws {
        guard let session = context.sessions.session,
              let token = request.headers[HTTPField.Name("X-CSRF-Token")!], !token.isEmpty,
              token == session.csrf
        else { throw APIError.badCSRF }
        try SameOrigin.check(request)
    }
}

/// A request that says where it comes from (`Origin`) must come from this server.
enum SameOrigin {
    static func check(_ request: Request) throws {
        guard let origin = request.headers[.origin], origin != "null" else { return }
        guard let host = request.head.authority,
              origin == "http://\(host)" || origin == "https://\(host)"
        else { throw APIError(.forbidden, "cross-origin", "requests from another site are refused") }
    }
}

/// Headers no page or answer goes without.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.init("X-Frame-Options")!] = "DENY"
        response.headers[.init("Referrer-Policy")!] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}

/// Reads the session's user from the store on every request, so a removed
/// user is signed out at once and a role change takes effect at once; and
/// slides the session's 12-hour idle expiry forward.
struct SignedInMiddleware: RouterMiddleware {
    let storage: any ShopStorage

    func handle(_ request: Request, context: ShopRequestContext, next: (Request, ShopRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        if context.sessions.session == nil, let failure = SessionReadFailure.current?.recorded {
            // The session could not be read (the database is away): 503 with
            // Retry-After, and the till stays signed in, not 401.
            throw failure
        }
        if let session = context.sessions.session {
            if let user = try await storage.user(named: session.user) {
                context.identity = ShopUser(name: user.name, role: user.role)
                let now = ShopServer.milliseconds()
                if now - (session.renewed ?? 0) >= 60_000 {
                    var renewed = session
                    renewed.renewed = now
                    _ = context.sessions.updateSession(renewed, expiresIn: ShopServer.idle)
                }
            } else {
                context.sessions.clearSession()
            }
        }
        return try await next(request, context)
    }
}
