import Foundation

/// The Z report as CSV, for spreadsheets: one row per group (the day, each
/// till, each user), money as the report prints it. Fields that could hold a
/// comma, a quote or a formula's first character are quoted and guarded.
enum ReportCSV {
    static func render(_ report: APIBody.Report) -> String {
        var lines = ["day,group,name,orders,served,refused,voided,refunded,revenue,fruit_cost,gross_margin,waste_cost"]
        func row(_ group: String, _ name: String, _ figures: APIBody.Figures) {
            let fields = [report.day, group, name, String(figures.orders), String(figures.served), String(figures.refused),
                          String(figures.voided), String(figures.refunded), figures.revenue ?? "", figures.fruitCost ?? "",
                          figures.grossMargin ?? "", figures.wasteCost ?? ""]
            lines.append(fields.map(field).joined(separator: ","))
        }
        row("day", "", report.total)
        for till in report.tills { row("till", till.name, till.figures) }
        for user in report.users { row("user", user.name, user.figures) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One field, quoted when needed; a leading `=`, `+`, `-` or `@` in a
    /// name is prefixed with `'` so a spreadsheet does not run it.
    static func field(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+@".contains(first) || (first == "-" && Double(value) == nil) { value = "'" + value }
        guard value.contains(where: { ",\"\n\r".contains($0) }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
