/// One fruit a refused order lacked, or a substitute that ran short while
/// standing in for one (`standsInFor`).
package struct Shortfall: Sendable, Hashable, CustomStringConvertible {
    package var fruit: String
    package var need: Int
    package var have: Int
    package var standsInFor: String?

    package init(fruit: String, need: Int, have: Int, standsInFor: String? = nil) {
        self.fruit = fruit
        self.need = need
        self.have = have
        self.standsInFor = standsInFor
    }

    package var description: String { "\(fruit)\(standsInFor.map { " for " + $0 } ?? ""): need \(need), have \(have)" }
}

/// What became of one order: served, or refused with every short fruit.
package struct OrderRecord: Sendable, Hashable, CustomStringConvertible {
    package var line: Int
    package var menu: String
    /// Nil when served.
    package var refusal: [Shortfall]?
    /// For a served order: units of each substitute taken, by the fruit it
    /// stood in for; empty when none stood in.
    package var substituted: [String: [String: Int]]

    package init(line: Int, menu: String, refusal: [Shortfall]?, substituted: [String: [String: Int]] = [:]) {
        self.line = line
        self.menu = menu
        self.refusal = refusal
        self.substituted = substituted
    }

    package var description: String {
        "line \(line) \(menu) " + (refusal.map { "refused (" + $0.map(\.description).joined(separator: ", ") + ")" } ?? "served")
            + (substituted.isEmpty ? "" : " substituted \(substituted.sorted { $0.key < $1.key })")
    }
}

/// A restock that was applied, and the count after it.
package struct RestockRecord: Sendable, Hashable, CustomStringConvertible {
    package var line: Int
    package var fruit: String
    package var stock: Int

    package init(line: Int, fruit: String, stock: Int) {
        self.line = line
        self.fruit = fruit
        self.stock = stock
    }

    package var description: String { "line \(line) restock \(fruit) -> \(stock)" }
}

/// Everything a run produced, in the model's terms (ids, not indices).
package struct ReferenceRun: Sendable {
    package var orders: [OrderRecord] = []
    package var restocks: [RestockRecord] = []
    package var skippedLines: [Int] = []
    package var finalStock: [String: Int] = [:]

    package var served: Int { orders.filter { $0.refusal == nil }.count }
    package var refused: Int { orders.count - served }
}

