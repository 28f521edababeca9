import ArgumentParser
import Foundation
import JuiceServer
import JuiceShop
import JuiceStore
#if canImport(Glibc)
import Glibc
#endif

/// `juice-serve`: the shop's counter in a browser. Parses arguments and
/// hands over to `ServerLauncher`; everything it does lives in JuiceServer.
@main
struct JuiceServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juice-serve",
        abstract: "Serve the shop's counter in a browser, on a journal that loses nothing.",
        discussion: """
            The first time, the opening stock comes from the book; after that the database
            is the truth (`juice-serve stock import FILE` sets it, as a journal entry).
            No user exists until you add one: juice-serve users add NAME --role manager.
            It listens on 127.0.0.1 unless --host says otherwise; put TLS in front (a
            reverse proxy) before exposing it. A chain of shops shares a PostgreSQL
            database: --database postgres://… (or JUICE_DATABASE_URL) and --shop NAME,
            one process a shop. See docs/serving.md.
            """,
        subcommands: [Serve.self, Users.self, Stock.self, Journal.self],
        defaultSubcommand: Serve.self
    )
}

struct BookOptions: ParsableArguments {
    @Option(name: .customLong("recipes"), help: ArgumentHelp("A recipe file or folder (repeatable; default: recipes).", valueName: "PATH"))
    var recipes: [String] = []

    @OptionGroup var store: StoreOptions

    var paths: [String] { recipes.isEmpty ? ["recipes"] : recipes }
    var databasePath: String { store.database ?? ServerLauncher.defaultDatabase(recipePaths: paths) }
}

/// Where the journal is: a SQLite file (one shop) or a PostgreSQL database (a chain).
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A SQLite file, or a postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE URL for a chain of shops (add ?host=/socket/folder for a Unix socket). Default: $JUICE_DATABASE_URL, else .juice/shop.sqlite beside the book.",
        valueName: "PATH|URL"))
    var database: String? = ProcessInfo.processInfo.environment["JUICE_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    @Option(help: ArgumentHelp("The shop, in a chain's PostgreSQL database (a SQLite file holds one shop, main).", valueName: "NAME"))
    var shop = "main"
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the counter (the default).")

    @OptionGroup var book: BookOptions

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        do {
            try await ServerLauncher.serve(source: .init(paths: book.paths), database: book.databasePath, shop: book.store.shop, host: host, port: port) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch {
            throw fail(error)
        }
    }
}

struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add, list and remove the users who may sign in.",
        subcommands: [Add.self, List.self, Remove.self, Password.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user.",
            discussion: "The password (at least 10 characters) is typed twice at a terminal, or read as one line from standard input.")
        @Argument var name: String
        @Option(help: "owner (the whole chain: every shop), manager or staff (of the --shop).") var role: StoredUser.Role
        @OptionGroup var book: BookOptions

        func run() async throws {
            do {
                let password = try readPassword(confirm: true)
                try await ServerLauncher.addUser(database: book.databasePath, shop: book.store.shop, name: name, role: role, password: password)
                print(role == .owner ? "Added owner '\(name)' to the chain." : "Added \(role.rawValue) '\(name)'\(book.store.shop == "main" ? "" : " to the shop '\(book.store.shop)'").")
            } catch { throw fail(error) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users and their roles.")
        @OptionGroup var book: BookOptions

        func run() async throws {
            do {
                for user in try await ServerLauncher.listUsers(database: book.databasePath, shop: book.store.shop) { print("\(user.name)\t\(user.role.rawValue)") }
            } catch { throw fail(error) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a user; their sessions end.")
        @Argument var name: String
        @OptionGroup var book: BookOptions

        func run() async throws {
            do {
                try await ServerLauncher.removeUser(database: book.databasePath, shop: book.store.shop, name: name)
                print("Removed '\(name)'.")
            } catch { throw fail(error) }
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a user's password; their sessions end.")
        @Argument var name: String
        @OptionGroup var book: BookOptions

        func run() async throws {
            do {
                try await ServerLauncher.setPassword(database: book.databasePath, shop: book.store.shop, name: name, password: try readPassword(confirm: true))
                print("Changed the password of '\(name)'.")
            } catch { throw fail(error) }
        }
    }
}

struct Stock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Set the shop's stock.", subcommands: [Import.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the stock from a stock file (juice-run's --stock format), as one journal entry.",
            discussion: "Stop juice-serve first: the running server holds the database.")
        @Argument(help: ArgumentHelp("The stock file.", valueName: "FILE")) var file: String
        @OptionGroup var book: BookOptions

        func run() async throws {
            do {
                let entry = try await ServerLauncher.importStock(source: .init(paths: book.paths), database: book.databasePath, shop: book.store.shop, stockFile: file)
                print("Stock set from '\(file)' (journal entry \(entry.sequence)).")
            } catch { throw fail(error) }
        }
    }
}

