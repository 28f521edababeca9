/// The long documentation of every rule, which `juice-lint explain RULE` prints.
///
/// Each rule has a paragraph on what it checks and why a shop should care, a
/// short fix, and a pair of small recipe files: one that triggers the rule and
/// the same file fixed. The tests compile both, so an example that stops
/// showing its rule fails the build instead of misleading a reader.
extension Rule {
    /// A paragraph on what the rule checks and why it matters.
    public var fullDescription: String {
        switch self {
        case .yamlSyntax:
            return """
                A recipe file must be well-formed YAML in UTF-8 or UTF-16. When libyaml cannot read a \
                document, nothing after the mistake can be read reliably, so the compiler reports where \
                reading stopped and drops that whole document rather than build a shop from half of it. \
                Unclosed brackets and quotes, a second ':' in a plain value, tabs used for indentation and an \
                alias to an anchor that was never defined are the usual causes.
                """
        case .resourceLimit:
            return """
                Recipe files are small, so the compiler refuses input that could only be an attack or an \
                accident: collections nested more than 64 levels deep, aliases that together stand for \
                more than 1,000,000 nodes in one file, or a key or value longer than 65,536 bytes. Aliases are never copied, but a chain of anchors \
                that each repeat the one before (an "alias bomb") would still cost time and memory to walk. \
                Past the alias or size bound the document is dropped at once, and past the depth bound the \
                rest of the file is not read, so a hostile file cannot stall the linter or a build.
                """
        case .invalidType:
            return """
                Every place in a recipe file expects one shape of value: 'fruits', 'stock', 'recipes', 'menu' \
                and each ingredient list are mappings, amounts are whole numbers, labels and emoji are text, \
                and keys are plain scalars. A value of another shape, most often a YAML list where a mapping \
                belongs, cannot be read as what the shop meant, so it is an error rather than a guess.
                """
        case .unknownKey:
            return """
                The recipe language defines a fixed set of keys: 'version', 'fruits', 'stock', 'recipes' and \
                'menu' at the top, 'label' and 'emoji' on a fruit, and 'label', 'price' and 'recipe' on a \
                menu item. Any other key is almost always a typo, and ignoring it would lose what it says: a \
                misspelled 'prize' would leave the item without a price. The diagnostic suggests the closest \
                known key.
                """
        case .unsupportedVersion:
            return """
                'version' names the edition of the recipe language a file is written in, and this \
                juice-maker reads version 1. A file that asks for any other version (or writes the number \
                quoted, as text, or as a float) may rely on rules this juice-maker does not know, so it is \
                refused instead of being read under the wrong rules. The key is optional.
                """
        case .invalidName:
            return """
                Fruit, recipe and menu item ids are what order scripts, stock lines and other recipes use to \
                name things, so each must be a single word: not empty, with no whitespace, no '#' (which starts \
                a comment in an order script) and no control characters. 'restock', 'set' and 'stock' are reserved \
                because they are order-script commands. An id that breaks these rules could never be ordered \
                or referred to reliably.
                """
        case .duplicateKey:
            return """
                The same key written twice in one mapping is ambiguous: YAML does not say which value wins, \
                and a reader of the file cannot tell which one was meant. Recipes are where this bites: \
                '{ mango: 2, kiwi: 1, mango: 1 }' does not add up to 3 mangoes. The compiler keeps the first \
                value, reports the second, and points a note at the first.
                """
        case .duplicateDefinition:
            return """
                Fruits, intermediate recipes and menu items share one namespace across every file of the \
                book, because an ingredient or an order names them by id alone. Defining the same id twice, \
                as a fruit and a recipe, in two files, or in two sections, would make every use of it \
                ambiguous. The same goes for a fruit's stock set twice. A note points at the first definition.
                """
        case .unknownFruit:
            return """
                Every ingredient must name a declared fruit, intermediate recipe or menu item, and every stock \
                entry a declared fruit. A name that matches nothing is usually a typo, and the shop could \
                never make the item that needs it, so the compiler reports it with the closest declared id as \
                a suggestion.
                """
        case .zeroAmount:
            return """
                A recipe amount says how many of an ingredient one batch or order takes, so it is at least 1. \
                An amount of 0 contributes nothing, which usually means a placeholder that was never filled in \
                or an ingredient that was meant to be removed. Stock and price may be 0; a recipe amount may not.
                """
        case .negativeAmount:
            return """
                Amounts, stock and prices count whole things, so none of them can be negative: a shop cannot \
                hold -5 kiwis or charge -500 for a juice. A negative number is reported instead of being \
                clamped, since whatever it was meant to say is unclear.
                """
        case .invalidAmount:
            return """
                Amounts, stock and prices are whole decimal numbers written plainly. YAML reads many other \
                spellings as numbers or as text (a quoted "3", 1.5, 1e3, 1_000, 0x10, +3, a leading zero that \
                YAML 1.1 reads as octal, or nothing at all), and each of them could mean something other than \
                what was intended, so none is accepted. A number larger than 9223372036854775807 is also \
                reported here.
                """
        case .emptyRecipe:
            return """
                An intermediate recipe or a menu item must list at least one ingredient, and a menu item must \
                have a 'recipe'. An item with no ingredients could be sold forever without using any fruit, \
                which is never what a shop means; most often the recipe was forgotten or indented under the \
                wrong key.
                """
        case .recipeCycle:
            return """
                A recipe cannot contain itself, directly or through other recipes: making it would first \
                require making it, so no amount of fruit would ever be enough. The diagnostic spells out the \
                path of the cycle, such as 'base -> syrup -> base', with notes at the other steps.
                """
        case .amountOverflow:
            return """
                A menu item's need for each fruit is the product of the amounts along every path through its \
                nested recipes, added up. Each amount may be valid on its own and the total still exceed \
                9223372036854775807, the largest count the shop can represent. Rather than wrap around to a \
                wrong or negative number, the compiler reports the ingredient where the total overflows.
                """
        case .unusedFruit:
            return """
                A fruit in the catalog that no menu item uses, directly or through intermediate recipes, is \
                stock the shop buys and can never sell. It is usually left over from a removed menu item, or a \
                sign that a new item was forgotten. It is a warning: the book still works.
                """
        case .unusedRecipe:
            return """
                An intermediate recipe is never sold on its own; it only matters as an ingredient. One that \
                no menu item reaches, directly or through other recipes, is dead weight, and often means a \
                menu item names the wrong recipe. It is a warning: the book still works.
                """
        case .neverMakeable:
            return """
                A menu item that needs more of some fruit than the opening stock holds is refused on every \
                order until the shop restocks. That can be intended (a seasonal item waiting for a delivery), \
                so this is only information, but it is worth knowing before the first customer asks.
                """
        case .missingStock:
            return """
                A declared fruit with no entry under 'stock' starts at 0, so every menu item that needs it is \
                refused until a restock. Writing the stock of every fruit, even 'fruit: 0', makes the opening \
                state explicit. This is information, not an error.
                """
        case .unusedSuppression:
            return """
                A comment such as '# juice-lint disable-line RULE', '# juice-lint disable-next-line RULE' or \
                '# juice-lint disable-file RULE' hides a diagnostic on purpose. One that hides nothing, \
                because the problem was fixed or the comment sits on the wrong line, is waiting to hide the \
                next real problem there without anyone deciding to; one that names a rule that does not exist \
                never did what its author meant. Both are reported.
                """
        }
    }

