import ArgumentParser
import Foundation
import JuiceServer
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
            reverse proxy) before exposing it. See docs/serving.md.
            """,
        subcommands: [Serve.self, Users.self, Stock.self],
        defaultSubcommand: Serve.self
    )
}

struct BookOptions: ParsableArguments {
    @Option(name: .customLong("recipes"), help: ArgumentHelp("A recipe file or folder (repeatable; default: recipes).", valueName: "PATH"))
    var recipes: [String] = []

    @Option(help: ArgumentHelp("The SQLite database (default: .juice/shop.sqlite beside the book).", valueName: "PATH"))
    var database: String?

    var paths: [String] { recipes.isEmpty ? ["recipes"] : recipes }
    var databasePath: String { database ?? ServerLauncher.defaultDatabase(recipePaths: paths) }
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
            try await ServerLauncher.serve(source: .init(paths: book.paths), database: book.databasePath, host: host, port: port) { line in
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
        @Option(help: "manager or staff.") var role: StoredUser.Role
        @OptionGroup var book: BookOptions

        func run() async throws {
            do {
                let password = try readPassword(confirm: true)
                try await ServerLauncher.addUser(database: book.databasePath, name: name, role: role, password: password)
                print("Added \(role.rawValue) '\(name)'.")
            } catch { throw fail(error) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users and their roles.")
        @OptionGroup var book: BookOptions

        func run() async throws {
            do {
                for user in try await ServerLauncher.listUsers(database: book.databasePath) { print("\(user.name)\t\(user.role.rawValue)") }
            } catch { throw fail(error) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a user; their sessions end.")
        @Argument var name: String
        @OptionGroup var book: BookOptions

        func run() async throws {
            do {
                try await ServerLauncher.removeUser(database: book.databasePath, name: name)
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
                try await ServerLauncher.setPassword(database: book.databasePath, name: name, password: try readPassword(confirm: true))
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
                let entry = try await ServerLauncher.importStock(source: .init(paths: book.paths), database: book.databasePath, stockFile: file)
                print("Stock set from '\(file)' (journal entry \(entry.sequence)).")
            } catch { throw fail(error) }
        }
    }
}

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
