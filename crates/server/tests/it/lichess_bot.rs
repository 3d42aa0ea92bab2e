//! lichess-bot, unchanged (the copy in `../shared/vendor/lichess-bot` beside
//! the repository; its requirements in the venv `scripts/test.sh` makes),
//! configured only, with `qiyuan engine` as its UCI engine: it comes online,
//! accepts a person's challenge and plays it to the end, then another bot's,
//! and writes each game's record from our export. Its slot (`concurrency: 1`)
//! is booked under the challenge's id, so the second game proves the first
//! one's game had the challenge's id.

use serde_json::{Value, json};

use crate::api::token;
use crate::common::{self, Backend};

const DRIVER: &str = include_str!("lichess_tools/lichess_bot.py");

/// The vendored lichess-bot, which must be there.
fn lichess_bot() -> std::path::PathBuf {
    let dir = qiyuan_testkit::fs::workspace().join("../shared/vendor/lichess-bot");
    assert!(
        dir.join("lichess-bot.py").exists(),
        "lichess-bot is missing at {} (an unchanged copy of lichess-org/lichess-bot)",
        dir.display()
    );
    dir
}

/// The games lichess-bot finished: each side's end, in the driver's words.
fn finished(g: &Value) -> bool {
    let status = g["status"].as_str().unwrap_or("");
    [
        "mate",
        "resign",
        "stalemate",
        "draw",
        "outoftime",
        "timeout",
    ]
    .contains(&status)
}

async fn plays_two_challenges(backend: Backend) {
    let s = common::start_with(backend, |c| {
        c.api.keepalive_secs = 2.0;
        // Under a loaded CI machine the engine's first move (a new process)
        // can take long: no side's first move is timed out by the table.
        c.first_move_secs = Some(180.0);
    })
    .await;
    let bot_c = s.register("lbot").await;
    let bot = token(&bot_c, "bot:play challenge:read challenge:write").await;
    assert_eq!(
        bot.post("/api/bot/account/upgrade", &[]).await.status(),
        200
    );
    let rival_c = s.register("rival").await;
    let rival = token(&rival_c, "bot:play challenge:read challenge:write").await;
    assert_eq!(
        rival.post("/api/bot/account/upgrade", &[]).await.status(),
        200
    );
    let person = token(
        &s.register("ann").await,
        "board:play challenge:read challenge:write",
    )
    .await;
    let work = tempfile::tempdir().unwrap();
    let input = json!({
        "base": s.base, "bot": bot.token, "person": person.token, "rival": rival.token,
        "vendor": lichess_bot(), "work": work.path(),
        "qiyuan": qiyuan_testkit::process::qiyuan_bin(),
    })
    .to_string();
    let out = tokio::task::spawn_blocking(move || {
        qiyuan_testkit::run_python("lichess-bot's requirements and berserk", DRIVER, &input)
    })
    .await
    .unwrap()
    .unwrap_or_else(|e| panic!("the lichess-bot driver failed: {e}"));
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(r.get("error").is_none(), "{}\n{}", r["error"], r["log"]);
    eprintln!("lichess-bot played: {}", r["games"]);
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for g in games {
        let id = g["game"].as_str().unwrap();
        assert_eq!(g["challenge"], id, "the game has the challenge's id: {g}");
        assert_eq!(g["url"], format!("/{id}"), "{g}");
        assert!(finished(g), "played to the end: {g}");
        // lichess-bot wrote the game's record, read from /game/export/{id}.
        let pgn = r["records"][id]
            .as_str()
            .unwrap_or_else(|| panic!("no record of {id}: {}", r["log"]));
        assert!(pgn.contains("[White \""), "{pgn}");
        let first = g["moves"].as_str().unwrap().split_whitespace().count();
        assert!(first > 0, "{g}");
    }
    assert_eq!(games[0]["color"], "white");
    assert!(
        r["running"].as_bool().unwrap(),
        "lichess-bot was still running after two games:\n{}",
        r["log"]
    );
    assert_eq!(r["tracebacks"], 0, "{}", r["log"]);
}

both!(plays_two_challenges);