/// The juice shop as README.md and docs/recipes.md describe it, written the
/// plainest way there is, to check the engine against.
///
/// It reads the generator's plain data, never YAML or a `RecipeBook`, and this
/// module does not depend on JuiceKit, so it cannot borrow the engine's code.
/// Everything is a `[String: Int]` keyed by id:
/// - a menu item's need is a naive recursive expansion: every path from the item
///   down to a fruit adds the product of the amounts along it;
/// - an order takes every need or, when any fruit is short, nothing, and lists
///   each short fruit (in declaration order) with its need and what is there;
/// - `restock FRUIT N` adds N;
/// - a line that is not a valid command is skipped; the rest run.
package struct ReferenceShop {
    /// The most orders one `xN` line may ask for (docs/recipes.md).
    static let maxRepeat = 1_000_000

    let book: GeneratedBook
    private let blends: [String: GeneratedBook.Blend]
    private(set) var needs: [String: [String: Int]] = [:]
    private(set) var stock: [String: Int] = [:]

    package init(book: GeneratedBook) {
        self.book = book
        blends = Dictionary(uniqueKeysWithValues: book.blends.map { ($0.id, $0) })
        for fruit in book.fruits {
            stock[fruit] = book.openingStock[fruit] ?? 0
        }
        for item in book.menuIDs {
            var need: [String: Int] = [:]
            expand(item, times: 1, into: &need)
            needs[item] = need
        }
    }

    /// The whole fruits one order of `menuItem` takes.
    package func need(of menuItem: String) -> [String: Int] { needs[menuItem] ?? [:] }

    /// For each fruit, in the book's order, how much one of every menu item
    /// needs together: the script generators restock in proportion to it.
    package var demand: [Int] {
        book.fruits.map { fruit in book.menuIDs.reduce(0) { $0 + (need(of: $1)[fruit] ?? 0) } }
    }

    /// Adds `times` batches of `id` to `need`, fruit by fruit, by walking every path.
    private func expand(_ id: String, times: Int, into need: inout [String: Int]) {
        guard let blend = blends[id] else {
            need[id, default: 0] += times  // a fruit
            return
        }
        for ingredient in blend.ingredients {
            expand(ingredient.id, times: times * ingredient.amount, into: &need)
        }
    }

    // MARK: Running a script

    enum Command {
        case order(String, count: Int)
        case restock(String, amount: Int)
    }

    /// Runs every line, numbered from 1.
    package mutating func run(_ lines: [String]) -> ReferenceRun {
        var run = ReferenceRun()
        for (index, line) in lines.enumerated() {
            let number = index + 1
            switch parse(line) {
            case .blank:
                continue
            case .invalid:
                run.skippedLines.append(number)
            case .command(.order(let item, let count)):
                for _ in 0..<count {
                    let (refusal, substituted) = order(item)
                    run.orders.append(OrderRecord(line: number, menu: item, refusal: refusal, substituted: substituted))
                }
            case .command(.restock(let fruit, let amount)):
                stock[fruit, default: 0] += amount
                run.restocks.append(RestockRecord(line: number, fruit: fruit, stock: stock[fruit] ?? 0))
            }
        }
        run.finalStock = stock
        return run
    }

    /// Takes one order's fruit, all or nothing; returns the shortfalls (nil
    /// when served) and what stood in.
    ///
    /// Substitutes (docs/recipes.md), one missing unit at a time: every
    /// fruit first serves the order's own need; then, for each short fruit
    /// in the book's order, each missing unit takes `ratio` units of the
    /// first listed substitute that still has that many left. A unit no
    /// substitute can cover refuses the order, naming the fruit and, after
    /// it, each of its substitutes with all that the order asked of it.
    private mutating func order(_ item: String) -> (refusal: [Shortfall]?, substituted: [String: [String: Int]]) {
        let need = need(of: item)
        var left = stock
        var taken: [String: Int] = [:]
        var missing: [(fruit: String, units: Int)] = []
        for fruit in book.fruits {
            let wanted = need[fruit] ?? 0
            let own = min(wanted, left[fruit] ?? 0)
            left[fruit, default: 0] -= own
            taken[fruit, default: 0] += own
            if wanted > own { missing.append((fruit, wanted - own)) }
        }
        var short: [Shortfall] = []
        var substituted: [String: [String: Int]] = [:]
        for (fruit, units) in missing {
            let standIns = book.substitutes[fruit] ?? []
            // What each substitute was asked before this fruit, and gives it.
            let askedBefore = standIns.map { (stock[$0.id] ?? 0) - (left[$0.id] ?? 0) }
            var given = [Int](repeating: 0, count: standIns.count)
            var uncovered = 0
            for _ in 0..<units {
                guard let place = standIns.indices.first(where: { (left[standIns[$0].id] ?? 0) >= standIns[$0].amount }) else {
                    uncovered += 1
                    continue
                }
                left[standIns[place].id, default: 0] -= standIns[place].amount
                given[place] += standIns[place].amount
            }
            for place in standIns.indices where given[place] > 0 {
                substituted[fruit, default: [:]][standIns[place].id, default: 0] += given[place]
                taken[standIns[place].id, default: 0] += given[place]
            }
            guard uncovered > 0 else { continue }
            short.append(Shortfall(fruit: fruit, need: need[fruit] ?? 0, have: stock[fruit] ?? 0))
            // The units still missing after each substitute, in the listed order.
            var stillMissing = units
            for (place, standIn) in standIns.enumerated() {
                stillMissing -= given[place] / standIn.amount
                let asked = askedBefore[place] + given[place] + stillMissing * standIn.amount
                short.append(Shortfall(fruit: standIn.id, need: asked, have: stock[standIn.id] ?? 0, standsInFor: fruit))
            }
        }
        guard short.isEmpty else { return (short, [:]) }
        for (fruit, amount) in taken { stock[fruit, default: 0] -= amount }
        return (nil, substituted)
    }

    enum Line {
        case blank
        case invalid
        case command(Command)
    }

    /// The order-script grammar of docs/recipes.md: `#` to the end of the line is
    /// a comment; words are separated by spaces or tabs; `restock FRUIT N` with
    /// N >= 1; `MENU-ID` or `MENU-ID xN` with 1 <= N <= 1,000,000. Numbers are
    /// plain decimal digits with no sign and no leading zero.
    func parse(_ line: String) -> Line {
        let content = line.prefix { $0 != "#" }
        let words = content.split { $0 == " " || $0 == "\t" }.map(String.init)
        guard let first = words.first else { return .blank }
        if first == "restock" {
            guard words.count == 3, book.fruits.contains(words[1]),
                  let amount = Self.plainNumber(words[2]), amount >= 1 else { return .invalid }
            return .command(.restock(words[1], amount: amount))
        }
        guard words.count <= 2, book.menuIDs.contains(first) else { return .invalid }
        guard words.count == 2 else { return .command(.order(first, count: 1)) }
        guard words[1].hasPrefix("x"), let count = Self.plainNumber(String(words[1].dropFirst())),
              (1...Self.maxRepeat).contains(count) else { return .invalid }
        return .command(.order(first, count: count))
    }

    static func plainNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ ("0"..."9").contains($0) }),
              text.count == 1 || !text.hasPrefix("0") else { return nil }
        return Int(text)
    }
}
