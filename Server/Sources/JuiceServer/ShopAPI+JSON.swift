import Foundation
import JuiceBook
import JuiceShop

/// The API's JSON bodies, one type per shape in `openapi.yaml`.
enum APIBody {
    struct SignIn: Decodable {
        var user: String
        var password: String
    }

    struct SignedIn: Encodable {
        var user: String
        var role: String
        var csrf: String
    }

    struct OrderRequest: Decodable {
        var id: String
        var item: String
        var quantity: Int
        /// The till's name, shown in the journal and the report.
        var till: String?
        /// The refusal this order makes good ("make now" after editing the stock).
        var resolves: Int64?
    }

    struct StockRequest: Decodable {
        var fruit: String
        var set: Int?
        var add: Int?
        var id: String?
        var till: String?
    }

    struct CloseDay: Decodable {
        /// The day to close; the open one when left out.
        var day: String?
    }

    struct Fruit: Encodable {
        var id: String
        var label: String
        var emoji: String?
        var count: Int
    }

    struct Servings: Encodable {
        var id: String
        var label: String
        var count: Int
    }

    struct MenuItem: Encodable {
        var id: String
        var label: String
        var price: Int?
        /// `ready` or `sold-out`.
        var status: String
        var capacity: Int
        var limitingFruit: String?
    }

    struct ShopState: Encodable {
        var day: String?
        var dayOpen: Bool
        var bookVersion: Int
        var sequence: Int64
        /// Each fruit's count by id: the stock, as the journal replays to.
        var stock: [String: Int]
        var fruits: [Fruit]
        var servings: [Servings]
        var menu: [MenuItem]
        var bookProblems: String?
        var user: String
        var role: String
    }

    /// What staff hear of another user's entry on `GET /api/events`.
    struct EntryNotice: Encodable {
        var sequence: Int64
        var day: String
        var time: Int64
        var kind: String

        init(_ entry: JournalEntry) {
            sequence = entry.sequence
            day = entry.day
            time = entry.time
            kind = entry.event.kind
        }
    }

    struct Journal: Encodable {
        var day: String
        var entries: [JournalEntry]
    }

    struct Figures: Encodable {
        var orders: Int
        var served: Int
        var refused: Int
        var voided: Int
        var refunded: Int
        /// Money in the smallest currency unit: whole for revenue, exact
        /// decimals (2 places, half to even) for costs, with the exact fraction beside.
        var revenue: String?
        var fruitCost: String?
        var fruitCostExact: String?
        var grossMargin: String?
        var wasteCost: String?

        init(_ figures: DayReport.Figures) {
            orders = figures.orders
            served = figures.served
            refused = figures.refused
            voided = figures.voided
            refunded = figures.refunded
            revenue = figures.revenue?.description
            fruitCost = figures.fruitCost?.description
            fruitCostExact = figures.fruitCost.map { "\($0.numerator)/\($0.denominator)" }
            grossMargin = figures.grossMargin?.description
            wasteCost = figures.wasteCost?.description
        }
    }

    struct Named: Encodable {
        var name: String
        var figures: Figures
    }

    struct Report: Encodable {
        var day: String
        var closed: Bool
        var total: Figures
        var tills: [Named]
        var users: [Named]
        var waste: [JournalEntry.Count]
        var openingStock: JournalEntry.Stock?
        var closingStock: JournalEntry.Stock?

        init(_ report: DayReport) {
            day = report.day
            closed = report.isClosed
            total = Figures(report.total)
            tills = report.tills.map { Named(name: $0.name, figures: Figures($0.figures)) }
            users = report.users.map { Named(name: $0.name, figures: Figures($0.figures)) }
            waste = report.waste
            openingStock = report.openingStock
            closingStock = report.closingStock
        }
    }

    /// `GET /api/chain`: every shop's day and stock, for owners.
    struct Chain: Encodable {
        var shops: [ChainShop]
    }

    struct ChainShop: Encodable {
        var shop: String
        var day: String?
        var dayOpen: Bool
        var sequence: Int64
        var stock: [String: Int]
        var servings: [String: Int]
    }

    /// `GET /api/chain/report`: each shop's Z report and the chain's total, their sum.
    struct ChainReportBody: Encodable {
        var day: String
        var shops: [ShopReport]
        var total: Figures
        var waste: [JournalEntry.Count]

        init(_ report: ChainReport) {
            day = report.day
            shops = report.shops.map { ShopReport(shop: $0.shop, report: Report($0.report)) }
            total = Figures(report.total)
            waste = report.waste
        }
    }

    struct ShopReport: Encodable {
        var shop: String
        var report: Report
    }
}
