import Foundation
import JuiceShop

/// What both stores keep the same way: a journal entry as the JSON in its
/// row's `body`, the keys its unique indexes hold, and the pattern that
/// finds a user's sessions. One home, so SQLite and PostgreSQL rows read alike.
enum StoredEntry {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The row's `body`: the entry's own JSON, as the API writes it.
    static func body(of entry: JournalEntry) throws -> String {
        String(decoding: try encoder.encode(entry), as: UTF8.self)
    }

    /// The entry a row's `body` holds; a body that does not read is a damaged database.
    static func entry(from body: String) throws -> JournalEntry {
        do { return try JSONDecoder().decode(JournalEntry.self, from: Data(body.utf8)) } catch {
            throw StorageError.unusableDatabase("a journal entry cannot be read: \(error)")
        }
    }

    /// The client id and the corrected order an entry's unique indexes hold.
    static func keys(of event: JournalEntry.Event) -> (clientID: String?, target: Int64?) {
        switch event {
        case .order(let made): (made.clientID, nil)
        case .refusal(let refused): (refused.clientID, nil)
        case .stockChange(let change): (change.clientID, nil)
        case .void(let correction), .refund(let correction): (nil, correction.order)
        default: (nil, nil)
        }
    }

    /// A LIKE pattern (escape character `\`) matching the sessions of `user`:
    /// a session's value is hummingbird-auth's JSON of the session, which
    /// holds `"user":"NAME"`; `\`, `%` and `_`, which a name may hold, are
    /// escaped so the pattern matches that name only. It is bound as a
    /// parameter, never spliced into SQL.
    static func sessionPattern(user name: String) -> String {
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        return "%\"user\":\"" + escaped + "\"%"
    }
}
