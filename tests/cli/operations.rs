//! Operations, against the real `qiyuan serve`:
//! - `--log-format json`: every line is a JSON object; each game's start and end
//!   is one line naming the table, the game, the players and the result; no
//!   password, session token or deal secret appears anywhere, even at `debug`.
//! - At `trace` too, no log line shows a frame (a Doudizhu hand), and no log
//!   line of ours takes a frame or a view.
//! - Backups as docs/deploy.md makes them, taken while the server runs (SQLite's
//!   online `.backup`; PostgreSQL's `pg_dump`), restored into a new server that
//!   serves the same finished game's record and resumes the live game.
//!
//! Needs the `sqlite3` command and PostgreSQL's client tools (`pg_dump`,
//! `pg_restore`, `psql`), which .ci/run installs; PostgreSQL at
//! `QIYUAN_TEST_POSTGRES` (default postgres://root@127.0.0.1:5432/test).
#![cfg(feature = "server")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use qiyuan_server::bench::{Client, Socket, wait_ready};
use qiyuan_testkit::accounts;
use qiyuan_testkit::db::postgres_url;
use qiyuan_testkit::fs::temp_dir;
use qiyuan_testkit::net::free_port;
use qiyuan_testkit::process::{KillOnDrop, serve_command};
use serde_json::{Value, json};

/// A running `qiyuan serve`, killed when dropped.
struct Server {
    _process: KillOnDrop,
    base: String,
}

/// Starts `qiyuan serve` on `data` (or `database`) with `extra` arguments and
/// `log` as its filter; stderr goes to `stderr` if given.
async fn serve(
    data: &Path,
    database: Option<&str>,
    extra: &[&str],
    log: &str,
    stderr: Option<&Path>,
) -> Server {
    let port = free_port();
    let mut cmd = serve_command(env!("CARGO_BIN_EXE_qiyuan"), port, data);
    cmd.args(extra)
        .env("QIYUAN_LOG", log)
        .env_remove("RUST_LOG")
        .env_remove("QIYUAN_LOG_FORMAT");
    if let Some(db) = database {
        cmd.args(["--database", db]);
    }
    match stderr {
        Some(path) => cmd.stderr(std::fs::File::create(path).unwrap()),
        None => cmd.stderr(Stdio::null()),
    };
    let server = Server {
        _process: KillOnDrop(cmd.spawn().expect("the qiyuan binary starts")),
        base: format!("http://127.0.0.1:{port}"),
    };
    wait_ready(&server.base, Duration::from_secs(30))
        .await
        .expect("the server is up");
    server
}

/// Registers `name` with `password`.
async fn register(base: &str, name: &str, password: &str) -> Client {
    let http = reqwest::Client::new();
    let session = accounts::register(&http, base, name, password).await;
    Client {
        http,
        base: base.to_string(),
        token: session.token,
        name: session.name,
    }
}

/// A chess game between `a` (white) and `b` at a new table, both sockets watching.
async fn chess_table(a: &Client, b: &Client) -> (String, Socket, Socket) {
    let mut sa = a.connect().await.unwrap();
    let mut sb = b.connect().await.unwrap();
    let time = json!({"kind": "fischer", "base": 600_000, "increment": 0});
    let r = sa
        .call("create", json!({"game": "chess", "seat": 0, "time": time}))
        .await
        .unwrap();
    let table = r["d"]["table"].as_str().unwrap().to_string();
    sb.call("sit", json!({"table": table, "seat": 1}))
        .await
        .unwrap();
    sa.call("ready", json!({"table": table})).await.unwrap();
    sb.call("ready", json!({"table": table})).await.unwrap();
    (table, sa, sb)
}

/// Plays `moves` in turn from white, each acknowledged.
async fn play(table: &str, sa: &mut Socket, sb: &mut Socket, moves: &[&str], first_ply: usize) {
    for (i, action) in moves.iter().enumerate() {
        let s = if (first_ply + i).is_multiple_of(2) {
            &mut *sa
        } else {
            &mut *sb
        };
        s.call("move", json!({"table": table, "action": action}))
            .await
            .unwrap();
    }
}

