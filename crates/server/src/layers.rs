//! The crate's layers, checked: the table core knows no feature.
//!
//! Every top-level module is either in the CORE (the live table, the games'
//! registry, the wire types, and the services the table drives itself) or a
//! FEATURE built on top of it (docs/ARCHITECTURE.md, "Layers"). A core module
//! may name another core module and nothing above it: no feature, and not the
//! composition root's [`crate::App`]. What the core needs of a feature it asks
//! through a port it defines itself; what the two share lives in the core.
//!
//! The tests read the sources as the compiler builds them outside tests: each
//! core module's files are found by following its `mod` declarations, with
//! comments, string and character literals blanked and `#[cfg(test)]` items
//! cut (a core module's tests may use anything). They fail when a core module
//! names a feature (`crate::lobby::…`, `use crate::{cluster, …}`), and when a
//! module of `lib.rs` is in neither list or in both, so a new module is placed
//! before it builds into the suite.

use std::path::{Path, PathBuf};

/// The table core: what a table needs to run a game, record it and tell its
/// people. `bots`, `computer`, `compute` and `engines` are the computer seats
/// the table plays itself.
const CORE: &[&str] = &[
    "live", "registry", "protocol", "error", "logs", "metrics", "config", "bots", "computer",
    "compute", "engines",
];

/// The features: they call into the core or listen to its table events, and
/// are wired together in the composition root (`lib.rs`).
const FEATURES: &[&str] = &[
    "solo",
    "lobby",
    "cluster",
    "lichess",
    "events",
    "ws",
    "api",
    "accounts",
    "auth",
    "authority",
    "analysis",
    "bench",
    "chat",
    "web",
    "relations",
    "people",
    "invites",
];

/// What the composition root holds for the route handlers: as far from the
/// core as a feature.
const ROOT: &[&str] = &["App", "Running"];

/// `source` as the compiler builds it outside tests, as far as naming goes:
/// comments, string and character literals blanked, `#[cfg(test)]` items cut.
fn code_of(source: &str) -> String {
    cut_tests(&blank_literals(source))
}

