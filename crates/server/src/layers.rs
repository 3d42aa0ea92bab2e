//! The crate's layers, checked: the table core knows no feature.
//!
//! Every top-level module is either CORE (the live table, the games' registry,
//! the wire types, and the services the table drives itself) or a FEATURE built
//! on top of it (docs/ARCHITECTURE.md, "Layers"). A core module may name another
//! core module and nothing above it; a feature may name anything. The test reads
//! the sources and fails when a core module names a feature (`crate::lobby`,
//! `crate::{cluster, …}`) or when a module is in neither list, so a new
//! module has to be placed before it builds into the suite.

/// The table core: what a table needs to run a game, record it and tell its
/// people. `bots`, `computer`, `compute` and `engines` are the computer seats the
/// table plays itself.
#[cfg(test)]
const CORE: &[&str] = &[
    "live", "registry", "protocol", "error", "logs", "metrics", "config", "bots", "computer",
    "compute", "engines", "layers",
];

/// Features: they listen to the core's table events or call into it, and are
/// wired together in the composition root (`lib.rs`).
#[cfg(test)]
const FEATURES: &[&str] = &[
    "solo", "lobby", "cluster", "lichess", "events", "ws", "api", "accounts", "auth",
    "authority", "analysis", "bench", "web",
];

/// The crate-level modules a source text names (`crate::x`, `crate::{x, y}`),
/// comments skipped.
#[cfg(test)]
fn named_modules(source: &str) -> Vec<String> {
    let mut named = Vec::new();
    for line in source.lines() {
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                named.push(name);
            }
            rest = after;
        }
        // `use crate::{a, b::c}`: the names inside the braces.
        if let Some(at) = code.find("crate::{") {
            let inner = &code[at + "crate::{".len()..];
            let inner = inner.split('}').next().unwrap_or("");
            for part in inner.split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    named.push(name);
                }
            }
        }
    }
    named
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("the crate's sources") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The top-level module a source file belongs to (`live/actor.rs` → `live`).
    fn module_of(src: &Path, file: &Path) -> String {
        let rel = file.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a component");
        let first = first.as_os_str().to_string_lossy();
        first.trim_end_matches(".rs").to_string()
    }

    #[test]
    fn the_core_names_no_feature() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let mut wrong = Vec::new();
        for file in &files {
            let module = module_of(&src, file);
            if matches!(module.as_str(), "lib" | "main") {
                continue; // the composition root and the command line
            }
            assert!(
                CORE.contains(&module.as_str()) || FEATURES.contains(&module.as_str()),
                "the module `{module}` is in neither layer: add it to CORE or FEATURES in \
                 src/layers.rs (and to docs/ARCHITECTURE.md)"
            );
            if !CORE.contains(&module.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(file).expect("a source file");
            for name in named_modules(&text) {
                if FEATURES.contains(&name.as_str()) {
                    wrong.push(format!(
                        "{} names the feature `{name}`",
                        file.strip_prefix(&src).unwrap().display()
                    ));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "core modules reach up into features:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn a_core_module_naming_a_feature_is_seen() {
        assert_eq!(named_modules("use crate::lobby::TableSummary;"), ["lobby"]);
        assert_eq!(
            named_modules("use crate::{cluster, live::Env};"),
            ["cluster", "live"]
        );
        assert_eq!(
            named_modules("let x = crate::solo::admits(t); // crate::ws"),
            ["solo"]
        );
        assert!(named_modules("/// see [`crate::lichess`]").is_empty());
    }

    #[test]
    fn every_layer_list_names_a_module_once() {
        for name in CORE {
            assert!(!FEATURES.contains(name), "{name} is in both layers");
        }
    }
}
