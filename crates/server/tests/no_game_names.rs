//! A game is one registry entry: no Rust source outside the server's registry
//! names a game (`"chess"`, `"xiangqi"`, `"go"`, `"doudizhu"` as a string), so
//! that nothing matches on game names behind the registry's back.
//!
//! Read: every `.rs` file under `src/` and `crates/*/src/` of the workspace, and
//! each crate's `build.rs`. Not read: tests (`tests/` folders, and a file's
//! `#[cfg(test)] mod` from its start to the end of the file), benches, data and
//! docs (comments and doc comments are skipped line by line).
//!
//! Allowed, and why:
//! - `crates/server/src/registry.rs`: the registry itself.
//! - a rules crate naming itself (`"chess"` in `crates/chess/src`): its
//!   `Game::NAME` constant, and its own record formats' tags (PGN's
//!   `[Variant "xiangqi"]`, the Doudizhu record's `"game": "doudizhu"`), which are
//!   the game's file format, not a dispatch on the game.
//! - `feature = "chess"`: cargo feature names in `cfg` attributes, one per game,
//!   which decide what is compiled, not what a running server does.
//! - the command line's own argument parsing (`#[arg(…)]` in `src/cli/`: `qiyuan
//!   perft --game` defaults to chess): the offline tools choose a rules crate by
//!   the user's word and host nothing.
//! - UCI's `go` command in the engine front end (`Some("go")` in
//!   `src/cli/engine.rs`): a protocol word that happens to be a game's name.

use std::path::{Path, PathBuf};

const NAMES: [&str; 4] = ["chess", "xiangqi", "go", "doudizhu"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The sources read, relative to the workspace root.
fn sources() -> Vec<PathBuf> {
    let root = root();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for krate in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        rust_files(&krate.path().join("src"), &mut files);
        let build = krate.path().join("build.rs");
        if build.exists() {
            files.push(build);
        }
    }
    files
        .into_iter()
        .map(|f| f.strip_prefix(&root).unwrap().to_path_buf())
        .collect()
}

/// The game names `line` holds as strings that no exception allows.
fn offending(file: &Path, line: &str) -> Vec<&'static str> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    // `crates/chess/src/...`: the crate's own name.
    let own = file
        .strip_prefix("crates")
        .ok()
        .and_then(|rest| rest.iter().next())
        .and_then(|c| c.to_str());
    let cli_args = file.starts_with("src/cli") && code.starts_with("#[arg(");
    let uci_go = file == Path::new("src/cli/engine.rs") && code.starts_with(r#"Some("go") =>"#);
    NAMES
        .into_iter()
        .filter(|name| {
            let quoted = format!("\"{name}\"");
            let feature = format!("feature = {quoted}");
            line.replace(&feature, "").contains(&quoted)
                && own != Some(name)
                && !cli_args
                && !uci_go
        })
        .collect()
}

#[test]
fn no_game_name_outside_the_registry() {
    let files = sources();
    assert!(
        files.iter().any(|f| f.ends_with("registry.rs")),
        "the registry is among the sources read: {files:?}"
    );
    let mut found = Vec::new();
    for file in &files {
        // The registry and its own modules (`registry/computer.rs`).
        if file == Path::new("crates/server/src/registry.rs")
            || file.starts_with("crates/server/src/registry/")
        {
            continue;
        }
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let mut lines = text.lines().enumerate().peekable();
        while let Some((n, line)) = lines.next() {
            // The unit tests, from their module to the end of the file.
            if line.trim() == "#[cfg(test)]"
                && lines
                    .peek()
                    .is_some_and(|(_, next)| next.trim_start().starts_with("mod "))
            {
                break;
            }
            for name in offending(file, line) {
                found.push(format!(
                    "{}:{}: {name}: {}",
                    file.display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "game names outside the registry:\n{}",
        found.join("\n")
    );
}

/// The check finds what it is looking for (and its exceptions are narrow).
#[test]
fn the_check_sees_a_match_on_a_name() {
    let live = Path::new("crates/server/src/live.rs");
    assert_eq!(
        offending(live, r#"    if game == "doudizhu" {"#),
        ["doudizhu"]
    );
    assert_eq!(offending(live, r#"match g { "go" => 1, _ => 0 }"#), ["go"]);
    assert!(offending(live, r#"#[cfg(feature = "go")]"#).is_empty());
    assert!(offending(live, r#"    /// as "chess" does"#).is_empty());
    assert!(offending(live, "let going = \"gone\";").is_empty());
    // A rules crate may name itself, not another game.
    let chess = Path::new("crates/chess/src/game.rs");
    assert!(offending(chess, r#"const NAME: &'static str = "chess";"#).is_empty());
    assert_eq!(offending(chess, r#"if v == "xiangqi" {"#), ["xiangqi"]);
    // The command line's arguments, not its code.
    let perft = Path::new("src/cli/perft.rs");
    assert!(
        offending(
            perft,
            r#"#[arg(long, value_enum, default_value = "chess")]"#
        )
        .is_empty()
    );
    assert_eq!(offending(perft, r#"if game == "chess" {"#), ["chess"]);
    // UCI's `go` command, in the engine front end only.
    let engine = Path::new("src/cli/engine.rs");
    assert!(offending(engine, r#"                Some("go") => {"#).is_empty());
    assert_eq!(
        offending(engine, r#"Game::Go if name == "go" => {"#),
        ["go"]
    );
    assert_eq!(
        offending(perft, r#"                Some("go") => {"#),
        ["go"]
    );
}
