import JuiceBook
/// A figure of money as the tools show it: an exact amount, or why there is
/// none. Two reasons differ and are told apart: a fruit it depends on has no
/// `cost:` (`unknown`), or every cost is known but the figure is past what
/// `Money` holds (`tooLarge`: 64-bit numerators and denominators, so a whole
/// amount up to 9223372036854775807 of the smallest currency unit).
///
/// Arithmetic carries the reason: an unknown part makes the result unknown
/// (nothing can be said of its size), else a part too large, or an
/// operation that overflows, makes it too large.
public enum CostFigure: Sendable, Hashable {
    case exact(Money)
    /// A fruit it depends on has no cost.
    case unknown
    /// Every cost it depends on is known, and it is too large to count.
    case tooLarge

    /// What a report prints for a figure too large to count.
    public static let tooLargeText = "too large to count"

    /// The amount, when exact.
    public var money: Money? {
        if case .exact(let money) = self { return money }
        return nil
    }

    /// The result of a checked `Money` operation: nil from one means it overflowed.
    public init(checked money: Money?) {
        self = money.map(CostFigure.exact) ?? .tooLarge
    }

    /// `operation` applied to the amount; too large when it overflows.
    public func map(_ operation: (Money) -> Money?) -> CostFigure {
        guard case .exact(let money) = self else { return self }
        return CostFigure(checked: operation(money))
    }

    /// `operation` applied to both amounts; unknown when either is, else too
    /// large when either is or the operation overflows.
    public func combined(with other: CostFigure, _ operation: (Money, Money) -> Money?) -> CostFigure {
        switch (self, other) {
        case (.unknown, _), (_, .unknown): return .unknown
        case (.tooLarge, _), (_, .tooLarge): return .tooLarge
        case (.exact(let left), .exact(let right)): return CostFigure(checked: operation(left, right))
        }
    }

    /// The amount rounded for display (`Money.description`), `unknownText`
    /// when unknown, or `too large to count`.
    public func text(unknown unknownText: String = "unknown") -> String {
        switch self {
        case .exact(let money): return money.description
        case .unknown: return unknownText
        case .tooLarge: return Self.tooLargeText
        }
    }
}
