import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Testing
import JuiceBook
import JuiceShop
import JuiceStore
import JuiceServer
import HummingbirdBcrypt

/// The API through HummingbirdTesting's router client: sessions, roles,
/// CSRF, idempotency, refusals, void, day close and bad input, on a fresh
/// SQLite database per test. (The real binary, browsers and crash tests are
/// in Tests/Server, in Python.)
@Suite struct ServerAPITests {
    /// A server on a new database with a manager and a staff user.
    struct Fixture {
        let server: ShopServer
        let storage: SQLiteShopStorage
        let folder: URL

        init(book: RecipeBook? = nil) async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            storage = try SQLiteShopStorage(path: folder.appendingPathComponent("shop.sqlite").path)
            // Cost 4: the lowest bcrypt allows; the tests check sign-in, not the cost.
            for (name, role) in [("anna", StoredUser.Role.manager), ("sam", .staff)] {
                try await storage.addUser(StoredUser(name: name, role: role, passwordHash: Bcrypt.hash("password-\(name)", cost: 4), created: 0))
            }
            let service = try await ShopService(book: try book ?? canonicalBook(), storage: storage)
            server = ShopServer(service: service, storage: storage)
        }

        func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
            let app = Application(router: server.router())
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await app.test(.router, body)
        }
    }

    /// A signed-in session: its cookie and CSRF token, as headers for the next requests.
    static func signIn(_ client: any TestClientProtocol, _ user: String) async throws -> HTTPFields {
        let body = ByteBuffer(string: #"{"user": "\#(user)", "password": "password-\#(user)"}"#)
        return try await client.execute(uri: "/api/session", method: .post, body: body) { response in
            #expect(response.status == .ok)
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            let token = try #require(json?["csrf"] as? String)
            return [.cookie: String(cookie.prefix { $0 != ";" }), HTTPField.Name("X-CSRF-Token")!: token]
        }
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func errorCode(_ response: TestResponse) throws -> String? {
        (try json(response)["error"] as? [String: Any])?["code"] as? String
    }

    @Test func everyCallButSignInNeedsASession() async throws {
        try await Fixture().test { client in
            for (uri, method) in [("/api/shop", HTTPRequest.Method.get), ("/api/journal", .get), ("/api/orders", .post), ("/api/stock", .post),
                                  ("/api/day/close", .post), ("/api/events", .get), ("/api/day/2026-11-29/report", .get)] {
                try await client.execute(uri: uri, method: method, body: ByteBuffer(string: "{}")) { response in
                    #expect(response.status == .unauthorized, "\(method) \(uri)")
                    let code = try Self.errorCode(response)
                    #expect(code == "sign-in-needed")
                }
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/signin")
            }
            try await client.execute(uri: "/api/session", method: .post, body: ByteBuffer(string: #"{"user": "anna", "password": "wrong-password"}"#)) { response in
                #expect(response.status == .unauthorized)
                let code = try Self.errorCode(response)
                    #expect(code == "bad-credentials")
            }
        }
    }

    @Test func staffGetForbiddenOnManagerCalls() async throws {
        try await Fixture().test { client in
            let staff = try await Self.signIn(client, "sam")
            for (uri, body) in [("/api/stock", #"{"fruit": "kiwi", "add": 1}"#), ("/api/day/close", "{}"), ("/api/orders/1/void", "{}"), ("/api/orders/1/refund", "{}")] {
                try await client.execute(uri: uri, method: .post, headers: staff, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .forbidden, "\(uri)")
                    let code = try Self.errorCode(response)
                    #expect(code == "manager-only")
                }
            }
            try await client.execute(uri: "/stock", method: .get, headers: staff) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func unsafeCallsNeedTheCSRFToken() async throws {
        try await Fixture().test { client in
            var manager = try await Self.signIn(client, "anna")
            manager[HTTPField.Name("X-CSRF-Token")!] = "not-the-token"
            try await client.execute(uri: "/api/orders", method: .post, headers: manager,
                                     body: ByteBuffer(string: #"{"id": "o1", "item": "kiwi-juice", "quantity": 1}"#)) { response in
                #expect(response.status == .forbidden)
                let code = try Self.errorCode(response)
                    #expect(code == "csrf")
            }
        }
    }

    @Test func aRetriedOrderOrdersOnce() async throws {
        try await Fixture().test { client in
            let manager = try await Self.signIn(client, "anna")
            let body = ByteBuffer(string: #"{"id": "7d1c0f3e-0000-4000-8000-000000000001", "item": "kiwi-juice", "quantity": 2}"#)
            let first = try await client.execute(uri: "/api/orders", method: .post, headers: manager, body: body) { response in
                #expect(response.status == .created)
                return String(buffer: response.body)
            }
            let again = try await client.execute(uri: "/api/orders", method: .post, headers: manager, body: body) { response in
                #expect(response.status == .created)
                return String(buffer: response.body)
            }
            #expect(first == again)
            try await client.execute(uri: "/api/shop", method: .get, headers: manager) { response in
                let fruits = try #require(try Self.json(response)["fruits"] as? [[String: Any]])
                #expect(fruits.first { $0["id"] as? String == "kiwi" }?["count"] as? Int == 4)
            }
        }
    }

    @Test func aRefusalNamesTheShortFruitAndAVoidPutsAnOrderBack() async throws {
        try await Fixture().test { client in
            let manager = try await Self.signIn(client, "anna")
            try await client.execute(uri: "/api/orders", method: .post, headers: manager,
                                     body: ByteBuffer(string: #"{"id": "o1", "item": "strawberry-juice", "quantity": 1}"#)) { response in
                #expect(response.status == .conflict)
                let error = try #require(try Self.json(response)["error"] as? [String: Any])
                #expect(error["code"] as? String == "not-enough-fruit")
                #expect(error["short"] as? String == "strawberry")
                let shortages = try #require(error["shortages"] as? [[String: Any]])
                #expect(shortages.count == 1)
                #expect(shortages.first?["fruit"] as? String == "strawberry")
                #expect(shortages.first?["need"] as? Int == 16)
                #expect(shortages.first?["have"] as? Int == 10)
            }
            let sequence = try await client.execute(uri: "/api/orders", method: .post, headers: manager,
                                                    body: ByteBuffer(string: #"{"id": "o2", "item": "kiwi-juice", "quantity": 3}"#)) { response in
                #expect(response.status == .created)
                return try #require(try Self.json(response)["sequence"] as? Int)
            }
            try await client.execute(uri: "/api/orders/o2/void", method: .post, headers: manager) { response in
                #expect(response.status == .created)
                let order = try Self.json(response)["order"] as? Int
                #expect(order == sequence)
            }
            try await client.execute(uri: "/api/orders/o2/refund", method: .post, headers: manager) { response in
                #expect(response.status == .conflict)
                let code = try Self.errorCode(response)
                    #expect(code == "already-corrected")
            }
            try await client.execute(uri: "/api/shop", method: .get, headers: manager) { response in
                let fruits = try #require(try Self.json(response)["fruits"] as? [[String: Any]])
                #expect(fruits.first { $0["id"] as? String == "kiwi" }?["count"] as? Int == 10)
            }
        }
    }

    @Test func badInputGetsA4xxWithACode() async throws {
        try await Fixture().test { client in
            let manager = try await Self.signIn(client, "anna")
            let cases: [(String, String, HTTPResponse.Status, String)] = [
                ("/api/orders", "not json", .badRequest, "bad-json"),
                ("/api/orders", #"{"id": "x"}"#, .badRequest, "bad-json"),
                ("/api/orders", #"{"id": "o1", "item": "kiwi-juice", "quantity": 0}"#, .unprocessableContent, "bad-quantity"),
                ("/api/orders", #"{"id": "o1", "item": "mango", "quantity": 1}"#, .notFound, "unknown-item"),
                ("/api/orders", #"{"id": "has space", "item": "kiwi-juice", "quantity": 1}"#, .unprocessableContent, "bad-id"),
                ("/api/stock", #"{"fruit": "kiwi", "add": -11}"#, .conflict, "stock-below-zero"),
                ("/api/stock", #"{"fruit": "kiwi", "set": 1, "add": 1}"#, .unprocessableContent, "bad-stock-change"),
                ("/api/orders", String(repeating: "x", count: 70_000), .contentTooLarge, "body-too-large"),
            ]
            for (uri, body, status, code) in cases {
                try await client.execute(uri: uri, method: .post, headers: manager, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == status, "\(body.prefix(60))")
                    let answered = try Self.errorCode(response)
                    #expect(answered == code, "\(body.prefix(60))")
                }
            }
            try await client.execute(uri: "/api/journal?day=2026-13-01", method: .get, headers: manager) { response in
                #expect(response.status == .badRequest)
                let code = try Self.errorCode(response)
                    #expect(code == "bad-day")
            }
        }
    }

    @Test func closingTheDayOpensTheNextWithTheClosingStock() async throws {
        try await Fixture().test { client in
            let manager = try await Self.signIn(client, "anna")
            try await client.execute(uri: "/api/orders", method: .post, headers: manager,
                                     body: ByteBuffer(string: #"{"id": "o1", "item": "kiwi-juice", "quantity": 1}"#)) { response in
                #expect(response.status == .created)
            }
            let closed = try await client.execute(uri: "/api/day/close", method: .post, headers: manager) { response in
                #expect(response.status == .ok)
                let report = try Self.json(response)
                #expect(report["closed"] as? Bool == true)
                #expect((report["total"] as? [String: Any])?["served"] as? Int == 1)
                return try #require(report["day"] as? String)
            }
            try await client.execute(uri: "/api/shop", method: .get, headers: manager) { response in
                let shop = try Self.json(response)
                #expect(shop["day"] as? String != closed)
                #expect(shop["dayOpen"] as? Bool == true)
                let fruits = try #require(shop["fruits"] as? [[String: Any]])
                #expect(fruits.first { $0["id"] as? String == "kiwi" }?["count"] as? Int == 7)
            }
        }
    }

    @Test func aNewPasswordEndsTheUsersSessionsOnly() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let anna = try await Self.signIn(client, "anna")
            let sam = try await Self.signIn(client, "sam")
            #expect(try await fixture.storage.setPasswordHash(Bcrypt.hash("another-password", cost: 4), forUser: "anna"))
            try await client.execute(uri: "/api/shop", method: .get, headers: anna) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/shop", method: .get, headers: sam) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func pagesCarryTheSecurityHeaders() async throws {
        try await Fixture().test { client in
            try await client.execute(uri: "/signin", method: .get) { response in
                #expect(response.status == .ok)
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("frame-ancestors 'none'"))
                #expect(!policy.contains("unsafe-inline"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
        }
    }
}
