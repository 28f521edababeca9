import JuiceDiagnostics
/// Ordering the recipe graph and reporting its cycles, before flattening.
extension Linker {
    /// Depth-first order with dependencies first, and which blends sit on a
    /// cycle. Each cycle is reported once, at the ingredient that closes it.
    mutating func orderAndReportCycles(_ edges: EdgeTable) -> (order: [Int], onCycle: [Bool]) {
        /// A blend on the path, and the range of its edges not yet
        /// followed: edges are read by index, so no step holds a slice
        /// (retained and released) of the edge table.
        struct Frame {
            var node: Int
            var nextEdge: Int
            var endEdge: Int

            init(node: Int, edges: Range<Int>) {
                self.node = node
                nextEdge = edges.lowerBound
                endEdge = edges.upperBound
            }
        }
        let count = edges.count
        var state = [UInt8](repeating: 0, count: count)  // 0 unvisited, 1 on the path, 2 done
        var positionOnPath = [Int](repeating: -1, count: count)
        var onCycle = [Bool](repeating: false, count: count)
        var order: [Int] = []
        order.reserveCapacity(count)
        var path: [Frame] = []
        for root in 0..<count where state[root] == 0 {
            state[root] = 1
            positionOnPath[root] = 0
            path.removeAll(keepingCapacity: true)
            path.append(Frame(node: root, edges: edges.edgeRange(of: root)))
            while let top = path.last {
                guard top.nextEdge < top.endEdge else {
                    state[top.node] = 2
                    positionOnPath[top.node] = -1
                    order.append(top.node)
                    path.removeLast()
                    continue
                }
                path[path.count - 1].nextEdge += 1
                let edge = edges.edge(at: top.nextEdge)
                guard case .blend(let child) = edge.target else { continue }
                switch state[child] {
                case 0:
                    state[child] = 1
                    positionOnPath[child] = path.count
                    path.append(Frame(node: child, edges: edges.edgeRange(of: child)))
                case 1:
                    let cycle = path[positionOnPath[child]...].map { $0.node }
                    let closing = declaration(ofEdge: top.nextEdge, in: edges)
                    for node in cycle { onCycle[node] = true }
                    reportCycle(cycle, closing: closing, edges: edges)
                default:
                    break
                }
            }
        }
        return (order, onCycle)
    }

    mutating func reportCycle(_ cycle: [Int], closing: IngredientDeclaration, edges: EdgeTable) {
        let ids = declarations.blends.ids
        var names = cycle.map { ids[$0] } + [ids[cycle[0]]]
        if names.count > Self.cycleStepsShown {
            names = Array(names.prefix(Self.cycleStepsShown - 1)) + ["...", names[names.count - 1]]
        }
        var notes: [Diagnostic.Note] = []
        for (step, node) in cycle.enumerated().prefix(Self.cycleStepsShown) {
            let next = step + 1 < cycle.count ? cycle[step + 1] : cycle[0]
            if let edge = edges.edgeRange(of: node).first(where: { if case .blend(next) = edges.edge(at: $0).target { return true } else { return false } }),
               case let range = declaration(ofEdge: edge, in: edges).range, range != closing.range {
                notes.append(.init(range: range, message: "'\(ids[node])' uses '\(ids[next])' here"))
            }
        }
        diagnostics.append(Diagnostic(
            .recipeCycle, at: closing.range,
            "recipe cycle: " + names.joined(separator: " -> ")
                + (cycle.count + 1 > Self.cycleStepsShown ? " (\(cycle.count) recipes)" : ""),
            notes: notes,
            help: "a recipe cannot contain itself, directly or through other recipes"
        ))
    }
}
