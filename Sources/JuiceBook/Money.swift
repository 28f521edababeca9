/// An exact amount of money in the shop's smallest currency unit: a
/// fraction, since a recipe's cost per serving is its batch's cost divided
/// by its yield (3 mangoes at 1 for a yield of 4 cost 0.75 a serving).
///
/// Costs are added and multiplied exactly and rounded once, for display
/// (`description`: two decimal places, half to even), so no total is ever a
/// sum of rounded parts. Every operation checks for overflow and gives nil
/// past what 64-bit numerators and denominators hold; reports show such a
/// figure as unknown rather than a wrong number.
public struct Money: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Always reduced, with a positive denominator.
    public let numerator: Int
    public let denominator: Int

    public static let zero = Money(0)

    /// A whole amount.
    public init(_ whole: Int) {
        numerator = whole
        denominator = 1
    }

    /// `numerator ÷ denominator`, reduced; nil when `denominator` is not positive.
    public init?(_ numerator: Int, over denominator: Int) {
        guard denominator > 0 else { return nil }
        let divisor = Self.gcd(numerator.magnitude, UInt(denominator))
        self.numerator = numerator / Int(divisor)
        self.denominator = denominator / Int(divisor)
    }

    private static func gcd(_ a: UInt, _ b: UInt) -> UInt {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }

    /// The sum, or nil past 64 bits.
    public func adding(_ other: Money) -> Money? {
        let divisor = Int(Self.gcd(UInt(denominator), UInt(other.denominator)))
        let (common, overflowA) = (denominator / divisor).multipliedReportingOverflow(by: other.denominator)
        let (left, overflowB) = numerator.multipliedReportingOverflow(by: common / denominator)
        let (right, overflowC) = other.numerator.multipliedReportingOverflow(by: common / other.denominator)
        let (sum, overflowD) = left.addingReportingOverflow(right)
        guard !(overflowA || overflowB || overflowC || overflowD) else { return nil }
        return Money(sum, over: common)
    }

    /// The difference, or nil past 64 bits.
    public func subtracting(_ other: Money) -> Money? {
        guard other.numerator != Int.min else { return nil }
        return adding(Money(numerator: -other.numerator, denominator: other.denominator))
    }

    /// `times` of this amount, or nil past 64 bits.
    public func multiplied(by times: Int) -> Money? {
        let divisor = Int(Self.gcd(times.magnitude, UInt(denominator)))
        let (product, overflow) = numerator.multipliedReportingOverflow(by: times / divisor)
        return overflow ? nil : Money(product, over: denominator / divisor)
    }

    /// This amount shared out over `parts` (at least 1), or nil.
    public func divided(by parts: Int) -> Money? {
        guard parts > 0 else { return nil }
        let divisor = Int(Self.gcd(numerator.magnitude, UInt(parts)))
        let (denominator, overflow) = self.denominator.multipliedReportingOverflow(by: parts / divisor)
        return overflow ? nil : Money(numerator / divisor, over: denominator)
    }

    private init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        // Compared as a full-width cross product, which cannot overflow.
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return (left.high, left.low) < (right.high, right.low)
    }

    /// Rounded to two decimal places, half to even: `0.75`, `0.12` for
    /// 0.125, `-3.00`. Rounding is done once, here, on the exact value.
    public var description: String {
        let denominator = UInt(self.denominator)
        var whole = numerator.magnitude / denominator
        let rest = numerator.magnitude % denominator
        // The hundredths of what is left: under 100, since `rest` < the denominator.
        let (hundredths, remainder) = denominator.dividingFullWidth(rest.multipliedFullWidth(by: 100))
        var cents = hundredths
        let twice = remainder.multipliedFullWidth(by: 2)
        let over = (twice.high, twice.low) > (0, denominator)
        let exactHalf = (twice.high, twice.low) == (0, denominator)
        // Half to even: the last digit's parity is the hundredths' (whole × 100 is even).
        if over || (exactHalf && cents % 2 == 1) { cents += 1 }
        if cents == 100 {
            whole += 1
            cents = 0
        }
        let sign = numerator < 0 && (whole > 0 || cents > 0) ? "-" : ""
        return sign + String(whole) + "." + (cents < 10 ? "0" : "") + String(cents)
    }
}