    /// How to fix what the rule reports, in one or two sentences.
    public var helpText: String {
        switch self {
        case .yamlSyntax:
            return "Fix the YAML at the reported place: close brackets and quotes, quote values that contain ': ', and indent with spaces."
        case .resourceLimit:
            return "Nest less deeply, expand fewer aliases and shorten huge scalars; a real recipe book never comes near these bounds."
        case .invalidType:
            return "Write the value in the shape the key expects, such as 'recipe: { mango: 2 }' instead of a list."
        case .unknownKey:
            return "Fix the spelling (the diagnostic suggests the closest key), or remove the key."
        case .unsupportedVersion:
            return "Write 'version: 1', or leave the key out."
        case .invalidName:
            return "Choose a single-word id such as 'mango-juice', and put the display name under 'label'."
        case .duplicateKey:
            return "Keep one of the two entries; to use more of an ingredient, raise its amount."
        case .duplicateDefinition:
            return "Rename one of the two, or remove the duplicate; keep one stock entry per fruit."
        case .unknownFruit:
            return "Fix the name, or declare it under 'fruits:' or 'recipes:'."
        case .zeroAmount:
            return "Use an amount of at least 1, or remove the ingredient."
        case .negativeAmount:
            return "Use a whole number of at least 0 for stock and price, and at least 1 for a recipe amount."
        case .invalidAmount:
            return "Write a plain whole decimal number, without quotes, sign, '_', '.' or exponent."
        case .emptyRecipe:
            return "Add 'recipe: { FRUIT: AMOUNT }' with at least one ingredient, or remove the item."
        case .recipeCycle:
            return "Break the cycle by removing one of the ingredients along the reported path."
        case .amountOverflow:
            return "Use smaller amounts in the recipe or the recipes it contains."
        case .unusedFruit:
            return "Use the fruit in a menu item or a recipe a menu item uses, or remove it from 'fruits' and 'stock'."
        case .unusedRecipe:
            return "Use the recipe as an ingredient of a menu item, or remove it."
        case .neverMakeable:
            return "Raise the fruit's opening stock, or lower the amount the item needs."
        case .missingStock:
            return "Add the fruit under 'stock', with 0 if the shop opens without it."
        case .unusedSuppression:
            return "Remove the comment, or fix the rule id or the line it is on."
        }
    }

