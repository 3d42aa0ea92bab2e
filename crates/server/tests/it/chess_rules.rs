//! The chess repetition option through the real protocol: tables draw a threefold
//! repetition at once by default; `{"repetition": "claim"}` (FIDE) leaves it to a
//! claim; a misspelt option is refused when the table is created.

use serde_json::{Value, json};

use crate::common::*;

/// A table of chess with `options`, alice (white) and bobby seated and ready.
async fn started(a: &Client, b: &Client, options: Value) -> (String, Ws, Ws) {
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let table = wa
        .create(json!({"game": "chess", "seat": 0, "options": options,
            "time": {"kind": "fischer", "base": 300_000, "increment": 0}}))
        .await;
    wa.event("sat").await;
    wb.send("watch", json!({"table": table})).await;
    wb.expect("sync").await;
    wb.ok("sit", json!({"table": table, "seat": 1})).await;
    wa.ok("ready", json!({"table": table})).await;
    wb.ok("ready", json!({"table": table})).await;
    wa.event("started").await;
    (table, wa, wb)
}

/// The knights go out and back twice: the start position stands a third time.
async fn repeat(table: &str, wa: &mut Ws, wb: &mut Ws) {
    for (i, m) in ["g1f3", "g8f6", "f3g1", "f6g8"]
        .repeat(2)
        .iter()
        .enumerate()
    {
        let w = if i % 2 == 0 { &mut *wa } else { &mut *wb };
        w.ok("move", json!({"table": table, "action": m})).await;
    }
}

fn ended(v: &Value) -> Option<&Value> {
    v["d"]["events"]
        .as_array()?
        .iter()
        .find(|e| e["type"] == "ended")
}

async fn chess_repetition_option(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("alice").await;
    let b = server.register("bobby").await;

    let mut w = a.ws().await;
    let r = w
        .act(
            "create",
            json!({"game": "chess", "options": {"repetition": "sometimes"}}),
        )
        .await;
    assert_eq!(r["t"], "error", "{r}");
    assert_eq!(r["d"]["code"], "bad_settings", "{r}");

    // The default: drawn by the move that repeats, with no claim.
    let (table, mut wa, mut wb) = started(&a, &b, json!({})).await;
    repeat(&table, &mut wa, &mut wb).await;
    let end = wa.event("ended").await;
    let outcome = &ended(&end).expect("ended")["outcome"];
    assert_eq!(outcome["reason"], "threefold_repetition", "{end}");
    assert_eq!(outcome["results"], json!(["draw", "draw"]));

    // FIDE's rule, chosen at the table: play goes on until white claims.
    let (table, mut wa, mut wb) = started(&a, &b, json!({"repetition": "claim"})).await;
    repeat(&table, &mut wa, &mut wb).await;
    // The claim is accepted: the game was still being played.
    let r = wa
        .ok(
            "claim",
            json!({"table": table, "claim": "threefold_repetition"}),
        )
        .await;
    assert_eq!(r["t"], "ack");
    // The end may come before the acknowledgement or after it.
    if events_of(&wa.seen, "ended").is_empty() {
        wa.event("ended").await;
    }
    let end = events_of(&wa.seen, "ended");
    assert_eq!(end.len(), 1);
    assert_eq!(end[0]["outcome"]["reason"], "threefold_repetition");
}

both!(chess_repetition_option);
