import JuiceBook
import JuiceShop
import JuiceEngine
/// What happened over a whole run.
public struct SimulationSummary: Sendable, Hashable {
    public var orders = 0
    public var served = 0
    public var refused = 0
    /// Script lines that were skipped because they were not valid commands.
    public var skippedLines = 0
    /// Final stock by fruit index.
    public var stock: [Int] = []
    /// Refusals by menu index.
    public var refusedByMenu: [Int] = []
    /// The prices of the orders served, exactly, or nil when no menu item has a price.
    public var revenue: Revenue?
    /// By fruit index, how much more the day needed at its worst moment (see
    /// `Simulation`); 0 for a fruit that never ran short.
    public var shortfall: [Int] = []
    /// Final servings on hand by recipe index, in a book that keeps them; empty otherwise.
    public var servings: [Int] = []
    /// Fruit cost, leftover value and gross margin, in a book that declares costs.
    public var money: RunMoney?
}

/// Receives every event of a run and renders it.
public protocol SimulationReporter {
    /// The commands that follow come from `source`; their `line`s count within it.
    mutating func begin(source: OrderSource)
    mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome)
    /// An order served or refused, with the batches a served one made (by
    /// recipe index, in recipe order; empty unless the book keeps servings).
    mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch])
    /// An order served or refused in a book with substitutes: also the
    /// substitutes that stood in for a served one (empty when none did).
    mutating func order(
        sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch], substitutions: [Substitution])
    mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int)
    mutating func set(line: Int, fruit: Int, stock: Int)
    /// `restock RECIPE N`: the servings on hand are now `servings`.
    mutating func restock(line: Int, recipe: Int, amount: Int, servings: Int)
    /// `set RECIPE N`.
    mutating func set(line: Int, recipe: Int, servings: Int)
    /// The `stock` command: the stock at this point, by fruit index.
    mutating func stock(line: Int, counts: [Int])
    mutating func problem(_ problem: ScriptProblem)
    mutating func finish(_ summary: SimulationSummary)
    /// False when the reporter ignores individual events (a quiet run): the
    /// run then does not tell it of single orders, builds no outcome for
    /// them, and takes `MENU-ID xN` in one step.
    var wantsEvents: Bool { get }
}

extension SimulationReporter {
    public var wantsEvents: Bool { true }
    /// A reporter that shows no batches hears of the order alone.
    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch]) {
        order(sequence: sequence, line: line, menu: menu, outcome: outcome)
    }
    /// A reporter that shows no substitutes hears of the order and its batches.
    public mutating func order(
        sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch], substitutions: [Substitution]
    ) {
        order(sequence: sequence, line: line, menu: menu, outcome: outcome, batches: batches)
    }
    public mutating func restock(line: Int, recipe: Int, amount: Int, servings: Int) {}
    public mutating func set(line: Int, recipe: Int, servings: Int) {}
    /// A reporter that does not name sources need not hear of them.
    public mutating func begin(source: OrderSource) {}
}

/// Replays order-script lines against a `JuiceMaker`.
///
/// A bad line is reported and skipped, and the run goes on; a refusal for
/// stock is an outcome, not an error.
///
/// **Shortfall.** Beside the real stock the simulation keeps a *virtual* stock
/// that starts at the opening stock and takes every order as if it had been
/// served, refused or not; restocks add to it and `set` resets it. The lowest
/// value each fruit's virtual stock reaches, below zero, is that fruit's
/// shortfall: how much more the day needed at its worst moment for every order
/// to be served. Virtual arithmetic saturates instead of overflowing.
public struct Simulation<Reporter: SimulationReporter> {
    public private(set) var maker: JuiceMaker
    public private(set) var summary = SimulationSummary()
    public var reporter: Reporter
    private let parser: ScriptParser
    /// The same run with every order served (see "Shortfall" above).
    private var virtual: ShortfallLedger
    /// Reused for every refusal, so a long run does not allocate per order.
    private var shortages: [Shortage] = []
    private let prices: [Int?]
    /// The servings on hand when the run began, for the leftover value.
    private let openingServings: [Int]

    /// A run against `store` (the book's opening stock by default); `file` names lines in messages.
    public init(book: RecipeBook, file: String, reporter: Reporter, store: FruitStore? = nil) {
        maker = JuiceMaker(book: book, store: store)
        parser = ScriptParser(book: book, file: file)
        self.reporter = reporter
        virtual = ShortfallLedger(following: maker)
        prices = book.menu.map(\.price)
        openingServings = maker.store.servings
        summary.refusedByMenu = [Int](repeating: 0, count: book.menu.count)
        summary.revenue = Revenue(tallying: book)
    }

    /// Runs one script line given as bytes, as `juice-run` reads a file: a
    /// valid line makes no `String` (invalid UTF-8 is shown as U+FFFD).
    public mutating func run(bytes: UnsafeBufferPointer<UInt8>, number: Int, file: String) {
        run(parser.parse(bytes: bytes, number: number), number: number, file: file)
    }

    /// Runs one script line. `file` names where it came from, for messages.
    public mutating func run(line: String, number: Int, file: String? = nil) {
        var text = line
        let parsed = text.withUTF8 { parser.parse(bytes: $0, number: number) }
        run(parsed, number: number, file: file ?? parser.file)
    }

