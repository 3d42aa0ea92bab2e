//! `qiyuan go score` on every game GNU Go played in the shared data: the printed
//! result must be GNU Go's `final_score` with its dead stones removed.
#![cfg(feature = "go")]

use std::path::PathBuf;
use std::process::Command;

fn data_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/go-gnugo"
    ));
    assert!(
        dir.is_dir(),
        "the reference games are missing: {} (see shared/data/README.md)",
        dir.display()
    );
    dir
}

fn score(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .arg("go")
        .arg("score")
        .args(args)
        .output()
        .expect("run qiyuan");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
        String::from_utf8_lossy(&out.stderr).trim().to_string(),
    )
}

#[test]
fn go_score_agrees_with_gnu_go_on_every_game() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut differ = Vec::new();
    for sgf in &files {
        let want = std::fs::read_to_string(sgf.with_extension("result")).unwrap();
        let dead: Vec<String> = std::fs::read_to_string(sgf.with_extension("dead"))
            .unwrap()
            .split_whitespace()
            .map(String::from)
            .collect();
        let mut args = vec![sgf.to_str().unwrap().to_string()];
        if !dead.is_empty() {
            args.push("--dead".into());
            args.push(dead.join(","));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, got, err) = score(&args);
        if !ok || got != want.trim() {
            differ.push(format!(
                "{}: want {} got {got} {err}",
                sgf.display(),
                want.trim()
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn go_score_explains_bad_input() {
    let dir = data_dir();
    let sgf = dir.join("g0001.sgf");
    let (ok, _, err) = score(&[sgf.to_str().unwrap(), "--dead", "Z99"]);
    assert!(!ok);
    assert!(err.contains("Z99"), "{err}");
    let (ok, _, err) = score(&[dir.join("missing.sgf").to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("cannot read"), "{err}");
    // Without dead stones the count still comes out, as an SGF result.
    let (ok, out, _) = score(&[sgf.to_str().unwrap()]);
    assert!(ok);
    assert!(
        out.starts_with("B+") || out.starts_with("W+") || out == "0",
        "{out}"
    );
}