    /// A small, complete recipe file that triggers the rule.
    public var wrongExample: String {
        switch self {
        case .yamlSyntax:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2    # the '}' is missing
                """ + "\n"
        case .resourceLimit:
            return """
                # Each list names the one above ten times, so 'f' alone stands for
                # 1,111,111 nodes. The compiler stops past 1,000,000 and drops the
                # whole document: the menu below is never read.
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                lol:
                  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]
                  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
                  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
                  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
                  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
                  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
                """ + "\n"
        case .invalidType:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-kiwi-juice:
                    recipe:           # a list, not a mapping
                      - mango: 2
                      - kiwi: 1
                """ + "\n"
        case .unknownKey:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    prize: 4500       # did you mean 'price'?
                    recipe: { mango: 2 }
                """ + "\n"
        case .unsupportedVersion:
            return """
                version: 2
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .invalidName:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango juice:        # an id cannot contain a space
                    recipe: { mango: 2 }
                """ + "\n"
        case .duplicateKey:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-kiwi-juice:
                    recipe: { mango: 2, kiwi: 1, mango: 1 }
                """ + "\n"
        case .duplicateDefinition:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                recipes:
                  tropical: { mango: 1, kiwi: 1 }
                menu:
                  tropical:           # already defined as a recipe
                    recipe: { tropical: 2 }
                """ + "\n"
        case .unknownFruit:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mangoo: 2 }
                """ + "\n"
        case .zeroAmount:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-kiwi-juice:
                    recipe: { mango: 2, kiwi: 0 }
                """ + "\n"
        case .negativeAmount:
            return """
                fruits:
                  mango:
                stock:
                  mango: -5
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .invalidAmount:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: "2" }   # quoted: text, not a number
                """ + "\n"
        case .emptyRecipe:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    label: Mango juice
                    price: 4500
                """ + "\n"
        case .recipeCycle:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                recipes:
                  base: { syrup: 1, kiwi: 1 }
                  syrup: { mango: 2, base: 1 }   # base -> syrup -> base
                menu:
                  mango-kiwi-juice:
                    recipe: { base: 1 }
                """ + "\n"
        case .amountOverflow:
            return """
                fruits:
                  mango:
                stock:
                  mango: 100
                recipes:
                  crate: { mango: 1000000000 }
                menu:
                  mango-crates:
                    recipe: { crate: 10000000000 }   # 10^19 mangoes
                """ + "\n"
        case .unusedFruit:
            return """
                fruits:
                  mango:
                  kiwi:               # nothing on the menu uses kiwi
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .unusedRecipe:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                recipes:
                  tropical-base: { mango: 1, kiwi: 1 }   # no menu item uses it
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                  kiwi-juice:
                    recipe: { kiwi: 3 }
                """ + "\n"
        case .neverMakeable:
            return """
                fruits:
                  strawberry:
                stock:
                  strawberry: 10
                menu:
                  strawberry-juice:
                    recipe: { strawberry: 16 }   # 16 needed, 10 in stock
                """ + "\n"
        case .missingStock:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10           # no stock entry for kiwi
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                  kiwi-juice:
                    recipe: { kiwi: 3 }
                """ + "\n"
        case .unusedSuppression:
            return """
                fruits:
                  mango:
                  kiwi:               # juice-lint disable-line unused-fruit
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                  kiwi-juice:         # kiwi is used now: the comment hides nothing
                    recipe: { kiwi: 3 }
                """ + "\n"
        }
    }

    /// The same file, fixed: it compiles with no diagnostic of the rule.
    public var fixedExample: String {
        switch self {
        case .yamlSyntax:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .resourceLimit:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .invalidType:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-kiwi-juice:
                    recipe:
                      mango: 2
                      kiwi: 1
                """ + "\n"
        case .unknownKey:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    price: 4500
                    recipe: { mango: 2 }
                """ + "\n"
        case .unsupportedVersion:
            return """
                version: 1
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .invalidName:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    label: mango juice
                    recipe: { mango: 2 }
                """ + "\n"
        case .duplicateKey:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-kiwi-juice:
                    recipe: { mango: 3, kiwi: 1 }
                """ + "\n"
        case .duplicateDefinition:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                recipes:
                  tropical: { mango: 1, kiwi: 1 }
                menu:
                  tropical-juice:
                    recipe: { tropical: 2 }
                """ + "\n"
        case .unknownFruit:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .zeroAmount:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-kiwi-juice:
                    recipe: { mango: 2, kiwi: 1 }
                """ + "\n"
        case .negativeAmount:
            return """
                fruits:
                  mango:
                stock:
                  mango: 5
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .invalidAmount:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                """ + "\n"
        case .emptyRecipe:
            return """
                fruits:
                  mango:
                stock:
                  mango: 10
                menu:
                  mango-juice:
                    label: Mango juice
                    price: 4500
                    recipe: { mango: 2 }
                """ + "\n"
        case .recipeCycle:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                recipes:
                  base: { syrup: 1, kiwi: 1 }
                  syrup: { mango: 2 }
                menu:
                  mango-kiwi-juice:
                    recipe: { base: 1 }
                """ + "\n"
        case .amountOverflow:
            return """
                fruits:
                  mango:
                stock:
                  mango: 100
                recipes:
                  crate: { mango: 24 }
                menu:
                  mango-crates:
                    recipe: { crate: 2 }
                """ + "\n"
        case .unusedFruit:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                  kiwi-juice:
                    recipe: { kiwi: 3 }
                """ + "\n"
        case .unusedRecipe:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                recipes:
                  tropical-base: { mango: 1, kiwi: 1 }
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                  kiwi-juice:
                    recipe: { kiwi: 3 }
                  tropical-juice:
                    recipe: { tropical-base: 2 }
                """ + "\n"
        case .neverMakeable:
            return """
                fruits:
                  strawberry:
                stock:
                  strawberry: 20
                menu:
                  strawberry-juice:
                    recipe: { strawberry: 16 }
                """ + "\n"
        case .missingStock:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                  kiwi-juice:
                    recipe: { kiwi: 3 }
                """ + "\n"
        case .unusedSuppression:
            return """
                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-juice:
                    recipe: { mango: 2 }
                  kiwi-juice:
                    recipe: { kiwi: 3 }
                """ + "\n"
        }
    }

    /// The long text `juice-lint explain RULE` prints: the id and default
    /// severity, the description, the wrong and fixed examples, and the fix.
    ///
    /// Prose is wrapped at 80 columns; examples are indented four spaces and
    /// kept exactly as written, so they can be copied into a file.
    public var explanation: String {
        var lines = ["\(id) (\(defaultSeverity.rawValue))", ""]
        lines += Self.wrap(fullDescription, width: 80)
        lines += ["", "Wrong:", ""] + Self.indent(wrongExample)
        lines += ["", "Fixed:", ""] + Self.indent(fixedExample)
        lines += [""] + Self.wrap("Help: " + helpText, width: 80)
        return lines.joined(separator: "\n")
    }

    /// Greedy word wrap; a word longer than the width gets a line of its own.
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The example's lines, indented four spaces; blank lines stay empty so the
    /// text has no trailing whitespace.
    private static func indent(_ example: String) -> [String] {
        var lines = example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines.map { $0.isEmpty ? "" : "    " + $0 }
    }
}
