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
        router.get("/stock") { request, context -> Response in
            guard let user = context.identity else { return Self.redirect("/signin") }
            guard user.role.manages else { return Self.forbidden(user, csrf: context.sessions.session?.csrf) }
            let state = await server.shopState(for: user)
            let query = request.uri.queryParameters
            let retry = Self.Retry(state: state,
                                   refusal: query.get("refusal").flatMap { Int64(String($0)) },
                                   item: query.get("item").map { String($0) },
                                   quantity: query.get("quantity").flatMap { Int(String($0)) },
                                   short: query.get("short").map { String($0) } ?? "")
            return Self.page(title: "Stock", user: user, csrf: context.sessions.session?.csrf, body: Self.stock(state, retry: retry))
        }
        router.get("/journal") { request, context -> Response in
            guard let user = context.identity else { return Self.redirect("/signin") }
            let day = (request.uri.queryParameters.get("day").map { String($0) }).flatMap { try? ShopServer.checkDay($0) }
            let shownDay: String
            if let day { shownDay = day } else { shownDay = await server.service.currentDay() }
            let open = await server.service.shop.openDay
            var entries = (try? await server.service.entries(day: shownDay)) ?? []
            // Corrections are read from the whole day: a void by a manager still marks a staff user's own order.
            var corrected: [Int64: String] = [:]
            for entry in entries {
                switch entry.event {
                case .void(let correction): corrected[correction.order] = "voided"
                case .refund(let correction): corrected[correction.order] = "refunded"
                default: break
                }
            }
            if !user.role.manages { entries = entries.filter { $0.user == user.name } }
            let filters = JournalFilters(
                day: shownDay,
                till: request.uri.queryParameters.get("till").map { String($0) } ?? "",
                user: user.role.manages ? request.uri.queryParameters.get("user").map { String($0) } ?? "" : "",
                tills: Self.distinct(entries.map(\.till)), users: Self.distinct(entries.map(\.user)))
            if !filters.till.isEmpty { entries = entries.filter { $0.till == filters.till } }
            if !filters.user.isEmpty { entries = entries.filter { $0.user == filters.user } }
            return Self.page(title: "Journal", user: user, csrf: context.sessions.session?.csrf,
                             body: Self.journal(entries.reversed(), filters: filters, corrected: corrected,
                                                manager: user.role.manages, isOpenDay: shownDay == open))
        }
        router.get("/report") { request, context -> Response in
            guard let user = context.identity else { return Self.redirect("/signin") }
            guard user.role.manages else { return Self.forbidden(user, csrf: context.sessions.session?.csrf) }
            let asked = request.uri.queryParameters.get("day").map { String($0) }.flatMap { try? ShopServer.checkDay($0) }
            let day: String
            if let asked { day = asked } else { day = await server.service.currentDay() }
            let open = await server.service.shop.openDay
            guard let report = try? await server.service.report(day: day) else {
                return Self.page(title: "Day report", user: user, csrf: context.sessions.session?.csrf, body: HTML(raw: "<h1>Day report</h1><p>The report cannot be read now.</p>"))
            }
            return Self.page(title: "Day report", user: user, csrf: context.sessions.session?.csrf, body: Self.report(APIBody.Report(report), isOpenDay: day == open))
        }
        addChain(to: router)
    }

    static func distinct(_ names: [String]) -> [String] { Array(Set(names)).sorted() }

    /// `/chain`, for owners: every shop's stock, and the chain's report of a day.
    func addChain(to router: Router<ShopRequestContext>) {
        router.get("/chain") { request, context -> Response in
            guard let user = context.identity else { return Self.redirect("/signin") }
            let csrf = context.sessions.session?.csrf
            guard user.role == .owner else {
                var response = Self.page(title: "Owners only", user: user, csrf: csrf, body: HTML(raw: """
                    <h1>Owners only</h1><p>The chain's page is for the chain's owners.</p><p><a class="button" href="/">Back to the counter</a></p>
                    """))
                response.status = .forbidden
                return response
            }
            let asked = request.uri.queryParameters.get("day").map { String($0) }.flatMap { try? ShopServer.checkDay($0) }
            let day: String
            if let asked { day = asked } else { day = await server.service.currentDay() }
            guard let shops = try? await server.service.chain(), let report = try? await server.service.chainReport(day: day) else {
                return Self.page(title: "Chain", user: user, csrf: csrf, body: HTML(raw: "<h1>Chain</h1><p>The chain cannot be read now; try again.</p>"))
            }
            return Self.page(title: "Chain", user: user, csrf: csrf, body: Self.chain(shops, report: APIBody.ChainReportBody(report)))
        }
    }

    static func chain(_ shops: [ShopService.ShopSummary], report: APIBody.ChainReportBody) -> HTML {
        let fruits = shops.first.map { $0.shop.book.fruits.map(\.id) } ?? []
        let stockHead = "<thead><tr><th scope=\"col\">Shop</th><th scope=\"col\">Day</th>\(fruits.map { (id: String) -> String in "<th scope=\"col\">\(HTML.escape(id))</th>" }.joined())</tr></thead>"
        // Every closure here says it makes a String: GRDB's `SQL` is also
        // made from string literals and joins, and was once picked instead.
        let stockRows = shops.map { (summary: ShopService.ShopSummary) -> String in
            let counts = Dictionary(summary.shop.stockByID.fruit.map { ($0.id, $0.count) }, uniquingKeysWith: { first, _ in first })
            let day = (summary.shop.openDay ?? summary.shop.lastDay ?? "—") + (summary.shop.openDay == nil ? " (closed)" : "")
            return "<tr><th scope=\"row\">\(HTML.escape(summary.name))</th><td>\(HTML.escape(day))</td>\(fruits.map { (id: String) -> String in "<td>\(counts[id].map(String.init) ?? "—")</td>" }.joined())</tr>"
        }.joined()
        func figures(_ name: String, _ f: APIBody.Figures) -> String {
            "<tr><th scope=\"row\">\(HTML.escape(name))</th><td>\(f.orders)</td><td>\(f.served)</td><td>\(f.refused)</td><td>\(f.voided)</td><td>\(f.refunded)</td><td>\(HTML.escape(f.revenue ?? "unknown"))</td><td>\(HTML.escape(f.fruitCost ?? "unknown"))</td><td>\(HTML.escape(f.grossMargin ?? "unknown"))</td><td>\(HTML.escape(f.wasteCost ?? "unknown"))</td></tr>"
        }
        let head = "<thead><tr><th scope=\"col\">Shop</th><th scope=\"col\">Orders</th><th scope=\"col\">Served</th><th scope=\"col\">Refused</th><th scope=\"col\">Voided</th><th scope=\"col\">Refunded</th><th scope=\"col\">Revenue</th><th scope=\"col\">Fruit cost</th><th scope=\"col\">Gross margin</th><th scope=\"col\">Waste</th></tr></thead>"
        let rows = report.shops.map { figures($0.shop, $0.report.total) }.joined() + figures("Chain", report.total)
        let day = HTML.escape(report.day)
        return HTML(raw: """
            <h1>Chain <span class="day">\(day)</span></h1>
            <form class="actions" method="get" action="/chain"><label for="chain-day">Day</label> <input id="chain-day" name="day" type="date" value="\(day)"> <button type="submit">Show</button></form>
            <div class="table" role="region" aria-labelledby="chain-stock-caption" tabindex="0"><table id="chain-stock"><caption id="chain-stock-caption">Each shop's stock now</caption>\(stockHead)<tbody>\(stockRows)</tbody></table></div>
            <p class="actions"><a class="button" href="/api/chain/report?day=\(day)" download="chain-report-\(day).json">Download JSON</a></p>
            <div class="table" role="region" aria-labelledby="chain-figures-caption" tabindex="0"><table id="chain-figures"><caption id="chain-figures-caption">Day \(day): each shop, and the chain (their sum)</caption>\(head)<tbody>\(rows)</tbody></table></div>
            <h2>Waste in the chain</h2><p>\(report.waste.isEmpty ? "None." : HTML.escape(report.waste.map { "\($0.count) \($0.id)" }.joined(separator: ", ")))</p>
            """)
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
            <h1>Managers only</h1><p>This page is for managers. Ask a manager if you need it.</p><p><a class="button" href="/">Back to the counter</a></p>
            """))
        response.status = .forbidden
        return response
    }

    static func page(title: String, user: ShopUser?, csrf: String?, body: HTML) -> Response {
        var nav = HTML(raw: "")
        if let user {
            var links = [("/", "Counter"), ("/journal", "Journal")]
            if user.role.manages { links.insert(("/stock", "Stock"), at: 1); links.append(("/report", "Day report")) }
            if user.role == .owner { links.append(("/chain", "Chain")) }
            nav = HTML(raw: """
                <header><nav aria-label="Main"><ul>\(HTML.join(links.map { HTML(raw: "<li><a href=\"\($0.0)\"\($0.1 == title ? " aria-current=\"page\"" : "")>\($0.1)</a></li>") }))</ul></nav>
                <p class="who">\(HTML.text(user.name)) (\(HTML.text(user.role.rawValue)))<span id="till-name"></span> <button type="button" id="sign-out" class="quiet">Sign out</button></p></header>
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
        <label for="user">User name</label><input id="user" name="user" autocomplete="username" autocapitalize="none" required>
        <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit">Sign in</button>
        <p id="sign-in-error" role="alert"></p>
        </form>
        """)

    /// A fruit's name as the pages show it: its emoji (hidden from screen readers) and its label.
    static func fruitName(_ fruit: APIBody.Fruit) -> HTML {
        HTML(raw: (fruit.emoji.map { "<span aria-hidden=\"true\">\(HTML.escape($0))</span> " } ?? "") + HTML.escape(fruit.label))
    }

    static func counter(_ state: APIBody.ShopState, user: ShopUser) -> HTML {
        let fruits = HTML.join(state.fruits.map { fruit in
            HTML(raw: "<li data-fruit=\"\(HTML.escape(fruit.id))\"><span class=\"name\">\(fruitName(fruit))</span> <strong class=\"count\">\(fruit.count)</strong></li>")
        })
        let servings = HTML.join(state.servings.map { serving in
            HTML(raw: "<li data-servings=\"\(HTML.escape(serving.id))\"><span class=\"name\">\(HTML.text(serving.label))</span> <strong class=\"count\">\(serving.count)</strong></li>")
        })
        let items = HTML.join(state.menu.map { item in
            HTML(raw: """
                <li><button type="button" class="item" data-item="\(HTML.escape(item.id))" data-status="\(HTML.escape(item.status))">\
                <span class="label">\(HTML.text(item.label))</span>\(item.price.map { "<span class=\"price\">\(Self.money($0))</span>" } ?? "")\
                <span class="state">\(Self.itemState(item))</span></button></li>
                """)
        })
        let manager = user.role.manages
        return HTML(raw: """
            <h1>Counter <span class="day">\(HTML.text(state.day ?? ""))</span></h1>
            <p id="day-closed" class="alert"\(state.dayOpen ? " hidden" : "")>The day is closed: no orders until a new day opens.</p>
            <section aria-labelledby="fruit-heading"><h2 id="fruit-heading">Fruit</h2><ul class="fruits" id="fruits">\(fruits)</ul>
            \(state.servings.isEmpty ? "" : "<h2 id=\"servings-heading\">Servings on hand</h2><ul class=\"fruits\" id=\"servings\" aria-labelledby=\"servings-heading\">\(servings)</ul>")</section>
            <section aria-labelledby="menu-heading"><h2 id="menu-heading">Menu</h2>
            <p class="quantity"><label for="quantity">Quantity ×</label>
            <button type="button" class="step" data-quantity="-1" aria-label="One fewer">−</button><input id="quantity" type="number" min="1" max="\(Shop.maxQuantity)" value="1" inputmode="numeric"><button type="button" class="step" data-quantity="1" aria-label="One more">+</button></p>
            <ul class="menu" id="menu">\(items)</ul></section>
            <dialog id="refusal" role="alertdialog" aria-labelledby="refusal-title" aria-describedby="refusal-text">
            <h2 id="refusal-title">Not enough fruit</h2><p id="refusal-text"></p>
            \(manager
                ? "<p>Edit the stock, then make it now.</p><p class=\"actions\"><a class=\"button\" id=\"edit-stock\" href=\"/stock\">Edit stock</a> <button type=\"button\" id=\"make-now\">Make now</button> "
                : "<p class=\"ask\"><strong>Ask a manager</strong> to add the fruit.</p><p class=\"actions\">")<button type="button" id="dismiss" class="quiet">Close</button></p></dialog>
            """)
    }

    static func itemState(_ item: APIBody.MenuItem) -> String {
        item.status == "sold-out" ? "Sold out" : "Ready · \(item.capacity) can be made"
    }

    /// A price in the book's unit (a whole number, as the book and the report write it), in groups of three.
    static func money(_ amount: Int) -> String {
        let digits = Array(String(amount.magnitude))
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (amount < 0 ? "-" : "") + out
    }

    /// The refused order a manager came to the stock page to make good, read from the query and checked against the menu.
    struct Retry {
        var refusal: Int64
        var item: APIBody.MenuItem
        var quantity: Int
        var short: [APIBody.Fruit]

        init?(state: APIBody.ShopState, refusal: Int64?, item: String?, quantity: Int?, short: String) {
            guard let refusal, refusal > 0, let item, let found = state.menu.first(where: { $0.id == item }) else { return nil }
            self.refusal = refusal
            self.item = found
            self.quantity = min(max(quantity ?? 1, 1), Shop.maxQuantity)
            let names = Set(short.split(separator: ",").map(String.init))
            self.short = state.fruits.filter { names.contains($0.id) }
        }
    }

    static func stock(_ state: APIBody.ShopState, retry: Retry?) -> HTML {
        /// `label` is the row's name as plain text (with the emoji), for the script's messages; `plain`, without it, names the buttons.
        func row(_ id: String, _ name: HTML, _ label: String, _ plain: String, _ count: Int, kind: String) -> HTML {
            let field = HTML.escape("set-\(kind)-\(id)")
            let short = retry?.short.contains { $0.id == id && kind == "fruit" } == true
            return HTML(raw: """
                <li class="stock-row\(short ? " short" : "")" data-stock="\(HTML.escape(id))" data-label="\(HTML.escape(label))"><span class="name">\(name)\(short ? " <em>(short)</em>" : "")</span>
                <span class="stepper"><button type="button" class="step" data-add="-1" aria-label="Take one \(HTML.escape(plain))"\(count == 0 ? " disabled" : "")>−</button>\
                <strong class="count">\(count)</strong>\
                <button type="button" class="step" data-add="1" aria-label="Add one \(HTML.escape(plain))">+</button></span>
                <span class="setter"><label for="\(field)">Set to</label><input id="\(field)" class="set-value" type="number" min="0" inputmode="numeric" value="\(count)">\
                <button type="button" class="set" aria-label="Set \(HTML.escape(plain))">Set</button></span></li>
                """)
        }
        let fruitRows = HTML.join(state.fruits.map { row($0.id, fruitName($0), ($0.emoji.map { $0 + " " } ?? "") + $0.label, $0.label, $0.count, kind: "fruit") })
        let servingRows = HTML.join(state.servings.map { row($0.id, HTML.text($0.label), $0.label, $0.label, $0.count, kind: "servings") })
        let problems = state.bookProblems.map { "<section class=\"card\" aria-labelledby=\"book-heading\"><h2 id=\"book-heading\">The book change was refused</h2><pre>\(HTML.escape($0))</pre></section>" } ?? ""
        var retryCard = ""
        if let retry {
            let short = retry.short.isEmpty ? "" : " Short: " + retry.short.map { fruitName($0).description }.joined(separator: ", ") + "."
            retryCard = """
                <section class="card notice" id="retry" aria-labelledby="retry-heading"><h2 id="retry-heading">Refused: \(HTML.text(retry.item.label)) × \(retry.quantity)</h2>
                <p>\(short) Add the fruit below, then make it now.</p>
                <p class="actions"><button type="button" id="retry-order" data-item="\(HTML.escape(retry.item.id))" data-quantity="\(retry.quantity)" data-refusal="\(retry.refusal)">Make now</button> <a class="button quiet" href="/">Back to the counter</a></p></section>
                """
        }
        return HTML(raw: """
            <h1>Stock</h1>\(problems)\(retryCard)
            <p>Each change is written to the journal with your name. Stock never goes below 0.</p>
            <h2 id="fruit-heading">Fruit</h2><ul class="stock" id="stock-list" aria-labelledby="fruit-heading">\(fruitRows)</ul>
            \(state.servings.isEmpty ? "" : "<h2 id=\"servings-heading\">Servings on hand</h2><ul class=\"stock\" aria-labelledby=\"servings-heading\">\(servingRows)</ul>")
            """)
    }

    struct JournalFilters {
        var day: String
        var till: String
        var user: String
        var tills: [String]
        var users: [String]
    }

    static func select(_ id: String, name: String, label: String, all: String, options: [String], chosen: String) -> HTML {
        var choices = options
        if !chosen.isEmpty, !choices.contains(chosen) { choices.append(chosen) }
        let list = choices.map { "<option\($0 == chosen ? " selected" : "")>\(HTML.escape($0))</option>" }.joined()
        return HTML(raw: "<span class=\"field\"><label for=\"\(id)\">\(label)</label><select id=\"\(id)\" name=\"\(name)\"><option value=\"\">\(all)</option>\(list)</select></span>")
    }

    static func journal(_ entries: [JournalEntry], filters: JournalFilters, corrected: [Int64: String], manager: Bool, isOpenDay: Bool) -> HTML {
        let rows = HTML.join(entries.map { entry in
            var actions = ""
            if case .order = entry.event {
                if let kind = corrected[entry.sequence] {
                    actions = "<span class=\"corrected\">\(kind)</span>"
                } else if manager {
                    actions = (isOpenDay ? "<button type=\"button\" class=\"void\" data-order=\"\(entry.sequence)\" aria-label=\"Void order \(entry.sequence)\">Void</button> " : "")
                        + "<button type=\"button\" class=\"refund quiet\" data-order=\"\(entry.sequence)\" aria-label=\"Refund order \(entry.sequence)\">Refund</button>"
                }
            }
            return HTML(raw: "<tr data-sequence=\"\(entry.sequence)\" data-kind=\"\(HTML.escape(entry.event.kind))\"><td>\(entry.sequence)</td><td>\(Self.clock(entry.time))</td><td>\(HTML.text(entry.user))</td><td>\(HTML.text(entry.till))</td><td>\(HTML.text(entry.event.kind))</td><td>\(HTML.text(Self.describe(entry)))</td><td class=\"actions\">\(actions)</td></tr>")
        })
        return HTML(raw: """
            <h1>Journal <span class="day">\(HTML.text(filters.day))</span></h1>
            <form class="filters" method="get" action="/journal">
            <span class="field"><label for="day">Day</label><input id="day" name="day" type="date" value="\(HTML.escape(filters.day))"></span>
            \(select("till", name: "till", label: "Till", all: "All tills", options: filters.tills, chosen: filters.till))
            \(manager ? select("user-filter", name: "user", label: "User", all: "All users", options: filters.users, chosen: filters.user) : HTML(raw: ""))
            <button type="submit">Show</button></form>
            <p id="new-entries" hidden><button type="button" id="show-new">New entries: show them</button></p>
            <div class="table" role="region" aria-labelledby="journal-caption" tabindex="0"><table id="journal"><caption id="journal-caption">\(manager ? "Entries" : "Your entries"), newest first (\(entries.count))</caption>
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
            if let resolves = made.resolves { text += "; makes good refusal #\(resolves)" }
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
        let day = HTML.escape(report.day)
        let closing = isOpenDay && !report.closed ? """
            <button type="button" id="close-day" class="warn">Close the day</button></p>
            <div id="confirm-close" class="card notice" hidden><p>Close \(day)? No order can be taken, voided or changed on this day after it closes.</p>
            <p class="actions"><button type="button" id="close-day-yes" class="warn" data-day="\(day)">Yes, close \(day)</button> <button type="button" id="close-day-no" class="quiet">Cancel</button></p></div>
            """ : "</p>"
        return HTML(raw: """
            <h1>\(report.closed ? "Z report" : "Day report") <span class="day">\(day)</span></h1>
            <p id="day-state">\(report.closed ? "Closed: this is the day's Z report." : "Running: the day is still open.")</p>
            <p class="actions"><a class="button" href="/api/day/\(day)/report?format=csv" download="z-report-\(day).csv">Download CSV</a>
            <a class="button" href="/api/day/\(day)/report" download="z-report-\(day).json">Download JSON</a>
            <button type="button" id="print" class="quiet">Print</button>
            \(closing)
            <div class="table" role="region" aria-labelledby="figures-caption" tabindex="0"><table id="figures"><caption id="figures-caption">Figures (money in the book's unit)</caption>\(head)<tbody>\(HTML.join(rows))</tbody></table></div>
            <h2>Waste</h2><p>\(report.waste.isEmpty ? "None." : HTML.escape(report.waste.map { "\($0.count) \($0.id)" }.joined(separator: ", ")))</p>
            <h2>Stock</h2><dl><dt>At open</dt><dd>\(stockList(report.openingStock))</dd><dt>\(report.closed ? "At close" : "Now")</dt><dd>\(stockList(report.closingStock))</dd></dl>
            """)
    }
}