    @inline(__always)
    private mutating func run(_ parsed: ScriptParser.Line, number: Int, file: String) {
        switch parsed {
        case .nothing:
            return
        case .command(let command):
            run(command, line: number, file: file)
        case .problem(var problem):
            problem.file = file
            skip(problem)
        }
    }

    /// The lines that follow come from `source`: call it before each script,
    /// the `--order`s and the `--random` orders, so every event names its origin.
    public mutating func begin(source: OrderSource) {
        reporter.begin(source: source)
    }

    /// Reports a line that could not even be read as a command, and skips it.
    public mutating func skip(_ problem: ScriptProblem) {
        summary.skippedLines += 1
        reporter.problem(problem)
    }

    /// Runs one parsed command.
    public mutating func run(_ command: ScriptCommand, line number: Int, file: String) {
        switch command {
        case .order(let menu, let count):
            // A quiet run needs no outcome per order, so `MENU-ID xN` is
            // served until a fruit runs short and refused after that in one
            // step (held equal to the order-by-order path by a seeded test).
            if count > 1, !reporter.wantsEvents, let served = maker.makeIfAvailable(menu, times: count) {
                tally(menu, orders: count, served: served)
            } else {
                for _ in 0..<count { order(menu, line: number) }
            }
        case .restock(let fruit, let amount):
            do {
                let stock = try maker.store.restock(fruit, by: amount)
                virtual.restock(fruit, by: amount)
                reporter.restock(line: number, fruit: fruit, amount: amount, stock: stock)
            } catch {
                summary.skippedLines += 1
                reporter.problem(ScriptProblem(
                    file: file, line: number,
                    message: "restocking \(amount) '\(maker.book.fruits[fruit].id)' would overflow its stock of \(maker.store[fruit])"
                ))
            }
        case .set(let fruit, let amount):
            // The parser only hands over amounts >= 0 for real fruits.
            try? maker.store.set(fruit, to: amount)
            virtual.set(fruit, to: amount)
            reporter.set(line: number, fruit: fruit, stock: maker.store[fruit])
        case .restockRecipe(let recipe, let amount):
            do {
                let servings = try maker.store.restock(recipe: recipe, by: amount)
                virtual.restock(recipe: recipe, by: amount)
                reporter.restock(line: number, recipe: recipe, amount: amount, servings: servings)
            } catch {
                summary.skippedLines += 1
                reporter.problem(ScriptProblem(
                    file: file, line: number,
                    message: "restocking \(amount) '\(maker.book.recipes[recipe].id)' would overflow its \(maker.store.servings[recipe]) servings on hand"
                ))
            }
        case .setRecipe(let recipe, let amount):
            try? maker.store.set(recipe: recipe, to: amount)
            virtual.set(recipe: recipe, to: amount)
            reporter.set(line: number, recipe: recipe, servings: amount)
        case .stock:
            reporter.stock(line: number, counts: maker.store.counts)
        }
    }

    private mutating func order(_ menu: Int, line: Int) {
        // A quiet run is told nothing of single orders, so it neither lists
        // the short fruits nor builds an outcome to compare.
        let wantsEvents = reporter.wantsEvents
        let served = wantsEvents ? maker.make(menu, shortages: &shortages) : maker.makeIfAvailable(menu)
        summary.orders += 1
        if served {
            summary.served += 1
            if let price = prices[menu] { summary.revenue?.add(price) }
        } else {
            summary.refused += 1
            summary.refusedByMenu[menu] += 1
        }
        virtual.serve(menu, alongside: maker, served: served ? 1 : 0)
        if wantsEvents {
            let outcome: JuiceMaker.Outcome = served ? .served : .refused(shortages)
            if maker.planner.declaresSubstitutes {
                reporter.order(
                    sequence: summary.orders, line: line, menu: menu, outcome: outcome, batches: served ? maker.batchesMade : [],
                    substitutions: served ? maker.substitutionsMade : [])
            } else if maker.keepsServings {
                reporter.order(sequence: summary.orders, line: line, menu: menu, outcome: outcome, batches: served ? maker.batchesMade : [])
            } else {
                reporter.order(sequence: summary.orders, line: line, menu: menu, outcome: outcome)
            }
        }
    }

    /// Counts `orders` orders of `menu`, the first `served` of them served,
    /// as that many calls of `order` would with no reporter listening.
    private mutating func tally(_ menu: Int, orders: Int, served: Int) {
        summary.orders += orders
        summary.served += served
        summary.refused += orders - served
        summary.refusedByMenu[menu] += orders - served
        if let price = prices[menu] {
            for _ in 0..<served { summary.revenue?.add(price) }
        }
        virtual.serve(menu, times: orders, alongside: maker, served: served)
    }

    /// Ends the run and reports the summary.
    public mutating func finish() -> SimulationSummary {
        summary.stock = maker.store.counts
        summary.servings = maker.store.servings
        if let costs = maker.planner.costs {
            summary.money = RunMoney(
                costs: costs, book: maker.book, fruitTaken: maker.fruitTaken, openingServings: openingServings,
                servings: maker.store.servings, revenue: summary.revenue
            )
        }
        summary.shortfall = virtual.amounts
        reporter.finish(summary)
        return summary
    }
}