struct Journal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Read the journal.", subcommands: [Export.self])

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the journal, one line per entry (who, when, what it took), for accountants and `juice-run plan --history`.",
            discussion: "CSV has a header and the columns shop, sequence, day, at, user, till, kind, item, quantity, price, cost, fruit, target, resolves, client_id and detail (the entry's JSON); JSONL is one JSON object per entry. Reads only: it works while juice-serve runs. Without --shop, every shop of a chain's database, shop by shop.")
        @Option(name: .customLong("recipes"), help: .hidden) var recipes: [String] = []
        @Option(help: ArgumentHelp("A SQLite file or a postgres:// URL (default: $JUICE_DATABASE_URL, else .juice/shop.sqlite beside the book).", valueName: "PATH|URL"))
        var database: String? = ProcessInfo.processInfo.environment["JUICE_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        @Option(help: ArgumentHelp("Only this shop (default: every shop).", valueName: "NAME")) var shop: String?
        @Option(help: ArgumentHelp("Only the days from this one on.", valueName: "YYYY-MM-DD")) var since: String?
        @Option(help: ArgumentHelp("Only this day.", valueName: "YYYY-MM-DD")) var day: String?
        @Option(help: "csv or jsonl.") var format: JournalExport.Format
        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file (default: standard output).", valueName: "FILE")) var output: String?

        func run() async throws {
            do {
                let database = database ?? ServerLauncher.defaultDatabase(recipePaths: recipes.isEmpty ? ["recipes"] : recipes)
                if !ServerLauncher.isPostgres(database), !FileManager.default.fileExists(atPath: database) {
                    throw LaunchError("no database at '\(database)' (give --database)")
                }
                let handle: FileHandle
                if let output {
                    guard FileManager.default.createFile(atPath: output, contents: nil), let opened = FileHandle(forWritingAtPath: output) else {
                        throw LaunchError("cannot write '\(output)'")
                    }
                    handle = opened
                } else {
                    handle = FileHandle.standardOutput
                }
                // Lines are gathered and written in blocks of 64 KiB.
                var pending = ""
                let count = try await ServerLauncher.exportJournal(database: database, shop: shop, since: since, day: day, format: format) { line in
                    pending += line
                    if pending.utf8.count >= 65_536 {
                        try handle.write(contentsOf: Data(pending.utf8))
                        pending = ""
                    }
                }
                try handle.write(contentsOf: Data(pending.utf8))
                if output != nil {
                    try handle.synchronize()
                    try handle.close()
                    FileHandle.standardError.write(Data("juice-serve: wrote \(count) entries to \(output ?? "")\n".utf8))
                }
            } catch { throw fail(error) }
        }
    }
}

extension JournalExport.Format: ExpressibleByArgument {}
extension StoredUser.Role: ExpressibleByArgument {}

/// Prints a command's error as one line and exits 1 (2 for usage, as swift-argument-parser does).
func fail(_ error: any Error) -> any Error {
    if error is ValidationError || error is CleanExit { return error }
    FileHandle.standardError.write(Data("juice-serve: \(error)\n".utf8))
    return ExitCode.failure
}

/// A password from the terminal, typed twice without echo, or one line from standard input.
func readPassword(confirm: Bool) throws -> String {
    guard isatty(STDIN_FILENO) == 1 else {
        guard let line = readLine(strippingNewline: true) else { throw LaunchError("no password on standard input") }
        return line
    }
    func ask(_ prompt: String) -> String {
        // Echo goes off before the prompt shows: typed after the prompt, a
        // password must never reach the screen, however fast it comes.
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        FileHandle.standardError.write(Data(prompt.utf8))
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true) ?? ""
    }
    let first = ask("Password (at least 10 characters): ")
    if confirm, ask("Again: ") != first { throw LaunchError("the two passwords differ") }
    return first
}
