/// How far an open-addressing table probes under a hash it does not seed
/// before it stops trusting the hash.
///
/// The tables that key on file text with the unseeded `NameTable.utf8Hash`
/// (a mapping's key check, `KeySet`; a large file's join,
/// `PossiblySeenHashes`) keep probes short only while the input is fair. At
/// most half full, a fair hash's probes average under two slots, so a probe
/// this long means keys chosen to collide (or very bad luck). Each table
/// then takes its own safe way out (a seeded rehash, or "maybe seen"), so
/// no file makes a probe long. One limit for all of them, so that "long"
/// means one thing.
package enum ProbeLimit {
    package static let unseeded = 64
}
