import JuiceBook

/// The substitutes rule (docs/recipes.md, "Substitutes"), and the one place
/// that lists what an order lacks: given what an order needs of each fruit
/// and the stock, it covers what is missing from the fruits' substitutes,
/// or says what is still short.
///
/// 1. Each fruit first serves the order's own need for it, a fruit that is
///    also another fruit's substitute included.
/// 2. A fruit short by k units is then covered from its substitutes in the
///    listed order, each missing unit taking `ratio` units of the
///    substitute out of what is left of it; short fruits are covered in
///    fruit (declaration) order.
/// 3. A substitute's own substitutes are not followed.
/// 4. Units still missing after the last substitute refuse the order.
///
/// Covering unit by unit takes from a substitute until fewer than `ratio`
/// units of it are left, and never comes back to it, so each substitute
/// covers as many units as it can at once here. The reference models
/// (Tests/Reference, DifferentialSupport) cover one unit at a time.
///
/// Its arrays are indexed by fruit and cleared through the lists of what
/// the last cover touched, so a long run reuses one cover.
struct SubstituteCover: Sendable {
    /// Units drawn of each fruit as a substitute; zero outside `drawn`.
    private var draw: [Int]
    private var drawn = ReusableList<Int>()
    /// Each fruit's own need in the last cover; zero outside `requirement`.
    private var required: [Int]
    /// What the last cover was asked for, by fruit in fruit order.
    private var requirement = ReusableList<RecipeBook.FruitAmount>()
    /// By place in `requirement`: how much of its own need the stock had.
    private var owns = ReusableList<Int>()
    private var stoodIn = ReusableList<Substitution>()
    /// A short fruit's substitutes that ran short, kept while it is covered.
    private var ranShort = ReusableList<Shortage>()
    /// What is still short (empty when the last cover succeeded).
    private(set) var shortages: [Shortage] = []

    /// The substitutes that stood in, in the order drawn.
    var substitutions: [Substitution] { stoodIn.elements }

    init(fruits: Int) {
        draw = Array(repeating: 0, count: max(fruits, 0))
        required = draw
    }

    /// Starts a cover: forgets the last one. Then `require` each fruit the
    /// order needs, and `cover`. Reusing the cover's lists keeps an order
    /// that draws on substitutes from allocating.
    mutating func begin() { clear() }

    /// Adds what the order needs of `fruit` (each fruit once).
    mutating func require(_ fruit: Int, _ amount: Int) {
        requirement.append(RecipeBook.FruitAmount(fruit: fruit, amount: amount))
        if required.indices.contains(fruit) { required[fruit] = amount }
    }

    /// Covers the requirement from `stock` (by fruit; a fruit past its end
    /// has none) with `substitutes` (by fruit; empty: none), and returns
    /// whether nothing is left short.
    mutating func cover(stock: [Int], substitutes: [[RecipeBook.Substitute]]) -> Bool {
        // Short fruits are covered in fruit order; a batch plan lists its
        // fruit in the order first touched.
        if !requirement.isSorted(by: \.fruit) { requirement.sort { $0.fruit < $1.fruit } }
        for place in 0..<requirement.count {
            let need = requirement[place]
            let have = Self.count(need.fruit, in: stock)
            owns.append(min(max(need.amount, 0), have))
            guard need.amount > have else { continue }
            var missing = need.amount - have
            ranShort.removeAll()
            let standIns = substitutes.indices.contains(need.fruit) ? substitutes[need.fruit] : []
            for standIn in standIns where standIn.ratio >= 1 && draw.indices.contains(standIn.fruit) && standIn.fruit != need.fruit {
                let substitute = standIn.fruit
                let stocked = Self.count(substitute, in: stock)
                // Its own need first, then what earlier short fruits drew.
                let used = min(required[substitute], stocked) + draw[substitute]
                let covered = min(missing, (stocked - used) / standIn.ratio)
                if covered > 0 {
                    // At most what is left of it, so no overflow.
                    let units = covered * standIn.ratio
                    if draw[substitute] == 0 { drawn.append(substitute) }
                    draw[substitute] += units
                    missing -= covered
                    stoodIn.append(Substitution(fruit: need.fruit, substitute: substitute, units: units, covered: covered))
                }
                if missing == 0 { break }
                let asked = Self.saturating(Self.saturating(used, plus: covered * standIn.ratio), plus: Self.saturating(missing, times: standIn.ratio))
                ranShort.append(Shortage(fruit: substitute, need: asked, have: stocked, standsInFor: need.fruit))
            }
            guard missing > 0 else { continue }
            shortages.append(Shortage(fruit: need.fruit, need: need.amount, have: have))
            shortages += ranShort.elements
        }
        return shortages.isEmpty
    }

