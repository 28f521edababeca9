import Foundation
import Testing

/// A folder of files written byte for byte, for runs that edit files or
/// read a book beside standard input; removed by `remove()`.
struct TemporaryBook {
    let root: URL

    /// A new folder holding `files`, by path inside it (folders made as needed).
    init(_ files: [String: [UInt8]]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("book-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, bytes) in files { try write(path, bytes) }
    }

    /// `text`'s UTF-8 bytes under each path.
    init(text files: [String: String]) throws {
        try self.init(files.mapValues { Array($0.utf8) })
    }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    func write(_ path: String, _ bytes: [UInt8]) throws {
        let url = url(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: url(path))) }

    func text(_ path: String) throws -> String { String(decoding: try bytes(path), as: UTF8.self) }

    /// The inode, modification time and permission bits, which a file
    /// nobody wrote keeps.
    func identity(_ path: String) throws -> (inode: Int, modified: Date, permissions: Int) {
        let attributes = try FileManager.default.attributesOfItem(atPath: url(path).path)
        let inode = try #require(attributes[.systemFileNumber] as? Int)
        let modified = try #require(attributes[.modificationDate] as? Date)
        let permissions = try #require(attributes[.posixPermissions] as? Int)
        return (inode, modified, permissions)
    }

    /// A copy of the whole folder, for applying a diff beside the original.
    func copy() throws -> TemporaryBook {
        let copy = try TemporaryBook([:])
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            try FileManager.default.copyItem(at: root.appendingPathComponent(name), to: copy.root.appendingPathComponent(name))
        }
        return copy
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Runs the built juice-lint in this folder.
    func lint(_ arguments: String..., stdin: String? = nil) throws -> ToolResult {
        try ToolRunner.run("juice-lint", arguments, in: root, stdin: stdin)
    }
}
