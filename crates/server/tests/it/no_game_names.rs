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
//! - UCI's `go` command in the engine front end (`Some("go") =>` or `"go" =>`, a
//!   match arm on the command word, in
//!   `src/cli/engine/mod.rs`): a protocol word that happens to be a game's name.
//!
//! The web client's TypeScript (`web/src/**/*.ts`) likewise: no game name as a
//! string (`'go'`, `"chess"`, `` `xiangqi` ``) nor as a dispatch table's key
//! (`chess: …` at the start of a line). Allowed, and why:
//! - `web/src/net/generated/`: generated from the server's types.
//! - a game's own folder naming itself (`'go'` in `web/src/games/go/`): the
//!   folder is that game's board and pages, as a rules crate is its rules.
//! - the client's one registry of what each game plugs in:
//!   `web/src/games/index.ts` (the game's plugin).
//!
//! Everything else a page needs of a game (its name in both languages, its
//! glyph, its table options' presets, its Lichess variant key, whether it is
//! analysed) comes from the server's descriptors (`GET /api/games`).

use std::path::{Path, PathBuf};

use qiyuan_testkit::fs::workspace;

const NAMES: [&str; 4] = ["chess", "xiangqi", "go", "doudizhu"];

/// The client's registry: what each game plugs in.
const TS_REGISTRIES: [&str; 1] = ["web/src/games/index.ts"];

fn ts_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            ts_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "ts") {
            out.push(path);
        }
    }
}

/// The game names a line of TypeScript holds that no exception allows.
fn ts_offending(file: &Path, line: &str) -> Vec<&'static str> {
    let code = line.trim_start();
    if code.starts_with("//") || code.starts_with('*') || code.starts_with("/*") {
        return Vec::new();
    }
    // `web/src/games/go/...`: the game's own folder.
    let own = file
        .strip_prefix("web/src/games")
        .ok()
        .filter(|rest| rest.components().count() > 1)
        .and_then(|rest| rest.iter().next())
        .and_then(|c| c.to_str());
    NAMES
        .into_iter()
        .filter(|name| {
            let quoted = ['\'', '"', '`']
                .iter()
                .any(|q| line.contains(&format!("{q}{name}{q}")));
            let key = code
                .strip_prefix(name)
                .is_some_and(|rest| rest.trim_start().starts_with(':'));
            (quoted || key || object_key(code, name)) && own != Some(name)
        })
        .collect()
}

/// Whether `name` is a key of an object literal on this line, written out
/// (`{ chess: a }`) or as a shorthand (`{ chess, xiangqi }`, the table of a
/// dispatch by game), not merely part of a longer word or a member (`x.go`).
fn object_key(code: &str, name: &str) -> bool {
    let bytes = code.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    code.match_indices(name).any(|(at, _)| {
        let end = at + name.len();
        let before = code[..at].trim_end();
        let after = code[end..].trim_start();
        let whole = (at == 0 || !word(bytes[at - 1])) && bytes.get(end).is_none_or(|&b| !word(b));
        let opens = before.ends_with('{') || before.ends_with(',');
        let closes = after.starts_with(',') || after.starts_with('}') || after.starts_with(':');
        // `{ a, go }` in an import list names a binding, not a game.
        whole && opens && closes && !code.starts_with("import ") && !code.starts_with("export {")
    })
}

#[test]
fn no_game_name_in_the_web_client_outside_its_registries() {
    let root = workspace();
    let mut files = Vec::new();
    ts_files(&root.join("web/src"), &mut files);
    let files: Vec<PathBuf> = files
        .into_iter()
        .map(|f| f.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    assert!(
        files.iter().any(|f| f.ends_with("table/route.ts")),
        "the client's sources are read: {files:?}"
    );
    for listed in TS_REGISTRIES {
        assert!(
            files.iter().any(|f| f == Path::new(listed)),
            "{listed} is listed but does not exist: take it off the list"
        );
    }
    let mut found = Vec::new();
    for file in &files {
        let skip = file.starts_with("web/src/net/generated")
            || TS_REGISTRIES.iter().any(|r| file == Path::new(r));
        if skip {
            continue;
        }
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            for name in ts_offending(file, line) {
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
        "game names in the web client outside its registries:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_typescript_check_sees_a_match_on_a_name() {
    let page = Path::new("web/src/pages/table.ts");
    assert_eq!(ts_offending(page, "if (m.game === 'chess') {"), ["chess"]);
    assert_eq!(ts_offending(page, r#"game: "doudizhu","#), ["doudizhu"]);
    assert_eq!(ts_offending(page, "const g = `xiangqi`;"), ["xiangqi"]);
    assert_eq!(ts_offending(page, "  go: goTablePage,"), ["go"]);
    assert!(ts_offending(page, "  // as 'go' does").is_empty());
    assert!(ts_offending(page, "h('div.xiangqi-board')").is_empty());
    assert!(ts_offending(page, "const going = 'gone';").is_empty());
    // A dispatch table by game, with shorthand or written-out keys.
    assert_eq!(
        ts_offending(page, "const V = { chess, xiangqi, go, doudizhu };"),
        ["chess", "xiangqi", "go", "doudizhu"]
    );
    assert_eq!(ts_offending(page, "f({ go: goViewer })"), ["go"]);
    assert!(ts_offending(page, "import { go, chessBoard } from './x';").is_empty());
    assert!(ts_offending(page, "if (x.go) { go(); }").is_empty());
    // A game's folder names itself, not another game.
    let go = Path::new("web/src/games/go/table.ts");
    assert!(ts_offending(go, "const GAME = 'go';").is_empty());
    assert_eq!(ts_offending(go, "if (g === 'doudizhu') {"), ["doudizhu"]);
    // A file directly in web/src is no game's folder.
    assert_eq!(
        ts_offending(Path::new("web/src/go.ts"), "x = 'go';"),
        ["go"]
    );
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
    let root = workspace();
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
    let uci_go = file == Path::new("src/cli/engine/mod.rs")
        && (code.starts_with(r#"Some("go") =>"#) || code.starts_with(r#""go" =>"#));
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
        let text = std::fs::read_to_string(workspace().join(file)).unwrap();
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
    let engine = Path::new("src/cli/engine/mod.rs");
    assert!(offending(engine, r#"                Some("go") => {"#).is_empty());
    assert!(offending(engine, r#"            "go" => {"#).is_empty());
    assert_eq!(
        offending(engine, r#"Game::Go if name == "go" => {"#),
        ["go"]
    );
    assert_eq!(
        offending(perft, r#"                Some("go") => {"#),
        ["go"]
    );
}