    /// After a successful cover: each fruit taken and how much (its own
    /// need, as far as the stock has it, plus what it gave as a
    /// substitute), in fruit order.
    func taken(from stock: [Int]) -> [RecipeBook.FruitAmount] {
        var taken: [RecipeBook.FruitAmount] = []
        taken.reserveCapacity(requirement.count + drawn.count)
        for need in requirement.elements where need.amount > 0 {
            let own = min(need.amount, Self.count(need.fruit, in: stock))
            let total = own + draw[need.fruit]
            if total > 0 { taken.append(RecipeBook.FruitAmount(fruit: need.fruit, amount: total)) }
        }
        for fruit in drawn.elements where required[fruit] == 0 {
            taken.append(RecipeBook.FruitAmount(fruit: fruit, amount: draw[fruit]))
        }
        return taken.sorted { $0.fruit < $1.fruit }
    }

    /// Takes what the last (successful) cover says from `counts`, adding
    /// each fruit taken to `taken` unless it is empty; allocates nothing.
    func apply(to counts: inout [Int], counting taken: inout [Int]) {
        for place in 0..<requirement.count {
            let need = requirement[place]
            guard need.amount > 0 && counts.indices.contains(need.fruit) else { continue }
            let own = min(need.amount, counts[need.fruit])
            counts[need.fruit] -= own
            Self.count(need.fruit, own, into: &taken)
        }
        for place in 0..<drawn.count {
            let fruit = drawn[place]
            guard counts.indices.contains(fruit) else { continue }
            counts[fruit] -= draw[fruit]
            Self.count(fruit, draw[fruit], into: &taken)
        }
    }

    private static func count(_ fruit: Int, _ amount: Int, into taken: inout [Int]) {
        guard taken.indices.contains(fruit) else { return }
        taken[fruit] = saturating(taken[fruit], plus: amount)
    }

    /// After a successful cover, once taken: calls `body` with each fruit
    /// taken and how much (its own need as far as the stock had it, plus
    /// what it gave as a substitute).
    func forEachTaken(_ body: (_ fruit: Int, _ amount: Int) -> Void) {
        for place in 0..<min(requirement.count, owns.count) {
            let need = requirement[place]
            let total = owns[place] + (required.indices.contains(need.fruit) ? draw[need.fruit] : 0)
            if total > 0 { body(need.fruit, total) }
        }
        for place in 0..<drawn.count where required[drawn[place]] == 0 { body(drawn[place], draw[drawn[place]]) }
    }

    private mutating func clear() {
        for place in 0..<drawn.count { draw[drawn[place]] = 0 }
        drawn.removeAll()
        for place in 0..<requirement.count where required.indices.contains(requirement[place].fruit) { required[requirement[place].fruit] = 0 }
        requirement.removeAll()
        owns.removeAll()
        stoodIn.removeAll()
        if !shortages.isEmpty { shortages.removeAll(keepingCapacity: true) }
    }

    private static func count(_ fruit: Int, in stock: [Int]) -> Int {
        stock.indices.contains(fruit) ? max(stock[fruit], 0) : 0
    }

    static func saturating(_ total: Int, plus amount: Int) -> Int { BatchPlanner.Scratch.saturating(total, plus: amount) }
    static func saturating(_ amount: Int, times: Int) -> Int { BatchPlanner.Scratch.saturating(amount, times: times) }
}

