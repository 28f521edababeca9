import Foundation
import JuiceBook
import JuiceShop
import JuiceStore

/// The running shop behind the web counter: the shop's state (`Shop`), its
/// store, and the stream of journal entries every till listens to.
///
/// All changes go through one worker in arrival order, so two tills racing
/// for the last kiwi are decided one after the other on the same stock and
/// never oversell. The worker takes every request waiting, decides each on
/// the stock the one before left, writes all their entries in one
/// transaction (group commit: one fsync for many orders), and only then
/// answers them and updates the state. A write that fails answers every
/// request in it with the error and changes nothing.
public actor ShopService {
    /// Who is asking, as the session says.
    public struct Actor: Sendable, Hashable {
        public var user: String
        public var role: StoredUser.Role
        public var till: String

        public init(user: String, role: StoredUser.Role, till: String) {
            self.user = user
            self.role = role
            self.till = till
        }
    }

    /// A change a till asks for.
    public enum Request: Sendable {
        case order(item: String, quantity: Int, clientID: String, resolves: Int64?)
        case stock(name: String, edit: Shop.StockEdit, clientID: String?)
        case setStock(JournalEntry.Stock, reason: String)
        case void(order: Int64)
        case refund(order: Int64)
        /// Closes `day`, which must be the open one: a retried close is
        /// refused instead of closing the next day too.
        case closeDay(String)
    }

    /// What a change came to.
    public enum Outcome: Sendable {
        /// Written now.
        case written(JournalEntry)
        /// Written before, by a request with the same client id: the first answer.
        case repeated(JournalEntry)
    }

    public enum Failure: Error, Sendable {
        case shop(ShopError)
        case storage(StorageError)
        /// The client id was used before for a different request.
        case clientIDReused(String)
        /// A close of a day that is not the open one (closed already, or never opened).
        case dayNotOpen(asked: String, open: String?)
    }

    private let storage: any ShopStorage
    private let clock: @Sendable () -> Date
    public private(set) var shop: Shop
    /// Diagnostics of the last book change that was refused, as juice-lint prints them; empty when the book in use is the latest.
    public private(set) var refusedBookDiagnostics: String = ""
    /// How many books the service has taken, from 1: the `bookVersion` of `GET /api/shop`.
    public private(set) var bookVersion = 1
    private var listeners: [UUID: AsyncStream<JournalEntry>.Continuation] = [:]
    /// Set once the server is shutting down: no new stream is kept open.
    private var closed = false
    /// Each waiting change and who gets its answer.
    private var waiting: [(Request, Actor, @Sendable (Result<Outcome, Failure>) -> Void)] = []
    /// Books waiting to be taken, by the worker, between two batches.
    private var books: [(RecipeBook, CheckedContinuation<Bool, Never>)] = []
    private var working = false
    /// Set when a write failed: the store may hold what the service does
    /// not (PostgreSQL can commit a transaction whose answer was lost with
    /// the connection), so the next batch first reads the open day again.
    private var needsReplay = false

    /// A service over `storage`, selling from `book`: replays the open
    /// day's journal, or opens the first day with the book's stock.
    public init(book: RecipeBook, storage: any ShopStorage, clock: @escaping @Sendable () -> Date = Date.init) async throws {
        self.storage = storage
        self.clock = clock
        shop = try await Self.replay(book: book, storage: storage)
        try await openDayIfNeeded()
    }

    private static func replay(book: RecipeBook, storage: any ShopStorage) async throws -> Shop {
        var shop = Shop(book: book)
        for entry in try await storage.entriesOfLastDay() {
            do { try shop.apply(entry) } catch {
                throw Failure.shop(.inconsistentJournal("entry \(entry.sequence) (\(entry.event.kind)): \(error.message)"))
            }
        }
        return shop
    }

    /// The open day, or the last one when none is open.
    public func currentDay() -> String { shop.openDay ?? shop.lastDay ?? today() }

    /// Today's date in the server's time zone, `YYYY-MM-DD`.
    public func today() -> String { Self.dateString(clock()) }

    static func dateString(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    private var now: Int64 { Int64((clock().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Opens a day when none is: today, or the day after the last one closed when that is later.
    private func openDayIfNeeded() async throws {
        guard shop.openDay == nil else { return }
        var day = today()
        if let last = shop.lastDay, last >= day, let next = Self.day(after: last) { day = next }
        let entry = JournalEntry(sequence: shop.lastSequence + 1, day: day, time: now, user: "system", till: "server", event: shop.openDayEvent())
        try await storage.append([entry])
        try shop.apply(entry)
        broadcast(entry)
    }

    static func day(after day: String) -> String? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
              let next = calendar.date(byAdding: .day, value: 1, to: date) else { return nil }
        let out = calendar.dateComponents([.year, .month, .day], from: next)
        return String(format: "%04d-%02d-%02d", out.year ?? 1970, out.month ?? 1, out.day ?? 1)
    }

    // MARK: Changes

    /// Asks for a change; returns once it is durable, or refused.
    public func submit(_ request: Request, by actor: Actor) async -> Result<Outcome, Failure> {
        await withCheckedContinuation { continuation in
            waiting.append((request, actor, { continuation.resume(returning: $0) }))
            startWorking()
        }
    }

    private func startWorking() {
        guard !working else { return }
        working = true
        Task { await self.work() }
    }

    /// The one worker: a book change waiting goes first, then the batch of
    /// changes waiting. Nothing else changes `shop`, so a batch's draft and a
    /// replay on a new book never overwrite each other.
    private func work() async {
        while !waiting.isEmpty || !books.isEmpty {
            if !books.isEmpty {
                let changes = books
                books = []
                for (book, continuation) in changes { continuation.resume(returning: await take(book)) }
                continue
            }
            let batch = waiting
            waiting = []
            await decideAndWrite(batch)
        }
        working = false
    }

    /// - Parameter retried: whether this batch is being decided again after
    ///   its write was refused as a duplicate.
    private func decideAndWrite(_ batch: [(Request, Actor, @Sendable (Result<Outcome, Failure>) -> Void)], retried: Bool = false) async {
        if needsReplay {
            do {
                try await catchUp()
            } catch {
                let failure = Failure.storage(error as? StorageError ?? .unavailable("\(error)"))
                for (_, _, answer) in batch { answer(.failure(failure)) }
                return
            }
        }
        var draft = shop
        var entries: [JournalEntry] = []
        var answers: [Result<Outcome, Failure>] = []
        var byClientID: [String: JournalEntry] = [:]
        var batchEntries: [Int64: JournalEntry] = [:]
        // Every client id of the batch is looked up in one read.
        var written: [String: JournalEntry] = [:]
        var lookupFailure: Failure?
        do {
            written = try await storage.entries(clientIDs: batch.compactMap { $0.0.clientID })
        } catch {
            lookupFailure = .storage(error as? StorageError ?? .failed("\(error)"))
        }
        for (request, actor, _) in batch {
            do {
                if let clientID = request.clientID {
                    if let lookupFailure { throw lookupFailure }
                    if let first = byClientID[clientID] ?? written[clientID] {
                        guard request.matches(first, in: draft) else { throw Failure.clientIDReused(clientID) }
                        answers.append(.success(.repeated(first)))
                        continue
                    }
                }
                let event = try await decide(request, on: draft, batchOrders: batchEntries)
                guard let day = draft.openDay else { throw Failure.shop(.noDayOpen) }
                let entry = JournalEntry(sequence: draft.lastSequence + 1, day: day, time: now, user: actor.user, till: actor.till, event: event)
                do { try draft.apply(entry) } catch { throw Failure.shop(error) }
                entries.append(entry)
                batchEntries[entry.sequence] = entry
                if let clientID = request.clientID { byClientID[clientID] = entry }
                answers.append(.success(.written(entry)))
                if case .dayClose = event {
                    // The next day opens at once, with the closing stock.
                    var day = today()
                    if day <= entry.day, let next = Self.day(after: entry.day) { day = next }
                    let open = JournalEntry(sequence: draft.lastSequence + 1, day: day, time: now, user: "system", till: "server", event: draft.openDayEvent())
                    do { try draft.apply(open) } catch { throw Failure.shop(error) }
                    entries.append(open)
                }
            } catch let failure as Failure {
                answers.append(.failure(failure))
            } catch let error as StorageError {
                answers.append(.failure(.storage(error)))
            } catch {
                answers.append(.failure(.storage(.failed("\(error)"))))
            }
        }
        do {
            try await storage.append(entries)
            shop = draft
            for entry in entries { broadcast(entry) }
        } catch {
            needsReplay = true
            if case .duplicate = error as? StorageError, !retried {
                // Another process wrote one of this batch's client ids in the
                // meantime (a till that sent one order to two shops at once):
                // decided again, that request finds the first answer, and the
                // batch's other requests are written, not refused with it.
                await decideAndWrite(batch, retried: true)
                return
            }
            let failure = Failure.storage(error as? StorageError ?? .failed("\(error)"))
            answers = answers.map { answer in
                if case .success(.written) = answer { return .failure(failure) }
                return answer
            }
        }
        for (index, (_, _, answer)) in batch.enumerated() { answer(answers[index]) }
    }

    /// Reads the open day again after a failed write, and tells the tills
    /// of any entry the store holds that the service did not know (a commit
    /// whose answer was lost). Each such till gets its answer on retry,
    /// from its client id.
    private func catchUp() async throws {
        let known = shop.lastSequence
        let replayed = try await Self.replay(book: shop.book, storage: storage)
        shop = replayed
        needsReplay = false
        if replayed.lastSequence > known {
            for entry in try await storage.entriesOfLastDay() where entry.sequence > known { broadcast(entry) }
        }
    }

    /// - Parameter batchOrders: entries written earlier in the same batch, not in the store yet.
    private func decide(_ request: Request, on draft: Shop, batchOrders: [Int64: JournalEntry]) async throws -> JournalEntry.Event {
        do {
            switch request {
            case .order(let item, let quantity, let clientID, let resolves):
                return try draft.order(item, quantity: quantity, clientID: clientID, resolves: resolves)
            case .stock(let name, let edit, let clientID):
                return try draft.changeStock(name, edit, clientID: clientID)
            case .setStock(let stock, let reason):
                return try draft.setStock(stock, reason: reason)
            case .void(let sequence), .refund(let sequence):
                guard let order = try await storage.entry(sequence: sequence) ?? batchOrders[sequence] else {
                    throw ShopError.unknownOrder(String(sequence))
                }
                let earlier = try await storage.correction(of: sequence)?.event.kind
                if case .void = request { return try draft.void(order, correctedBy: earlier) }
                return try draft.refund(order, correctedBy: earlier)
            case .closeDay(let day):
                guard day == draft.openDay else { throw Failure.dayNotOpen(asked: day, open: draft.openDay) }
                return try draft.closeDay()
            }
        } catch let error as ShopError {
            throw Failure.shop(error)
        } catch let error as StorageError {
            throw Failure.storage(error)
        }
    }

    // MARK: Reading

    public func entries(day: String) async throws -> [JournalEntry] { try await storage.entries(day: day) }

    public func entry(sequence: Int64) async throws -> JournalEntry? { try await storage.entry(sequence: sequence) }

    public func entry(clientID: String) async throws -> JournalEntry? { try await storage.entry(clientID: clientID) }

    /// The day's Z report; for the open day, a running one on the stock now.
    public func report(day: String) async throws -> DayReport {
        try await Self.report(day: day, storage: storage, shop: shop)
    }

    /// The Z report of `day` in the shop of `storage`, whose state now is
    /// `shop`: a closed day's closing stock is the next day's opening stock.
    static func report(day: String, storage: any ShopStorage, shop: Shop) async throws -> DayReport {
        let entries = try await storage.entries(day: day)
        let closing: JournalEntry.Stock?
        if day == shop.openDay {
            closing = shop.stockByID
        } else {
            closing = try await nextDayOpening(after: day, storage: storage)
        }
        return DayReport(day: day, entries: entries, closingStock: closing)
    }

    private static func nextDayOpening(after day: String, storage: any ShopStorage) async throws -> JournalEntry.Stock? {
        let days = try await storage.days().sorted()
        guard let index = days.firstIndex(of: day), index + 1 < days.count else { return nil }
        for entry in try await storage.entries(day: days[index + 1]) {
            if case .dayOpen(let stock) = entry.event { return stock }
        }
        return nil
    }

    // MARK: The chain

    /// One shop of the chain as the owner sees it.
    public struct ShopSummary: Sendable {
        public var name: String
        public var shop: Shop
    }

    /// Every shop in the database, each replayed from its own journal on
    /// this server's book (a chain shares one menu); this shop as it is now.
    public func chain() async throws -> [ShopSummary] {
        var summaries: [ShopSummary] = []
        for name in try await storage.shops() {
            if name == storage.shop {
                summaries.append(ShopSummary(name: name, shop: shop))
            } else {
                let other = try await storage.storage(forShop: name)
                summaries.append(ShopSummary(name: name, shop: try await Self.replay(book: shop.book, storage: other)))
            }
        }
        return summaries
    }

    /// The chain's Z report of `day`: each shop's own report, and their sum.
    public func chainReport(day: String) async throws -> ChainReport {
        var reports: [(shop: String, report: DayReport)] = []
        for summary in try await chain() {
            let store = try await storage.storage(forShop: summary.name)
            reports.append((summary.name, try await Self.report(day: day, storage: store, shop: summary.shop)))
        }
        return ChainReport(day: day, shops: reports)
    }

    // MARK: Book changes

    /// Takes a new book: the open day's journal is replayed on it, and
    /// fruits or kept recipes it adds come in with the book's stock, as a
    /// journal entry. Returns false, keeping the running book, when the
    /// journal does not replay on it.
    public func replaceBook(_ book: RecipeBook) async -> Bool {
        await withCheckedContinuation { continuation in
            books.append((book, continuation))
            startWorking()
        }
    }

    /// Replaces the book, on the worker: no batch is being written, so the
    /// replay reads every entry written and the next batch starts from it.
    /// (Taken beside a batch, the batch's draft overwrote the new book, or
    /// the replay missed the batch's entries and the next sequences clashed.)
    private func take(_ book: RecipeBook) async -> Bool {
        guard let replayed = try? await Self.replay(book: book, storage: storage) else { return false }
        let known = Set(shop.book.fruits.map(\.id))
        let knownRecipes = Set(shop.book.recipes.map(\.id))
        let added = JournalEntry.Stock(
            fruit: book.fruits.indices.filter { !known.contains(book.fruits[$0].id) }.map { JournalEntry.Count(id: book.fruits[$0].id, count: book.openingStock[$0]) },
            servings: book.keepsServings
                ? book.recipes.indices.filter { !knownRecipes.contains(book.recipes[$0].id) && book.openingServings.indices.contains($0) }
                    .map { JournalEntry.Count(id: book.recipes[$0].id, count: book.openingServings[$0]) }
                : []
        )
        shop = replayed
        bookVersion += 1
        refusedBookDiagnostics = ""
        if !added.fruit.isEmpty || !added.servings.isEmpty {
            // Written by the worker next, before any other change waiting.
            waiting.insert((.setStock(added, reason: "the book added these"), Actor(user: "system", role: .manager, till: "server"), { _ in }), at: 0)
        }
        broadcastBookChange()
        return true
    }

    /// Keeps the running book and remembers why the new one was refused.
    public func refuseBook(diagnostics: String) {
        refusedBookDiagnostics = diagnostics
        broadcastBookChange()
    }

    // MARK: Live updates

    /// A stream of every journal entry written from now on (the book's
    /// changes come as an entry with sequence 0 and kind "book").
    public func listen() -> (id: UUID, stream: AsyncStream<JournalEntry>) {
        let (stream, continuation) = AsyncStream<JournalEntry>.makeStream(bufferingPolicy: .bufferingNewest(1000))
        let id = UUID()
        if closed {
            continuation.finish()
            return (id, stream)
        }
        listeners[id] = continuation
        return (id, stream)
    }

    /// Ends every stream, so a server shutting down is not held open by
    /// the tills' event streams; a till's browser reconnects to the next server.
    public func stopAllListening() {
        for continuation in listeners.values { continuation.finish() }
        listeners = [:]
        closed = true
    }

    public func stopListening(_ id: UUID) {
        listeners.removeValue(forKey: id)?.finish()
    }

    private func broadcast(_ entry: JournalEntry) {
        for continuation in listeners.values { continuation.yield(entry) }
    }

    private func broadcastBookChange() {
        let entry = JournalEntry(sequence: 0, day: shop.openDay ?? "", time: now, user: "system", till: "server", event: .stockSet(JournalEntry.StockSet(reason: "book", stock: shop.stockByID)))
        broadcast(entry)
    }
}

extension ShopService.Request {
    /// The client id a retried request is known by.
    var clientID: String? {
        switch self {
        case .order(_, _, let clientID, _): clientID
        case .stock(_, _, let clientID): clientID
        default: nil
        }
    }

    /// Whether an entry written under this request's client id answers it:
    /// the same kind of request for the same thing.
    /// The item and the fruit are compared by id, as the entry names
    /// them, so a retry that names the item by its label still matches.
    func matches(_ entry: JournalEntry, in shop: Shop) -> Bool {
        func itemID(_ name: String) -> String { shop.menuIndex(named: name).map { shop.book.menu[$0].id } ?? name }
        switch (self, entry.event) {
        case (.order(let item, let quantity, _, _), .order(let made)):
            return made.quantity == quantity && made.item == itemID(item)
        case (.order(let item, let quantity, _, _), .refusal(let refused)):
            return refused.quantity == quantity && refused.item == itemID(item)
        case (.stock(let name, let edit, _), .stockChange(let change)):
            guard let (target, index) = shop.stockTarget(named: name) else { return false }
            let id = target == .fruit ? shop.book.fruits[index].id : shop.book.recipes[index].id
            guard change.target == target, change.id == id else { return false }
            switch edit {
            case .set(let value): return change.after == value
            case .add(let amount): return change.after.subtractingReportingOverflow(change.before) == (amount, false)
            }
        default:
            return false
        }
    }
}
