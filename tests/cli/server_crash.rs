//! The crash test: start the real `qiyuan serve`, play moves at several tables,
//! SIGKILL it, start it again on the same data: every acknowledged move is there,
//! the player to move is charged the time he had used before the crash (up to
//! the node's last heartbeat), the downtime is charged to no one, and the games
//! go on. On SQLite and on PostgreSQL (`QIYUAN_TEST_POSTGRES`, default
//! postgres://root@127.0.0.1:5432/test).
#![cfg(feature = "server")]

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use qiyuan_server::bench::{Client, KNIGHT_CYCLE, wait_ready};
use qiyuan_testkit::db::postgres_schema;
use qiyuan_testkit::net::free_port;
use qiyuan_testkit::process::serve_command;
use serde_json::{Value, json};

fn serve(port: u16, data: &std::path::Path, database: Option<&str>) -> Child {
    let mut cmd = serve_command(env!("CARGO_BIN_EXE_qiyuan"), port, data);
    if let Some(db) = database {
        cmd.args(["--database", db]);
    }
    cmd.spawn().expect("the qiyuan binary starts")
}

struct Game {
    table: String,
    players: [Client; 2],
    moves: Vec<&'static str>,
}

async fn state(c: &Client, table: &str) -> Value {
    c.get_json(&format!("/api/game/{table}")).await.unwrap()["state"].clone()
}

/// How long the player to move thinks before the crash.
const THINK: Duration = Duration::from_secs(3);
/// How long the server stays dead.
const DOWN: Duration = Duration::from_secs(3);

fn crash(database: Option<String>) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = std::env::temp_dir().join(format!(
            "qiyuan-crash-{}-{}",
            std::process::id(),
            free_port()
        ));
        let port = free_port();
        let base = format!("http://127.0.0.1:{port}");
        let mut server = serve(port, &dir, database.as_deref());
        wait_ready(&base, Duration::from_secs(30))
            .await
            .expect("the server is up");

        let mut games = Vec::new();
        for n in 0..3 {
            let a = Client::guest_at(&base).await.unwrap();
            let b = Client::guest_at(&base).await.unwrap();
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
            let mut moves = Vec::new();
            for (ply, action) in KNIGHT_CYCLE.iter().enumerate().take(3 + n) {
                let s = if ply % 2 == 0 { &mut sa } else { &mut sb };
                s.call("move", json!({"table": table, "action": action}))
                    .await
                    .unwrap();
                moves.push(*action);
            }
            games.push(Game {
                table,
                players: [a, b],
                moves,
            });
        }
        let before = state(&games[0].players[0], &games[0].table).await;
        let running = before["game"]["clock"]["running"].as_u64().unwrap() as usize;
        let main_before = before["game"]["clock"]["seats"][running]["main"]
            .as_u64()
            .unwrap();

        // The player to move thinks for 3 s; then the server dies.
        tokio::time::sleep(THINK).await;
        server.kill().expect("SIGKILL");
        server.wait().unwrap();
        tokio::time::sleep(DOWN).await;

        let mut server = serve(port, &dir, database.as_deref());
        wait_ready(&base, Duration::from_secs(30))
            .await
            .expect("the server is up again");
        for g in &games {
            let s = state(&g.players[0], &g.table).await;
            let moves: Vec<&str> = s["game"]["moves"]
                .as_array()
                .unwrap_or_else(|| panic!("table {} was rebuilt: {s}", g.table))
                .iter()
                .map(|m| m["action"].as_str().unwrap())
                .collect();
            assert_eq!(moves, g.moves, "every acknowledged move is there");
            assert_eq!(s["status"], "playing");
        }
        let after = state(&games[0].players[0], &games[0].table).await;
        let main_after = after["game"]["clock"]["seats"][running]["main"]
            .as_u64()
            .unwrap();
        // Charged: the thinking up to the last heartbeat (written every
        // second), and what ran since the restart until the read; never the
        // 3 s downtime.
        let charged = main_before.saturating_sub(main_after);
        let think = THINK.as_millis() as u64;
        eprintln!("charged {charged} ms of {think} ms used before the crash");
        assert!(
            charged + 2_000 >= think && charged <= think + 1_500,
            "the {think} ms used before the crash are charged, the {:?} downtime is not: \
             {main_before} ms before, {main_after} ms after",
            DOWN
        );
        // The games continue: the players come back and play on.
        for g in &games {
            let mut sockets = [
                g.players[0].connect().await.unwrap(),
                g.players[1].connect().await.unwrap(),
            ];
            for s in &mut sockets {
                s.send("watch", json!({"table": g.table})).await.unwrap();
                s.expect("sync").await.unwrap();
            }
            let ply = g.moves.len();
            sockets[ply % 2]
                .call(
                    "move",
                    json!({"table": g.table, "action": KNIGHT_CYCLE[ply]}),
                )
                .await
                .unwrap();
            let other = &mut sockets[(ply + 1) % 2];
            loop {
                let v = other.recv().await.unwrap();
                if v["t"] == "event" && v.to_string().contains(KNIGHT_CYCLE[ply]) {
                    break;
                }
            }
        }
        server.kill().unwrap();
        server.wait().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    });
}

#[test]
fn crash_and_restart_on_sqlite() {
    crash(None);
}

#[test]
fn crash_and_restart_on_postgres() {
    crash(Some(postgres_schema("crash")));
}

/// `qiyuan serve` reads a TOML file, the environment and flags (flags win), and
/// stops cleanly on SIGTERM.
#[test]
fn config_file_environment_flags_and_sigterm() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = std::env::temp_dir().join(format!(
            "qiyuan-config-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let from_file = free_port();
        let config = dir.join("qiyuan.toml");
        std::fs::write(
            &config,
            format!("listen = \"127.0.0.1:{from_file}\"\nsite = \"club\"\n"),
        )
        .unwrap();
        let data = dir.join("data-from-env");
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args(["serve", "--config"])
            .arg(&config)
            .env("QIYUAN_DATA", &data)
            .env("QIYUAN_LOG", "warn")
            .env_remove("QIYUAN_DATABASE")
            .env_remove("QIYUAN_LISTEN")
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{from_file}");
        wait_ready(&base, Duration::from_secs(30))
            .await
            .expect("listening where the file says");
        assert!(
            data.join("qiyuan.db").exists(),
            "the data folder from the environment"
        );
        let status = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let code = child.wait().unwrap();
        assert!(code.success(), "a clean exit on SIGTERM: {code:?}");

        // A flag overrides the file.
        let from_flag = free_port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args(["serve", "--config"])
            .arg(&config)
            .args(["--listen", &format!("127.0.0.1:{from_flag}")])
            .arg("--data")
            .arg(&data)
            .env("QIYUAN_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        wait_ready(
            &format!("http://127.0.0.1:{from_flag}"),
            Duration::from_secs(30),
        )
        .await
        .expect("listening where the flag says");
        child.kill().unwrap();
        child.wait().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    });
}
