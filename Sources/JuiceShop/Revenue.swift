import JuiceBook
/// The money a run took: a 128-bit sum of prices, so it is exact for any run.
///
/// A price is at most `Int.max` and a run serves fewer than 2^63 orders, so
/// the sum stays below 2^126: it cannot overflow. Saturating at `Int.max`, as
/// an `Int` would have to, printed a wrong number without saying so. (Not
/// `Int128`, which older Apple platforms lack.)
public struct Revenue: Sendable, Hashable, CustomStringConvertible {
    /// The upper and lower 64 bits of the sum.
    @usableFromInline var high: UInt64 = 0
    @usableFromInline var low: UInt64 = 0

    /// Nothing taken yet.
    public init() {}

    /// The till for selling from `book`: nil when no menu item has a price,
    /// so that a book without prices reports no revenue rather than 0. The
    /// run and the counter both open theirs here.
    public init?(tallying book: RecipeBook) {
        guard book.menu.contains(where: { $0.price != nil }) else { return nil }
        self.init()
    }

    /// Adds one served order's price; prices are never negative, and one that
    /// were would count as 0 rather than wrap the sum.
    ///
    /// Inlinable: the replay adds a price per order, across the module
    /// boundary since this type moved to JuiceShop for the shop's day report.
    @inlinable public mutating func add(_ price: Int) {
        guard price > 0 else { return }
        let (sum, carry) = low.addingReportingOverflow(UInt64(price))
        low = sum
        if carry { high &+= 1 }
    }

    /// Adds another sum (a shop's day, into the chain's day). A shop's day
    /// is below 2^126, so up to four of them cannot pass 2^128; a chain
    /// with more shops would need days of over 2^124 in the smallest unit
    /// each to wrap, which no till takes.
    public mutating func add(_ other: Revenue) {
        let (sum, carry) = low.addingReportingOverflow(other.low)
        low = sum
        high = high &+ other.high &+ (carry ? 1 : 0)
    }

    /// The sum as an `Int`, when it fits.
    public var exactInt: Int? {
        high == 0 && low <= UInt64(Int.max) ? Int(low) : nil
    }

    /// The sum in decimal, every digit exact.
    public var description: String {
        guard high != 0 else { return String(low) }
        // Peel off 19 digits at a time: 10^19 is the largest power of ten in a UInt64.
        let chunk: UInt64 = 10_000_000_000_000_000_000
        var (upper, lower) = (high, low)
        var groups: [UInt64] = []
        while upper != 0 {
            let (upperQuotient, upperRemainder) = upper.quotientAndRemainder(dividingBy: chunk)
            let (lowerQuotient, lowerRemainder) = chunk.dividingFullWidth((upperRemainder, lower))
            groups.append(lowerRemainder)
            (upper, lower) = (upperQuotient, lowerQuotient)
        }
        var text = String(lower)
        for group in groups.reversed() {
            let digits = String(group)
            text += String(repeating: "0", count: 19 - digits.count) + digits
        }
        return text
    }
}
