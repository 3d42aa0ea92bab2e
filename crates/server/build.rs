//! Builds the web client (web/, Vite) into web/dist so that rust-embed can embed it.
//!
//! The build runs only when web/ has sources and web/dist is missing or older than
//! them; `QIYUAN_SKIP_WEB=1` skips it (the server then embeds whatever web/dist holds,
//! possibly nothing). Without web/ at all an empty web/dist is made, so the server
//! always compiles.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// The web client's sources, relative to web/.
const WATCHED: [&str; 6] = [
    "src",
    "index.html",
    "package.json",
    "package-lock.json",
    "public",
    // The build's own steps (the precompressed copies, the Go board's picture left out).
    "vite.config.ts",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets this"));
    let web = manifest.join("../../web");
    let dist = web.join("dist");

    println!("cargo:rerun-if-env-changed=QIYUAN_SKIP_WEB");
    // Cargo treats a watched path that does not exist as changed on every build, so
    // only existing paths are watched (a missing `public/` once made every build
    // recompile the server).
    for watched in WATCHED {
        let path = web.join(watched);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }

    let skip = std::env::var("QIYUAN_SKIP_WEB").is_ok_and(|v| v == "1");
    let has_sources = web.join("package.json").is_file() && web.join("index.html").is_file();
    if !skip && has_sources && is_stale(&web, &dist) {
        build_web(&web);
    }
    // rust-embed needs the folder to exist, even empty.
    if let Err(err) = std::fs::create_dir_all(&dist) {
        panic!("cannot create {}: {err}", dist.display());
    }
}

/// Whether web/dist is missing or older than any of the web sources.
fn is_stale(web: &Path, dist: &Path) -> bool {
    let Some(built) = newest(dist) else {
        return true;
    };
    WATCHED
        .iter()
        .filter_map(|p| newest(&web.join(p)))
        .any(|source| source > built)
}

/// The newest modification time of a file or of anything under a folder.
fn newest(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.is_file() {
        return meta.modified().ok();
    }
    let mut best = None;
    for entry in std::fs::read_dir(path).ok()?.flatten() {
        if let Some(t) = newest(&entry.path()) {
            best = best.max(Some(t));
        }
    }
    best
}

fn build_web(web: &Path) {
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    if Command::new(npm).arg("--version").output().is_err() {
        panic!(
            "building the web client needs npm (Node.js 20 or newer), which was not found. \
             Install Node.js, or set QIYUAN_SKIP_WEB=1 to build the server without the web client."
        );
    }
    let install = if web.join("package-lock.json").is_file() {
        "ci"
    } else {
        "install"
    };
    // Reinstall only when the dependencies changed since node_modules was made.
    let installed = std::fs::metadata(web.join("node_modules"))
        .and_then(|m| m.modified())
        .ok();
    let declared = ["package.json", "package-lock.json"]
        .iter()
        .filter_map(|p| newest(&web.join(p)))
        .max();
    if installed.is_none() || declared > installed {
        run(web, npm, &[install]);
    }
    run(web, npm, &["run", "build"]);
}

fn run(dir: &Path, program: &str, args: &[&str]) {
    let status = Command::new(program).args(args).current_dir(dir).status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => panic!(
            "`{program} {}` in {} failed ({s}); fix the web client or set QIYUAN_SKIP_WEB=1",
            args.join(" "),
            dir.display()
        ),
        Err(err) => panic!("cannot run `{program}`: {err}"),
    }
}
