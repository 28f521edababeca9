import Foundation
import Hummingbird
import HTTPTypes
import JuiceShop
import JuiceStore

/// An error the API answers with: a status, a stable code and a message,
/// sent as `{"error": {"code", "message"}}`.
public struct APIError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    /// Extra fields beside code and message (the short fruit of a refusal).
    public var details: [String: String] = [:]
    /// For a refusal: each short fruit, with need and have, and the fruit a
    /// short substitute stood in for, so a till can say so without reading
    /// counts that another till may have changed since.
    public var shortages: [JournalEntry.ShortFruit]?
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static let signInNeeded = APIError(.unauthorized, "sign-in-needed", "sign in first")
    static let managerOnly = APIError(.forbidden, "manager-only", "only a manager may do this")
    static let ownerOnly = APIError(.forbidden, "owner-only", "only an owner may see the chain")
    static let badCSRF = APIError(.forbidden, "csrf", "the request lacks this session's CSRF token (X-CSRF-Token)")

    /// The API's answer for a shop's refusal.
    init(_ error: ShopError) {
        let status: HTTPResponse.Status = switch error {
        case .unknownItem, .unknownStock, .unknownOrder: .notFound
        case .badQuantity, .emptyChange: .unprocessableContent
        case .belowZero, .tooLarge, .alreadyCorrected, .voidOutsideDay, .servingsSinceUsed, .noDayOpen, .dayClosed: .conflict
        case .inconsistentJournal: .conflict
        }
        self.init(status, error.code, error.message)
    }

    init(_ error: StorageError) {
        switch error {
        case .cannotWrite(let why):
            self.init(.serviceUnavailable, "cannot-write", why + "; try again once the server's disk can be written")
            headers[.retryAfter] = "5"
        case .duplicate(let why): self.init(.conflict, "duplicate", why)
        case .userExists(let name): self.init(.conflict, "user-exists", "a user called '\(name)' already exists")
        case .unusableDatabase(let why):
            self.init(.serviceUnavailable, "database", why)
            headers[.retryAfter] = "5"
        case .unavailable(let why):
            // PostgreSQL restarting, a connection lost: the server
            // reconnects by itself; a retry with the same id is safe.
            self.init(.serviceUnavailable, "unavailable", why)
            headers[.retryAfter] = "2"
        case .shopTaken(let why):
            self.init(.serviceUnavailable, "shop-taken", why)
            headers[.retryAfter] = "30"
        case .unknownShop(let name): self.init(.notFound, "unknown-shop", "no shop called '\(name)' is in the database")
        case .failed(let why):
            self.init(.serviceUnavailable, "database", why)
            headers[.retryAfter] = "5"
        }
    }

    init(_ failure: ShopService.Failure) {
        switch failure {
        case .shop(let error): self.init(error)
        case .storage(let error): self.init(error)
        case .clientIDReused(let id): self.init(.conflict, "id-reused", "the id '\(id)' was already used for another request")
        case .dayNotOpen(let asked, let open):
            self.init(.conflict, "day-closed", "the day \(asked) is not open\(open.map { " (\($0) is)" } ?? ""); nothing was closed")
        }
    }

    /// The error object: code, message, the details as strings, and the shortages.
    private struct Body: Encodable {
        let fields: [String: String]
        let shortages: [JournalEntry.ShortFruit]?

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in fields { try container.encode(value, forKey: Key(stringValue: key)) }
            if let shortages { try container.encode(shortages, forKey: Key(stringValue: "shortages")) }
        }
    }

    /// The JSON response.
    func response() -> Response {
        var strings: [String: String] = details
        strings["code"] = code
        strings["message"] = message
        let data = (try? JSONEncoder.api.encode(["error": Body(fields: strings, shortages: shortages)])) ?? Data("{\"error\":{\"code\":\"error\",\"message\":\"error\"}}".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension JSONEncoder {
    static let api: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// Turns every error a route throws into the API's JSON error (pages get
/// the same body), so nothing reaches a client as a bare 500: a decoding
/// error or an oversized body is a 4xx with a code.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response()
        } catch let error as HTTPResponseError {
            let status = error.status
            let code = switch status.code {
            case 413: "body-too-large"
            case 404: "not-found"
            case 405: "method-not-allowed"
            case 400..<500: "bad-request"
            default: "server"
            }
            let message = status.code == 413 ? "the request body is over 64 KiB" : status.reasonPhrase
            var answer = APIError(status.code >= 500 ? .serviceUnavailable : status, code, message)
            if status.code >= 500 { answer.headers[.retryAfter] = "5" }
            return answer.response()
        } catch let error as DecodingError {
            return APIError(.badRequest, "bad-json", Self.describe(error)).response()
        } catch let error as StorageError {
            // A write the store refused outside a route (the session of a sign-in): 503 and why.
            return APIError(error).response()
        } catch {
            context.logger.error("unexpected error: \(error)")
            var answer = APIError(.serviceUnavailable, "server", "the server could not do this; try again")
            answer.headers[.retryAfter] = "5"
            return answer.response()
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "the field '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty, .valueNotFound(_, let context) where context.codingPath.isEmpty:
            "the body must be a JSON object"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "the field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        // Foundation says no more for a number that is not a whole number
        // in range (1.5 or 1e30 for a quantity) than for broken JSON.
        case .dataCorrupted: "the body is not valid JSON, or a number in it is not a whole number in range"
        @unknown default: "the body cannot be read"
        }
    }
}