/// `source` without its comments, and with every string literal (raw and byte
/// ones too) as `""` and every character literal as `' '`.
fn blank_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let at = |i: usize| chars.get(i).copied();
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while let Some(c) = at(i) {
        match c {
            '/' if at(i + 1) == Some('/') => {
                while at(i).is_some_and(|c| c != '\n') {
                    i += 1;
                }
            }
            '/' if at(i + 1) == Some('*') => {
                let mut depth = 0;
                while let Some(c) = at(i) {
                    if c == '/' && at(i + 1) == Some('*') {
                        depth += 1;
                        i += 2;
                    } else if c == '*' && at(i + 1) == Some('/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push(' ');
            }
            '"' => {
                i += 1;
                while let Some(c) = at(i) {
                    i += if c == '\\' { 2 } else { 1 };
                    if c == '"' {
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            // A raw string (`r"…"`, `r#"…"#`, `br#"…"#`), not an identifier's `r`.
            'r' if !ident(i.checked_sub(1).and_then(at))
                || (at(i - 1) == Some('b') && !ident(i.checked_sub(2).and_then(at))) =>
            {
                let hashes = (i + 1..).take_while(|&j| at(j) == Some('#')).count();
                if at(i + 1 + hashes) != Some('"') {
                    out.push(c);
                    i += 1;
                    continue;
                }
                i += hashes + 2;
                while let Some(c) = at(i) {
                    i += 1;
                    if c == '"' && (i..i + hashes).all(|j| at(j) == Some('#')) {
                        i += hashes;
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            // A character literal (`'{'`, `'\''`, `'\u{7b}'`), not a lifetime.
            '\'' if at(i + 1) == Some('\\') => {
                i += 3;
                while at(i).is_some_and(|c| c != '\'') {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            }
            '\'' if at(i + 2) == Some('\'') => {
                i += 3;
                out.push_str("' '");
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// `code` without its `#[cfg(test)]` items (a test module, inline or in a
/// file of its own, or a test-only function).
fn cut_tests(code: &str) -> String {
    const TEST_ONLY: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(TEST_ONLY) {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        rest = &item[item_end(item)..];
    }
    out.push_str(rest);
    out
}

/// Where the item at the start of `item` (its attributes first) ends: after
/// its `;`, or after the brace that closes its body.
fn item_end(item: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in item.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            ';' if depth == 0 => return i + 1,
            _ => {}
        }
    }
    item.len()
}

/// The leading identifier of `text`.
fn ident(text: &str) -> String {
    text.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The crate-level items `code` names through `crate::` paths: `crate::x::…`
/// and each path's first name in `crate::{x, y::z, w::{…}}`.
fn named_modules(code: &str) -> Vec<String> {
    let mut named = Vec::new();
    for (at, found) in code.match_indices("crate::") {
        let glued = code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if glued {
            continue;
        }
        let after = code[at + found.len()..].trim_start();
        match after.strip_prefix('{') {
            Some(group) => named.extend(group_heads(group)),
            None => named.push(ident(after)),
        }
    }
    named.retain(|n| !n.is_empty());
    named
}

/// The first name of each path of a `use` group, `group` starting after its
/// opening brace: `a, b::c, d::{e, f}}` gives `a`, `b` and `d`.
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = vec![ident(group)];
    let mut depth = 0usize;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => heads.push(ident(&group[i + 1..])),
            _ => {}
        }
    }
    heads
}

/// The modules `code` declares in files of their own (`mod x;`, whatever its
/// visibility).
fn declared_modules(code: &str) -> Vec<String> {
    let mut declared = Vec::new();
    for (at, found) in code.match_indices("mod ") {
        let glued = code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let rest = code[at + found.len()..].trim_start();
        let name = ident(rest);
        if !glued && !name.is_empty() && rest[name.len()..].trim_start().starts_with(';') {
            declared.push(name);
        }
    }
    declared
}

/// The file of module `name` declared in a file of directory `dir`.
fn module_file(dir: &Path, name: &str) -> PathBuf {
    let candidates = [
        dir.join(format!("{name}.rs")),
        dir.join(name).join("mod.rs"),
    ];
    candidates
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("no file for the module {name} in {}", dir.display()))
}

/// The files of the crate's top-level module `name`, each with its code (see
/// [`code_of`]): its own file and its submodules', found by following their
/// declarations as the compiler does.
fn module_files(src: &Path, name: &str) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut todo = vec![module_file(src, name)];
    while let Some(file) = todo.pop() {
        let source = std::fs::read_to_string(&file).expect("a source file");
        let code = code_of(&source);
        // A module's children live beside `mod.rs`, or in a folder named after its file.
        let dir = if file.file_name().is_some_and(|n| n == "mod.rs") {
            file.parent().expect("a folder").to_path_buf()
        } else {
            file.with_extension("")
        };
        todo.extend(declared_modules(&code).iter().map(|m| module_file(&dir, m)));
        files.push((file, code));
    }
    files
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_core_names_no_feature() {
    let src = src();
    let mut wrong = Vec::new();
    for core in CORE {
        for (file, code) in module_files(&src, core) {
            for name in named_modules(&code) {
                if FEATURES.contains(&name.as_str()) || ROOT.contains(&name.as_str()) {
                    let file = file.strip_prefix(&src).unwrap_or(&file);
                    wrong.push(format!("{} names `{name}`", file.display()));
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "core modules reach up into features:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_module_is_in_exactly_one_layer() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
    let modules = declared_modules(&code_of(&lib));
    for module in &modules {
        let places = [CORE, FEATURES]
            .iter()
            .filter(|layer| layer.contains(&module.as_str()))
            .count();
        assert_eq!(
            places, 1,
            "the module `{module}` must be in exactly one layer: CORE or FEATURES in \
             src/layers.rs (and docs/ARCHITECTURE.md, \"Layers\")"
        );
    }
    for listed in CORE.iter().chain(FEATURES) {
        assert!(
            modules.iter().any(|m| m == listed),
            "`{listed}` is listed in a layer but is no module of lib.rs"
        );
    }
}

#[test]
fn a_core_module_naming_a_feature_is_seen() {
    assert_eq!(
        named_modules(&code_of("use crate::lobby::TableSummary;")),
        ["lobby"]
    );
    assert_eq!(
        named_modules(&code_of("use crate::{cluster, live::Env};")),
        ["cluster", "live"]
    );
    // As rustfmt writes a long group: over lines, nested, with a trailing comma.
    let group = "use crate::{\n    live::{Conn, Env},\n    solo::{self, admits},\n    App,\n};";
    assert_eq!(named_modules(&code_of(group)), ["live", "solo", "App"]);
    assert_eq!(
        named_modules(&code_of(
            "let x = crate::ws::Sockets::default(); // crate::api"
        )),
        ["ws"]
    );
}

#[test]
fn comments_literals_and_tests_name_nothing() {
    let code = r##"
        /// See [`crate::lichess`].
        /* crate::auth, /* nested */ crate::api */
        const A: &str = "crate::lobby \" crate::ws";
        const B: &str = r#"crate::events "quoted""#;
        const C: char = '{';
        fn f<'a>(x: &'a str) -> &'a str { crate::live::new_id(); x }
        #[cfg(test)]
        mod tests {
            use crate::cluster;
            fn g() -> [u8; 2] { let _ = '}'; [0; 2] }
        }
        #[cfg(test)]
        mod more;
        use crate::registry::Games;
    "##;
    let code = code_of(code);
    assert_eq!(named_modules(&code), ["live", "registry"]);
    assert!(declared_modules(&code).is_empty());
}

#[test]
fn a_module_is_its_files_as_the_compiler_finds_them() {
    let src = src();
    let files: Vec<PathBuf> = module_files(&src, "protocol")
        .into_iter()
        .map(|(file, _)| file.strip_prefix(&src).unwrap().to_path_buf())
        .collect();
    assert!(files.contains(&PathBuf::from("protocol.rs")));
    assert!(files.contains(&PathBuf::from("protocol/flat/mod.rs")));
    assert!(files.contains(&PathBuf::from("protocol/flat/diff.rs")));
    // A test module in a file of its own is no part of what the core builds.
    assert!(!files.contains(&PathBuf::from("protocol/flat/tests.rs")));
}
