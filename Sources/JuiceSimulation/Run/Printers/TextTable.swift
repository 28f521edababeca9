@_spi(Internals) import JuiceSupport

/// Columns for a terminal, where Hangul and emoji take two columns: the
/// counter's stock and menu, the menu card and the shopping list.
enum TextTable {
    /// One line per row, each cell padded to its column's width (right-
    /// aligned in `rightAligned`), cells two spaces apart, after `indent`,
    /// with no trailing spaces. Control characters in cells are escaped; a
    /// column empty in every row takes no room.
    static func lines(_ rows: [[String]], rightAligned: Set<Int>, indent: String = "") -> [String] {
        let rows = rows.map { $0.map(\.escapingControlCharacters) }
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], DisplayWidth.of(cell)) }
        }
        return rows.map { row in
            var cells: [String] = []
            for (column, cell) in row.enumerated() where widths[column] > 0 {
                let padding = String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
                cells.append(rightAligned.contains(column) ? padding + cell : cell + padding)
            }
            var line = indent + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
