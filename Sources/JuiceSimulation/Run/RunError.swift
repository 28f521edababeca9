@_spi(Internals) import JuiceSupport
import JuiceSource
/// Why a `juice-run` ended early or failed, as data. The library says what
/// went wrong; `JuiceCommandLine` prints it as `juice-run: error: ...` (with
/// any help lines, and the unsaved stock after `stockNotSaved`) and picks the
/// exit code, in one place for both tools.
public enum RunError: Error, Sendable, CustomStringConvertible {
    /// Options that do not go together. The executable finds these in
    /// argument validation; a library caller that skipped it gets them here.
    case usage(RunUsageError)
    /// No `--recipes` was given and there is no `recipes` where the run started.
    case defaultBookMissing
    /// The book or the stock file could not be read.
    case source(SourceError)
    /// The book (or the stock file, when `stockFile`) has errors, printed already.
    case invalidBook(stockFile: Bool)
    /// An order script that does not exist.
    case scriptNotFound(String)
    /// An order script that cannot be read, and why.
    case scriptUnreadable(String, reason: String)
    /// A folder where an order script goes: most likely the recipe book.
    case scriptIsDirectory(String)
    /// A `--save-stock` destination that cannot take the stock, and why;
    /// found before any order runs.
    case stockDestination(String, reason: String)
    /// `--mix` that the book's menu cannot satisfy.
    case mix(OrderGenerator.MixError)
    /// Standard input is a terminal, so the counter would open, but the
    /// format is JSON (`--interactive --format json` is a usage error instead).
    case counterHasNoJSON
    /// `--random N` with a book that has no menu to draw from.
    case randomNeedsMenu
    /// `juice-run plan` with a book that has no menu to draw from.
    case planNeedsMenu
    /// A planner run could not go on (a purchase past what a count holds).
    case plan(PlanError)
    /// `--report`'s destination cannot take a file (checked before the runs).
    case reportDestination(String, reason: String)
    /// `--history`'s file cannot be read, and why (a path at fault: exit 2).
    case historyUnreadable(String, reason: String)
    /// `--history`'s file reads but cannot be planned from (the input at fault: exit 1).
    case history(String, DemandHistory.Problem)
    /// The report could not be written at the end.
    case reportNotWritten(FileWriter.Failure)
    /// The final stock could not be saved; it is handed over in stock-file
    /// format so the day is not lost.
    case stockNotSaved(FileWriter.Failure, stock: String)

    public var description: String {
        switch self {
        case .usage(let error): return "\(error)"
        case .defaultBookMissing:
            return "no such file or directory: 'recipes', the default recipe book\n  help: run juice-run from the project root, where 'recipes' is, or pass --recipes DIR"
        case .source(let error): return "\(error)"
        case .invalidBook(let stockFile):
            return stockFile ? "the recipe book or the stock file is invalid" : "the recipe book is invalid"
        case .scriptNotFound(let name): return "no such file or directory: '\(name)'"
        case .scriptUnreadable(let name, let reason): return "cannot read '\(name)': \(reason)"
        case .scriptIsDirectory(let name): return "cannot read '\(name)': it is a directory\n  help: did you mean '--recipes \(name)'?"
        case .stockDestination(let path, let reason): return "cannot save the stock to '\(path)': \(reason)"
        case .mix(let error): return "\(error)"
        case .counterHasNoJSON: return RunUsageError.interactiveWithJSON.description
        case .randomNeedsMenu: return "--random needs a book with at least one menu item"
        case .planNeedsMenu: return "'juice-run plan' needs a book with at least one menu item"
        case .plan(let error): return "\(error)"
        case .reportDestination(let path, let reason): return "cannot write the report to '\(path)': \(reason)"
        case .historyUnreadable(let path, let reason): return "cannot read the history '\(path)': \(reason)"
        case .history(let path, let problem): return "the history '\(path)': \(problem)"
        case .reportNotWritten(let failure): return "the report was not written: \(failure)"
        case .stockNotSaved(let failure, _):
            return "the stock was not saved: \(failure)\n  help: the final stock follows in stock-file format; save it by hand"
        }
    }
}