const FOOLS_MATE: [&str; 4] = ["f2f3", "e7e5", "g2g4", "d8h4"];

#[test]
fn json_logs_name_each_game_start_and_end_and_no_secret() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = temp_dir("jsonlog");
        let log = dir.join("stderr.log");
        // `debug`: the most a server is ever run with; still no secret may show.
        let server = serve(
            &dir.join("data"),
            None,
            &["--log-format", "json"],
            "debug",
            Some(&log),
        )
        .await;
        let passwords = ["correct-horse-battery-7", "tr0ub4dor-and-33"];
        let alice = register(&server.base, "alice", passwords[0]).await;
        let bobby = register(&server.base, "bobby", passwords[1]).await;
        // A login too, so that a password is sent once more.
        let login = reqwest::Client::new()
            .post(format!("{}/api/account/login", server.base))
            .json(&json!({"username": "alice", "password": passwords[0]}))
            .send()
            .await
            .unwrap();
        assert_eq!(login.status(), 200);
        let second_token = login.json::<Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_string();
        let (chess, mut sa, mut sb) = chess_table(&alice, &bobby).await;
        play(&chess, &mut sa, &mut sb, &FOOLS_MATE, 0).await;
        // A Doudizhu hand with two computer players: its deal secret is stored.
        let mut sd = alice.connect().await.unwrap();
        let r = sd
            .call(
                "create",
                json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}),
            )
            .await
            .unwrap();
        let cards = r["d"]["table"].as_str().unwrap().to_string();
        for seat in [1, 2] {
            sd.call("add_bot", json!({"table": cards, "seat": seat}))
                .await
                .unwrap();
        }
        sd.call("ready", json!({"table": cards})).await.unwrap();
        let guest = Client::guest_at(&server.base).await.unwrap();
        let mut sg = guest.connect().await.unwrap();
        sg.send("watch", json!({"table": chess})).await.unwrap();
        sg.expect("sync").await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        drop(server);

        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
            .collect();
        assert!(lines.len() > 10, "{text}");
        let game_lines = |message: &str, table: &str| -> Vec<&Value> {
            lines
                .iter()
                .filter(|l| {
                    l["target"] == "qiyuan::game" && l["message"] == message && l["table"] == table
                })
                .collect()
        };
        let started = game_lines("game started", &chess);
        assert_eq!(started.len(), 1, "{text}");
        assert_eq!(started[0]["level"], "INFO");
        assert_eq!(started[0]["game"], "chess");
        assert_eq!(started[0]["game_id"], chess.as_str());
        assert_eq!(started[0]["players"], "alice,bobby");
        assert!(started[0]["timestamp"].is_string());
        let ended = game_lines("game ended", &chess);
        assert_eq!(ended.len(), 1, "{text}");
        assert_eq!(ended[0]["players"], "alice,bobby");
        assert_eq!(ended[0]["results"], "loss,win");
        assert_eq!(ended[0]["reason"], "checkmate");
        assert_eq!(ended[0]["score"], "0-1");
        let dealt = game_lines("game started", &cards);
        assert_eq!(dealt.len(), 1, "{text}");
        assert_eq!(dealt[0]["game"], "doudizhu");
        let players = dealt[0]["players"].as_str().unwrap();
        assert!(players.starts_with("alice,bot:"), "{players}");
        assert!(game_lines("game ended", &cards).is_empty());

        // No secret anywhere: passwords, session tokens (and the hashes the store
        // keeps of them), the deal secret the store keeps.
        let db = dir.join("data/qiyuan.db");
        let entries = sqlite(
            &db,
            &format!("SELECT entry FROM table_log WHERE table_id = '{cards}'"),
        );
        let deals: Vec<String> = entries
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|e| e["deal"].as_str().map(str::to_string))
            .collect();
        assert_eq!(
            deals.len(),
            1,
            "the hand's secret is in the store: {entries}"
        );
        let hashes = sqlite(&db, "SELECT token FROM sessions");
        let mut secrets: Vec<String> = vec![
            passwords[0].into(),
            passwords[1].into(),
            alice.token.clone(),
            bobby.token.clone(),
            guest.token.clone(),
            second_token,
        ];
        secrets.extend(deals);
        secrets.extend(hashes.lines().map(str::to_string));
        assert!(secrets.len() >= 10, "{secrets:?}");
        let lower = text.to_lowercase();
        for secret in &secrets {
            assert!(secret.len() >= 16, "{secret}");
            assert!(
                !lower.contains(&secret.to_lowercase()),
                "the log shows a secret: {secret}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// Text logs at `debug` print each request's span with its events: the span names
/// the path, never the query, where a bearer client's `/ws?token=` puts its token.
#[test]
fn text_logs_at_debug_show_request_paths_without_their_query() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = temp_dir("textlog");
        let log = dir.join("stderr.log");
        let server = serve(&dir.join("data"), None, &[], "debug", Some(&log)).await;
        let guest = Client::guest_at(&server.base).await.unwrap();
        let mut socket = guest.connect().await.unwrap();
        socket.send("ping", json!({})).await.unwrap();
        socket.expect("pong").await.unwrap();
        let me = guest.get_json("/api/account/me?x=1").await.unwrap();
        assert_eq!(me["user"]["username"], guest.name.as_str(), "{me}");
        tokio::time::sleep(Duration::from_millis(300)).await;
        drop(server);
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            !text.contains(&guest.token),
            "the log shows the session token"
        );
        assert!(!text.contains("x=1"), "the log shows a query");
        assert!(
            text.lines()
                .any(|l| l.contains("path=/ws") && l.contains("started processing request")),
            "the socket's request is logged with its path:\n{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// Issue 41: at `trace` every frame the server sent was logged (tungstenite's
/// `writing frame` in hex and `Sending frame` as escaped text), Doudizhu hands
/// included. Three players are dealt a hand and bid with the server's log at
/// `trace` (as `RUST_LOG=trace` sets it): the log is written at trace level,
/// each frame sent summed up as its type and length, yet it holds no player's
/// hand in any of those forms, and no frame's text.
#[test]
fn trace_logs_show_no_frame_and_no_hand() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = temp_dir("tracelog");
        let log = dir.join("stderr.log");
        // Naming the WebSocket crates does not let their frames through either.
        let filter = "trace,tungstenite=trace,tungstenite::protocol=trace,tokio_tungstenite=trace";
        let server = serve(&dir.join("data"), None, &[], filter, Some(&log)).await;
        let mut players = Vec::new();
        for _ in 0..3 {
            let client = Client::guest_at(&server.base).await.unwrap();
            let socket = client.connect().await.unwrap();
            players.push((client, socket));
        }
        let r = players[0]
            .1
            .call(
                "create",
                json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}),
            )
            .await
            .unwrap();
        let table = r["d"]["table"].as_str().unwrap().to_string();
        for seat in [1, 2] {
            players[seat]
                .1
                .call("sit", json!({"table": table, "seat": seat}))
                .await
                .unwrap();
        }
        for (_, socket) in &mut players {
            socket.call("ready", json!({"table": table})).await.unwrap();
        }
        // Each player's hand, as its own view writes it.
        let mut hands = Vec::new();
        let mut to_act = 0;
        for (seat, (_, socket)) in players.iter_mut().enumerate() {
            socket.send("watch", json!({"table": table})).await.unwrap();
            let sync = socket.expect("sync").await.unwrap();
            let board = &sync["d"]["state"]["game"]["board"];
            assert_eq!(
                board["hand"].as_array().map(Vec::len),
                Some(17),
                "{seat}: {board}"
            );
            hands.push(serde_json::to_string(&board["hand"]).unwrap());
            to_act = board["to_act"].as_u64().unwrap() as usize;
        }
        // A bid goes out to everyone as an event.
        players[to_act]
            .1
            .call("move", json!({"table": table, "action": "bid 1"}))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        drop(server);

        let text = std::fs::read_to_string(&log).unwrap();
        // The frames are there, summed up: each one's type and length.
        let sent = text
            .lines()
            .filter(|l| l.contains("TRACE") && l.contains("frame sent"))
            .count();
        assert!(sent > 10, "the log is at trace level:\n{text}");
        assert!(
            text.lines()
                .any(|l| l.contains("frame sent") && l.contains("kind=\"sync\"")),
            "{text}"
        );
        assert!(
            !text.contains("<FRAME>") && !text.contains("Sending frame"),
            "the log shows frames"
        );
        for (seat, hand) in hands.iter().enumerate() {
            let hex: String = hand.bytes().map(|b| format!("{b:02x}")).collect();
            for form in [hand.clone(), hand.replace('"', "\\\""), hex] {
                assert!(
                    !text.contains(&form),
                    "the log shows seat {seat}'s hand as {form}"
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// Our own log lines are safe by construction: no `tracing` macro in the
/// server's sources takes a frame, a view or a message's text (the names that
/// carry them: `text`, `frame`, `view`, `patch`, `payload`, `hand`, `board`,
/// `msg`, `json`), so no level shows a hidden card.
#[test]
fn no_log_line_of_ours_takes_a_frame_or_a_view() {
    const CARRIERS: [&str; 10] = [
        "text", "frame", "view", "views", "patch", "payload", "hand", "board", "msg", "json",
    ];
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    // The names a macro's arguments use: identifiers outside string literals,
    // and inside them the captures of `{name}` (a message's words are no
    // names).
    fn names(args: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut in_string = false;
        let mut escaped = false;
        let mut start = None;
        for (i, c) in args.char_indices() {
            let word = c.is_alphanumeric() || c == '_';
            if let Some(s) = start
                && !word
            {
                let name = &args[s..i];
                if !in_string || args[..s].ends_with('{') {
                    out.push(name);
                }
                start = None;
            }
            if word && start.is_none() {
                start = Some(i);
            }
            if in_string && escaped {
                escaped = false;
            } else if in_string && c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = !in_string;
            }
        }
        if let Some(s) = start {
            out.push(&args[s..]);
        }
        out
    }
    let mut sources = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/server/src"),
        &mut sources,
    );
    let mut calls = 0;
    for path in &sources {
        let source = std::fs::read_to_string(path).unwrap();
        for level in ["trace", "debug", "info", "warn", "error"] {
            let opening = format!("tracing::{level}!(");
            for (at, _) in source.match_indices(&opening) {
                // The macro's arguments, to the parenthesis that closes them.
                let rest = &source[at + opening.len()..];
                let mut depth = 1;
                let end = rest
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '(' => 1,
                            ')' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map_or(rest.len(), |(i, _)| i);
                let args = &rest[..end];
                for word in names(args) {
                    assert!(
                        !CARRIERS.contains(&word),
                        "{}: a log line takes `{word}`: tracing::{level}!({args})",
                        path.display()
                    );
                }
                calls += 1;
            }
        }
    }
    assert!(calls > 40, "the server's log lines were found ({calls})");
}

/// `sqlite3 db sql`'s output.
fn sqlite(db: &Path, sql: &str) -> String {
    let out = Command::new("sqlite3")
        .arg(db)
        .arg(sql)
        .output()
        .expect("the sqlite3 command (Debian: sqlite3)");
    assert!(
        out.status.success(),
        "sqlite3: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command line, which must succeed.
fn run(program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Where a backup goes and how it comes back.
enum Backend {
    /// Online `.backup` of the live file into a new data folder.
    Sqlite,
    /// `pg_dump` of the live schema, `pg_restore` into a new database.
    Postgres { schema: String, restored: String },
}

/// What a client fetches of a finished game's record and a live game.
async fn fetch(client: &Client, finished: &str, live: &str) -> (String, Value) {
    let record = client
        .http
        .get(format!("{}/game/{finished}.pgn", client.base))
        .send()
        .await
        .unwrap();
    assert_eq!(record.status(), 200);
    let record = record.text().await.unwrap();
    let state = client.get_json(&format!("/api/game/{live}")).await.unwrap()["state"].clone();
    (record, state)
}

fn moves_of(state: &Value) -> Vec<String> {
    state["game"]["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("a game: {state}"))
        .iter()
        .map(|m| m["action"].as_str().unwrap().to_string())
        .collect()
}

fn backup_and_restore(backend: Backend) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = temp_dir("backup");
        let (live_db, restored_db) = match &backend {
            Backend::Sqlite => (None, None),
            Backend::Postgres { schema, restored } => {
                let base = postgres_url();
                let server_url = base.rsplit_once('/').unwrap().0.to_string();
                (
                    Some(format!("{base}?schema={schema}")),
                    Some(format!("{server_url}/{restored}?schema={schema}")),
                )
            }
        };
        let old = serve(&dir.join("old"), live_db.as_deref(), &[], "warn", None).await;
        let a = Client::guest_at(&old.base).await.unwrap();
        let b = Client::guest_at(&old.base).await.unwrap();
        let (finished, mut sa, mut sb) = chess_table(&a, &b).await;
        play(&finished, &mut sa, &mut sb, &FOOLS_MATE, 0).await;
        let (live, mut la, mut lb) = chess_table(&a, &b).await;
        play(&live, &mut la, &mut lb, &["e2e4", "e7e5"], 0).await;
        let (record, state) = fetch(&a, &finished, &live).await;
        assert!(record.contains("0-1"), "{record}");
        assert_eq!(moves_of(&state), ["e2e4", "e7e5"]);

        // The backup, taken while the old server runs (as docs/deploy.md says).
        let new_data = dir.join("new");
        match &backend {
            Backend::Sqlite => {
                std::fs::create_dir_all(&new_data).unwrap();
                let target = new_data.join("qiyuan.db");
                run(
                    "sqlite3",
                    &[
                        dir.join("old/qiyuan.db").to_str().unwrap(),
                        &format!(".backup '{}'", target.display()),
                    ],
                );
            }
            Backend::Postgres { schema, restored } => {
                let dump = dir.join("qiyuan.dump");
                let base = postgres_url();
                run(
                    "pg_dump",
                    &["-Fc", "-n", schema, "-f", dump.to_str().unwrap(), &base],
                );
                run(
                    "psql",
                    &[&base, "-c", &format!("CREATE DATABASE {restored}")],
                );
                let server_url = base.rsplit_once('/').unwrap().0.to_string();
                run(
                    "pg_restore",
                    &[
                        "--no-owner",
                        "-d",
                        &format!("{server_url}/{restored}"),
                        dump.to_str().unwrap(),
                    ],
                );
            }
        }
        // The old server goes on; the live game moves on there too, after the
        // backup: the new server starts from the backup's moment.
        la.call("move", json!({"table": live, "action": "g1f3"}))
            .await
            .unwrap();

        let new = serve(&new_data, restored_db.as_deref(), &[], "warn", None).await;
        let a2 = Client {
            http: reqwest::Client::new(),
            base: new.base.clone(),
            token: a.token.clone(),
            name: a.name.clone(),
        };
        let b2 = Client {
            http: reqwest::Client::new(),
            base: new.base.clone(),
            token: b.token.clone(),
            name: b.name.clone(),
        };
        let (record2, state2) = fetch(&a2, &finished, &live).await;
        assert_eq!(record2, record, "the finished game's record is the same");
        assert_eq!(moves_of(&state2), ["e2e4", "e7e5"], "the backup's moves");
        assert_eq!(state2["status"], "playing");

        // The players' sessions came along: they play on at the new server.
        let mut na = a2.connect().await.unwrap();
        let mut nb = b2.connect().await.unwrap();
        for s in [&mut na, &mut nb] {
            s.send("watch", json!({"table": live})).await.unwrap();
            s.expect("sync").await.unwrap();
        }
        na.call("move", json!({"table": live, "action": "d2d4"}))
            .await
            .unwrap();
        loop {
            let v = nb.recv().await.unwrap();
            if v["t"] == "event" && v.to_string().contains("d2d4") {
                break;
            }
        }
        nb.call("move", json!({"table": live, "action": "e5d4"}))
            .await
            .unwrap();
        let (_, after) = fetch(&a2, &finished, &live).await;
        assert_eq!(moves_of(&after), ["e2e4", "e7e5", "d2d4", "e5d4"]);

        drop(new);
        drop(old);
        if let Backend::Postgres { schema, restored } = &backend {
            let base = postgres_url();
            run(
                "psql",
                &[
                    &base,
                    "-c",
                    &format!("DROP DATABASE {restored} WITH (FORCE)"),
                ],
            );
            run(
                "psql",
                &[&base, "-c", &format!("DROP SCHEMA {schema} CASCADE")],
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    });
}

#[test]
fn sqlite_online_backup_restores_into_a_new_server() {
    backup_and_restore(Backend::Sqlite);
}

#[test]
fn postgres_dump_restores_into_a_new_server() {
    let tag = format!("{}_{}", std::process::id(), free_port());
    backup_and_restore(Backend::Postgres {
        schema: format!("backup_{tag}"),
        restored: format!("qiyuan_restored_{tag}"),
    });
}

/// Issue 47: in JSON mode every line on both streams is JSON — the address the
/// server serves on (stdout), an engine's start (its pid a number, not
/// `Some(…)`), and the shutdown on SIGTERM (stderr).
#[test]
fn json_mode_writes_only_json_lines_on_stdout_and_stderr() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = temp_dir("jsononly");
        let config = dir.join("qiyuan.toml");
        std::fs::write(
            &config,
            r#"
            [[engines]]
            name = "stockfish"
            path = "/usr/games/stockfish"
            protocol = "uci"
            games = ["chess"]
            options = { Threads = 1, Hash = 16 }
            movetime_ms = 50
            processes = 1
            "#,
        )
        .unwrap();
        let (out, err) = (dir.join("stdout.log"), dir.join("stderr.log"));
        let port = free_port();
        let mut cmd = serve_command(env!("CARGO_BIN_EXE_qiyuan"), port, &dir.join("data"));
        cmd.args(["--log-format", "json", "--config"])
            .arg(&config)
            .env("QIYUAN_LOG", "info")
            .env_remove("RUST_LOG")
            .env_remove("QIYUAN_LOG_FORMAT")
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(&err).unwrap());
        let mut child = KillOnDrop(cmd.spawn().expect("the qiyuan binary starts"));
        let base = format!("http://127.0.0.1:{port}");
        wait_ready(&base, Duration::from_secs(30)).await.unwrap();
        // Stockfish analyses a position: its process starts and is logged.
        let guest = Client::guest_at(&base).await.unwrap();
        let mut socket = guest.connect().await.unwrap();
        let id = socket
            .send(
                "analyse",
                json!({"game": "chess", "moves": ["e2e4"], "engine": "stockfish", "time_ms": 200}),
            )
            .await
            .unwrap();
        loop {
            let v = socket.recv().await.unwrap();
            if v["id"] == id.as_str() && v["t"] == "analysis" && v["d"]["done"] == true {
                break;
            }
        }
        let pid = child.0.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while child.0.try_wait().unwrap().is_none() {
            assert!(
                std::time::Instant::now() < deadline,
                "no exit after SIGTERM"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let parse = |path: &Path| -> Vec<Value> {
            let text = std::fs::read_to_string(path).unwrap();
            text.lines()
                .map(|l| {
                    serde_json::from_str(l)
                        .unwrap_or_else(|e| panic!("not JSON ({e}) in {}: {l}", path.display()))
                })
                .collect()
        };
        let stdout = parse(&out);
        assert_eq!(stdout.len(), 1, "{stdout:?}");
        assert_eq!(stdout[0]["address"], base.as_str(), "{stdout:?}");
        assert!(
            stdout[0]["message"]
                .as_str()
                .unwrap()
                .contains("serving on")
        );
        let stderr = parse(&err);
        assert!(
            stderr
                .iter()
                .any(|l| l["message"] == "qiyuan: shutting down"),
            "{stderr:?}"
        );
        let started: Vec<&Value> = stderr
            .iter()
            .filter(|l| l["message"] == "engine started")
            .collect();
        assert_eq!(started.len(), 1, "{stderr:?}");
        assert!(started[0]["pid"].is_u64(), "{:?}", started[0]);
        let text = std::fs::read_to_string(&err).unwrap();
        assert!(!text.contains("Some("), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    });
}
