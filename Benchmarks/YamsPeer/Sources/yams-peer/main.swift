// yams-peer PATH ...: decodes every recipe file under the paths with Yams'
// YAMLDecoder into Codable structs for the recipe language, then checks for
// unknown fruits and zero amounts. Prints "files: N, items: N, problems: N";
// exit 1 when there are problems, 2 when a file cannot be read or decoded.
import Foundation
import Yams

struct Fruit: Decodable {
    var label: String?
    var emoji: String?
}

struct MenuItem: Decodable {
    var label: String?
    var price: Int?
    var recipe: [String: Int]
}

struct Document: Decodable {
    var version: Int?
    var fruits: [String: Fruit?]?
    var stock: [String: Int]?
    var recipes: [String: [String: Int]]?
    var menu: [String: MenuItem]?
}

/// Every *.yaml / *.yml under the paths, hidden entries skipped, in sorted order.
func recipeFiles(_ paths: [String]) -> [String] {
    var found: [String] = []
    let fileManager = FileManager.default
    for path in paths {
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            FileHandle.standardError.write(Data("yams-peer: no such file or directory: '\(path)'\n".utf8))
            exit(2)
        }
        guard isDirectory.boolValue else {
            found.append(path)
            continue
        }
        let enumerator = fileManager.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator?.skipDescendants()
                continue
            }
            if name.hasSuffix(".yaml") || name.hasSuffix(".yml") { found.append(path + "/" + relative) }
        }
    }
    return found.sorted()
}

/// Unknown fruits, zero or negative amounts and negative stock, over all documents.
func problems(in documents: [Document]) -> Int {
    var fruits = Set<String>()
    var composites = Set<String>()
    for document in documents {
        fruits.formUnion((document.fruits ?? [:]).keys)
        composites.formUnion((document.recipes ?? [:]).keys)
        composites.formUnion((document.menu ?? [:]).keys)
    }
    var count = 0
    func check(_ recipe: [String: Int]) {
        for (ingredient, amount) in recipe {
            if !fruits.contains(ingredient) && !composites.contains(ingredient) { count += 1 }
            if amount <= 0 { count += 1 }
        }
    }
    for document in documents {
        for (fruit, amount) in document.stock ?? [:] where !fruits.contains(fruit) || amount < 0 { count += 1 }
        for recipe in (document.recipes ?? [:]).values { check(recipe) }
        for item in (document.menu ?? [:]).values { check(item.recipe) }
    }
    return count
}

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let files = recipeFiles(arguments.isEmpty ? ["recipes"] : arguments)
    let decoder = YAMLDecoder()
    var documents: [Document] = []
    for file in files {
        do {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let parser = try Parser(yaml: text)
            while let node = try parser.nextRoot() {
                documents.append(try decoder.decode(Document.self, from: node))
            }
        } catch {
            FileHandle.standardError.write(Data("\(file): error: \(error)\n".utf8))
            return 2
        }
    }
    let items = documents.reduce(0) { $0 + ($1.menu?.count ?? 0) }
    let found = problems(in: documents)
    print("files: \(files.count), items: \(items), problems: \(found)")
    return found == 0 ? 0 : 1
}

exit(main())
