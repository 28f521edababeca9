import JuiceBook
/// The exact mean of a money figure over runs (each run's `Money` exact),
/// so the summary prints money as a run does: exact until it is rounded
/// once, to two places, half to even (`Money.description`), never as a
/// double. 128 bits: up to 100,000 runs of 64-bit amounts cannot overflow
/// a common denominator's numerator unless the runs' denominators differ
/// widely, and then the mean is unknown here (nil) and the double is used.
public struct MoneyMean: Sendable, Hashable, CustomStringConvertible {
    /// numerator ÷ denominator, reduced, the denominator positive.
    public let numerator: Int128
    public let denominator: Int128

    /// The mean of `values`, each divided by `divisor` (≥ 1: a per-day
    /// figure); nil with no values or past 128 bits.
    public init?(_ values: [Money], dividedBy divisor: Int = 1) {
        guard !values.isEmpty, divisor > 0 else { return nil }
        var top: Int128 = 0, bottom: Int128 = 1
        for value in values {
            // top/bottom + n/d = (top × d/g + n × bottom/g) / (bottom/g × d)
            let d = Int128(value.denominator), g = Self.gcd(bottom, d)
            let (left, o1) = top.multipliedReportingOverflow(by: d / g)
            let (right, o2) = Int128(value.numerator).multipliedReportingOverflow(by: bottom / g)
            let (sum, o3) = left.addingReportingOverflow(right)
            let (common, o4) = (bottom / g).multipliedReportingOverflow(by: d)
            guard !(o1 || o2 || o3 || o4) else { return nil }
            let reduce = Self.gcd(sum, common)
            top = sum / reduce
            bottom = common / reduce
        }
        let (scaled, overflow) = bottom.multipliedReportingOverflow(by: Int128(values.count) * Int128(divisor))
        guard !overflow else { return nil }
        let reduce = Self.gcd(top, scaled)
        numerator = top / reduce
        denominator = scaled / reduce
    }

    private static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (a, b) = (a.magnitude, b.magnitude)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : Int128(a)
    }

    /// Rounded once to two places, half to even: `0.75`, `-3.00`.
    public var description: String { minus(0) ?? "" }

    /// This mean less `offset` (an interval's half-width, or its negative),
    /// rounded once to two places, half to even; nil past 128 bits. The
    /// mean's whole cents are exact; only the fraction of a cent left and
    /// the offset meet in a double, so a zero offset prints the mean itself.
    public func minus(_ offset: Double) -> String? {
        let (hundred, overflow) = numerator.multipliedReportingOverflow(by: 100)
        guard !overflow else { return nil }
        var cents = hundred / denominator, rest = hundred % denominator
        if rest < 0 {
            cents -= 1
            rest += denominator
        }
        // cents + rest/denominator − offset × 100, with 0 ≤ rest/denominator < 1.
        let left: Int128
        if offset == 0 {
            // 2 × rest past 128 bits is past the denominator too.
            let (twice, past) = rest.multipliedReportingOverflow(by: 2)
            left = past || twice > denominator || (twice == denominator && cents % 2 != 0) ? 1 : 0
        } else {
            let fraction = Double(rest) / Double(denominator) - offset * 100
            let rounded = fraction.rounded(.toNearestOrEven)
            guard rounded.isFinite, abs(rounded) < 1e36 else { return nil }
            left = Int128(rounded)
        }
        let (total, late) = cents.addingReportingOverflow(left)
        guard !late else { return nil }
        let whole = total.magnitude / 100, part = total.magnitude % 100
        return (total < 0 ? "-" : "") + String(whole) + "." + (part < 10 ? "0" : "") + String(part)
    }
}
