import Foundation
import Hummingbird
import HTTPTypes
import JuiceShop
import JuiceStore

/// The counter's pages: sign in, counter, stock, journal and the day's
/// report. Each is plain HTML rendered on the server from the same state
/// the API gives; `app.js` (a few kilobytes, no build step) adds the taps
/// and the live updates from `GET /api/events`.
struct Pages {
    let server: ShopServer

    func add(to router: Router<ShopRequestContext>) {
        router.get("/app.js") { _, _ in Self.asset(Assets.script, type: "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in Self.asset(Assets.style, type: "text/css; charset=utf-8") }
        router.get("/signin") { _, context -> Response in
            if context.identity != nil { return Self.redirect("/") }
            return Self.page(title: "Sign in", user: nil, csrf: nil, body: Self.signIn)
        }
        router.get("/") { _, context -> Response in
            guard let user = context.identity else { return Self.redirect("/signin") }
            let state = await server.shopState(for: user)
            return Self.page(title: "Counter", user: user, csrf: context.sessions.session?.csrf, body: Self.counter(state, user: user))
        }
        router.get("/stock") { _, context -> Response in
            guard let user = context.identity else { return Self.redirect("/signin") }
            guard user.role == .manager else { return Self.forbidden(user, csrf: context.sessions.session?.csrf) }
            let state = await server.shopState(for: user)
            return Self.page(title: "Stock", user: user, csrf: context.sessions.session?.csrf, body: Self.stock(state))
        }
        router.get("/journal") { request, context -> Response in
            guard let user = context.identity else { return Self.redirect("/signin") }
            let day = (request.uri.queryParameters.get("day").map { String($0) }).flatMap { try? ShopServer.checkDay($0) }
            let shownDay: String
            if let day { shownDay = day } else { shownDay = await server.service.currentDay() }
            var entries = (try? await server.service.entries(day: shownDay)) ?? []
            if user.role != .manager { entries = entries.filter { $0.user == user.name } }
            let till = request.uri.queryParameters.get("till").map { String($0) } ?? ""
            let who = request.uri.queryParameters.get("user").map { String($0) } ?? ""
            if !till.isEmpty { entries = entries.filter { $0.till == till } }
            if !who.isEmpty { entries = entries.filter { $0.user == who } }
            return Self.page(title: "Journal", user: user, csrf: context.sessions.session?.csrf,
                             body: Self.journal(entries.reversed(), day: shownDay, till: till, who: who, manager: user.role == .manager))
        }
        router.get("/report") { request, context -> Response in
            guard let user = context.identity else { return Self.redirect("/signin") }
            guard user.role == .manager else { return Self.forbidden(user, csrf: context.sessions.session?.csrf) }
            let asked = request.uri.queryParameters.get("day").map { String($0) }.flatMap { try? ShopServer.checkDay($0) }
            let day: String
            if let asked { day = asked } else { day = await server.service.currentDay() }
            let open = await server.service.shop.openDay
            guard let report = try? await server.service.report(day: day) else {
                return Self.page(title: "Report", user: user, csrf: context.sessions.session?.csrf, body: HTML(raw: "<h1>Report</h1><p>The report cannot be read now.</p>"))
            }
            return Self.page(title: "Day report", user: user, csrf: context.sessions.session?.csrf, body: Self.report(APIBody.Report(report), isOpenDay: day == open))
        }
    }

    // MARK: The frame

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path])
    }

    static func forbidden(_ user: ShopUser, csrf: String?) -> Response {
        var response = page(title: "Managers only", user: user, csrf: csrf, body: HTML(raw: """
            <h1>Managers only</h1><p role="alert">This page is for managers. Ask a manager if you need it.</p><p><a class="button" href="/">Back to the counter</a></p>
            """))
        response.status = .forbidden
        return response
    }

    static func page(title: String, user: ShopUser?, csrf: String?, body: HTML) -> Response {
        var nav = HTML(raw: "")
        if let user {
            var links = [("/", "Counter"), ("/journal", "Journal")]
            if user.role == .manager { links.insert(("/stock", "Stock"), at: 1); links.append(("/report", "Day report")) }
            nav = HTML(raw: """
                <header><nav aria-label="Main"><ul>\(HTML.join(links.map { HTML(raw: "<li><a href=\"\($0.0)\"\($0.1 == title ? " aria-current=\"page\"" : "")>\($0.1)</a></li>") }))</ul></nav>
                <p class="who">\(HTML.text(user.name)) (\(HTML.text(user.role.rawValue))) <button type="button" id="sign-out">Sign out</button></p></header>
                """)
        }
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.text(title)) · juice-serve</title><link rel="stylesheet" href="/app.css">
            \(csrf.map { "<meta name=\"csrf-token\" content=\"\(HTML.escape($0))\">" } ?? "")
            <script src="/app.js" defer></script></head>
            <body>\(nav)<main id="main">\(body)</main><div id="status" role="status" aria-live="polite"></div></body></html>
            """
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    // MARK: Screens

    static let signIn = HTML(raw: """
        <h1>Sign in</h1>
        <form id="sign-in" class="card">
        <label for="user">User name</label><input id="user" name="user" autocomplete="username" required>
        <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit">Sign in</button>
        <p id="sign-in-error" role="alert"></p>
        </form>
        """)

    static func counter(_ state: APIBody.ShopState, user: ShopUser) -> HTML {
        let fruits = HTML.join(state.fruits.map { fruit in
            HTML(raw: "<li data-fruit=\"\(HTML.escape(fruit.id))\"><span aria-hidden=\"true\">\(HTML.text(fruit.emoji ?? ""))</span> \(HTML.text(fruit.label)) <strong class=\"count\">\(fruit.count)</strong></li>")
        })
        let servings = HTML.join(state.servings.map { serving in
            HTML(raw: "<li data-servings=\"\(HTML.escape(serving.id))\">\(HTML.text(serving.label)) <strong class=\"count\">\(serving.count)</strong> on hand</li>")
        })
        let items = HTML.join(state.menu.map { item in
            HTML(raw: """
                <li><button type="button" class="item" data-item="\(HTML.escape(item.id))"\(item.status == "sold-out" ? " aria-disabled=\"true\"" : "")>
                <span class="label">\(HTML.text(item.label))</span><span class="price">\(item.price.map { Self.money($0) } ?? "")</span>
                <span class="state">\(Self.itemState(item))</span></button></li>
                """)
        })
        return HTML(raw: """
            <h1>Counter <span class="day">\(HTML.text(state.day ?? ""))</span></h1>
            \(state.dayOpen ? "" : "<p role=\"alert\">The day is closed.</p>")
            <section aria-labelledby="stock-heading"><h2 id="stock-heading">Fruit</h2><ul class="fruits" id="fruits">\(fruits)</ul>
            \(state.servings.isEmpty ? "" : "<h2>Servings on hand</h2><ul class=\"fruits\" id=\"servings\">\(servings)</ul>")</section>
            <section aria-labelledby="menu-heading"><h2 id="menu-heading">Menu</h2>
            <p class="quantity"><label for="quantity">Quantity ×</label><input id="quantity" type="number" min="1" max="\(Shop.maxQuantity)" value="1" inputmode="numeric"></p>
            <ul class="menu" id="menu" data-role="\(user.role.rawValue)">\(items)</ul></section>
            <div id="refusal" class="card" hidden role="alertdialog" aria-labelledby="refusal-text"><p id="refusal-text"></p>
            <p class="actions">\(user.role == .manager
                ? "<a class=\"button\" id=\"edit-stock\" href=\"/stock\">Edit stock</a> <button type=\"button\" id=\"make-now\">Make now</button>"
                : "<strong>Ask a manager</strong> to edit the stock.") <button type="button" id="dismiss">Close</button></p></div>
            """)
    }

    static func itemState(_ item: APIBody.MenuItem) -> String {
        item.status == "sold-out" ? "Sold out" : "Ready · \(item.capacity) can be made"
    }

    static func money(_ amount: Int) -> String {
        let sign = amount < 0 ? "-" : ""
        let magnitude = amount.magnitude
        return "\(sign)\(magnitude / 100).\(String(format: "%02d", Int(magnitude % 100)))"
    }

    static func stock(_ state: APIBody.ShopState) -> HTML {
        func row(_ id: String, _ label: String, _ count: Int, kind: String) -> HTML {
            let field = "set-\(kind)-\(id)"
            return HTML(raw: """
                <li class="stock-row" data-stock="\(HTML.escape(id))"><span class="name">\(HTML.text(label))</span>
                <button type="button" class="step" data-add="-1" aria-label="Take one \(HTML.escape(label))">−</button>
                <strong class="count" aria-live="polite">\(count)</strong>
                <button type="button" class="step" data-add="1" aria-label="Add one \(HTML.escape(label))">+</button>
                <label for="\(HTML.escape(field))" class="visually-hidden">Set \(HTML.text(label)) to</label>
                <input id="\(HTML.escape(field))" class="set-value" type="number" min="0" inputmode="numeric" value="\(count)">
                <button type="button" class="set">Set</button></li>
                """)
        }
        let fruitRows = HTML.join(state.fruits.map { row($0.id, "\($0.emoji.map { $0 + " " } ?? "")\($0.label)", $0.count, kind: "fruit") })
        let servingRows = HTML.join(state.servings.map { row($0.id, $0.label + " (servings)", $0.count, kind: "servings") })
        let problems = state.bookProblems.map { "<section class=\"card\" aria-labelledby=\"book-heading\"><h2 id=\"book-heading\">The book change was refused</h2><pre>\(HTML.escape($0))</pre></section>" } ?? ""
        return HTML(raw: """
            <h1>Stock</h1>\(problems)
            <p>Each change is written to the journal with your name. Stock never goes below 0.</p>
            <ul class="stock" id="stock-list">\(fruitRows)\(servingRows)</ul>
            """)
    }

    static func journal(_ entries: [JournalEntry], day: String, till: String, who: String, manager: Bool) -> HTML {
        let rows = HTML.join(entries.map { entry in
            var actions = ""
            if manager, case .order = entry.event {
                actions = "<button type=\"button\" class=\"void\" data-order=\"\(entry.sequence)\">Void</button> <button type=\"button\" class=\"refund\" data-order=\"\(entry.sequence)\">Refund</button>"
            }
            return HTML(raw: "<tr><td>\(entry.sequence)</td><td>\(Self.clock(entry.time))</td><td>\(HTML.text(entry.user))</td><td>\(HTML.text(entry.till))</td><td>\(HTML.text(entry.event.kind))</td><td>\(HTML.text(Self.describe(entry)))</td><td>\(actions)</td></tr>")
        })
        return HTML(raw: """
            <h1>Journal <span class="day">\(HTML.text(day))</span></h1>
            <form class="filters" method="get" action="/journal">
            <label for="day">Day</label><input id="day" name="day" type="date" value="\(HTML.escape(day))">
            <label for="till">Till</label><input id="till" name="till" value="\(HTML.escape(till))">
            \(manager ? "<label for=\"user-filter\">User</label><input id=\"user-filter\" name=\"user\" value=\"\(HTML.escape(who))\">" : "")
            <button type="submit">Show</button></form>
            <div class="table"><table id="journal"><caption>Entries, newest first</caption>
            <thead><tr><th scope="col">#</th><th scope="col">Time</th><th scope="col">User</th><th scope="col">Till</th><th scope="col">Kind</th><th scope="col">What</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """)
    }

    static func clock(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    static func describe(_ entry: JournalEntry) -> String {
        func list(_ counts: [JournalEntry.Count]) -> String { counts.map { "\($0.count) \($0.id)" }.joined(separator: ", ") }
        switch entry.event {
        case .dayOpen(let stock): return "day opened: " + list(stock.fruit)
        case .order(let made):
            var text = "\(made.quantity) × \(made.item): \(list(made.fruit))"
            if !made.batches.isEmpty { text += "; batches \(list(made.batches))" }
            if !made.servings.isEmpty { text += "; servings " + made.servings.map { "\($0.recipe) used \($0.used), made \($0.made), left \($0.left)" }.joined(separator: ", ") }
            if !made.substitutions.isEmpty { text += "; " + made.substitutions.map { "\($0.units) \($0.substitute) for \($0.covered) \($0.fruit)" }.joined(separator: ", ") }
            return text
        case .refusal(let refused):
            return "\(refused.quantity) × \(refused.item) refused: " + refused.shortages.map { "\($0.fruit) need \($0.need), have \($0.have)" }.joined(separator: ", ")
        case .stockChange(let change): return "\(change.id): \(change.before) → \(change.after)"
        case .stockSet(let set): return "stock set (\(set.reason)): " + list(set.stock.fruit + set.stock.servings)
        case .void(let correction): return "void of order #\(correction.order) (\(correction.item))"
        case .refund(let correction): return "refund of order #\(correction.order) (\(correction.item))"
        case .dayClose: return "day closed"
        }
    }

    static func report(_ report: APIBody.Report, isOpenDay: Bool) -> HTML {
        func figures(_ name: String, _ f: APIBody.Figures) -> HTML {
            HTML(raw: "<tr><th scope=\"row\">\(HTML.text(name))</th><td>\(f.orders)</td><td>\(f.served)</td><td>\(f.refused)</td><td>\(f.voided)</td><td>\(f.refunded)</td><td>\(HTML.text(f.revenue ?? "unknown"))</td><td>\(HTML.text(f.fruitCost ?? "unknown"))</td><td>\(HTML.text(f.grossMargin ?? "unknown"))</td><td>\(HTML.text(f.wasteCost ?? "unknown"))</td></tr>")
        }
        let head = "<thead><tr><th scope=\"col\">Group</th><th scope=\"col\">Orders</th><th scope=\"col\">Served</th><th scope=\"col\">Refused</th><th scope=\"col\">Voided</th><th scope=\"col\">Refunded</th><th scope=\"col\">Revenue</th><th scope=\"col\">Fruit cost</th><th scope=\"col\">Gross margin</th><th scope=\"col\">Waste</th></tr></thead>"
        let rows = [figures("Day", report.total)] + report.tills.map { figures("Till " + $0.name, $0.figures) } + report.users.map { figures("User " + $0.name, $0.figures) }
        func stockList(_ stock: JournalEntry.Stock?) -> String {
            guard let stock else { return "—" }
            return HTML.escape((stock.fruit + stock.servings).map { "\($0.id) \($0.count)" }.joined(separator: ", "))
        }
        return HTML(raw: """
            <h1>Day report <span class="day">\(HTML.text(report.day))</span></h1>
            <p>\(report.closed ? "Closed (Z report)." : "Running: the day is still open.")
            <a class="button" href="/api/day/\(HTML.escape(report.day))/report?format=csv">CSV</a>
            <a class="button" href="/api/day/\(HTML.escape(report.day))/report">JSON</a>
            <button type="button" id="print">Print</button>
            \(isOpenDay && !report.closed ? "<button type=\"button\" id=\"close-day\">Close the day</button>" : "")</p>
            <div class="table"><table><caption>Figures (money in the smallest unit)</caption>\(head)<tbody>\(HTML.join(rows))</tbody></table></div>
            <h2>Waste</h2><p>\(HTML.escape(report.waste.map { "\($0.count) \($0.id)" }.joined(separator: ", ")))</p>
            <h2>Stock</h2><dl><dt>At open</dt><dd>\(stockList(report.openingStock))</dd><dt>\(report.closed ? "At close" : "Now")</dt><dd>\(stockList(report.closingStock))</dd></dl>
            """)
    }
}
