//! Events carry patches, not whole views: a client that applies every `event`'s
//! patch to the view of its `sync` holds, at every moment, exactly the view a
//! fresh `sync` gives — for every game, from every seat and as a spectator.
//! (The patches are applied by the test client in `common`, written from
//! docs/protocol.md.) Also: the bytes an event costs do not grow with the game.

use serde_json::{Value, json};

use crate::common::*;

/// A view without what depends on the moment it was taken: `at`, the clock's
/// `at`, the time left of the seat whose clock runs, and each seat's measured
/// `lag_ms` (a running estimate the server updates between versions and sends
/// as `lag` messages, not as patches).
fn timeless(view: &Value) -> Value {
    let mut v = view.clone();
    v["at"] = Value::Null;
    if let Some(seats) = v["seats"].as_array_mut() {
        for seat in seats.iter_mut().filter(|s| s.is_object()) {
            seat["lag_ms"] = Value::Null;
        }
    }
    if let Some(clock) = v["game"].get_mut("clock") {
        clock["at"] = Value::Null;
        if let Some(running) = clock["running"].as_u64() {
            clock["seats"][running as usize] = Value::Null;
        }
    }
    v
}

/// Each socket's patched view equals a fresh `sync` of the same user now; at the
/// end of a game (no clock runs) even to the millisecond but for `at`.
async fn check_views(
    server: &TestServer,
    clients: &[&Client],
    sockets: &mut [Ws],
    t: &str,
    v: u64,
) {
    for (client, ws) in clients.iter().zip(sockets.iter_mut()) {
        ws.catch_up(v).await;
        let mut fresh = client.ws().await;
        fresh.send("watch", json!({"table": t})).await;
        let sync = fresh.expect("sync").await;
        let synced = &sync["d"]["state"];
        let held = ws.views.tables.get(t).expect("a view").clone();
        assert_eq!(
            synced["version"], held["version"],
            "{}: the same version",
            client.name
        );
        assert_eq!(
            timeless(&held),
            timeless(synced),
            "{}: the patched view is the synced one",
            client.name
        );
        if synced["game"]["clock"]["running"].is_null() {
            let mut a = held.clone();
            let mut b = synced.clone();
            for x in [&mut a, &mut b] {
                x["at"] = Value::Null;
                if let Some(seats) = x["seats"].as_array_mut() {
                    for seat in seats.iter_mut().filter(|s| s.is_object()) {
                        seat["lag_ms"] = Value::Null;
                    }
                }
                if x["game"].is_object() {
                    x["game"]["clock"]["at"] = Value::Null;
                }
            }
            assert_eq!(a, b, "{}: with no clock running, every field", client.name);
        }
        fresh.close().await;
        let _ = server;
    }
}

/// Every event message received, as it came on the wire (without the state the
/// test client adds).
fn wire_events(ws: &Ws) -> Vec<Value> {
    ws.seen
        .iter()
        .filter(|m| m["t"] == "event")
        .map(|m| {
            let mut m = m.clone();
            m["d"].as_object_mut().unwrap().remove("state");
            m
        })
        .collect()
}

/// Two players and a spectator at a two-seat game: each of `moves` (by seat, in
/// turn), checked after every move; then `ending` by the seat given.
async fn two_seats(
    backend: Backend,
    game: &str,
    board: &str,
    options: Value,
    moves: &[&str],
    ending: &[(usize, &str, Value)],
) {
    let server = start(backend).await;
    let a = server.register("alice").await;
    let b = server.register("bobby").await;
    let c = server.register("carol").await;
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let mut wc = c.ws().await;
    // Alice's socket is subscribed by `create` and never syncs: its first event
    // sets the whole view.
    let t = wa
        .create(json!({"game": game, "seat": 0, "options": options,
            "time": {"kind": "fischer", "base": 600000, "increment": 0}}))
        .await;
    wa.event("sat").await;
    for w in [&mut wb, &mut wc] {
        w.send("watch", json!({"table": t})).await;
        w.expect("sync").await;
    }
    wb.ok("sit", json!({"table": t, "seat": 1})).await;
    wa.ok("ready", json!({"table": t})).await;
    let mut v = wb.ok("ready", json!({"table": t})).await["d"]["v"]
        .as_u64()
        .unwrap();
    let clients = [&a, &b, &c];
    let mut sockets = [wa, wb, wc];
    check_views(&server, &clients, &mut sockets, &t, v).await;
    for (ply, action) in moves.iter().enumerate() {
        let r = sockets[ply % 2]
            .ok("move", json!({"table": t, "action": action}))
            .await;
        v = r["d"]["v"].as_u64().unwrap();
        check_views(&server, &clients, &mut sockets, &t, v).await;
    }
    for (seat, cmd, extra) in ending {
        let mut d = json!({"table": t});
        if let Some(extra) = extra.as_object() {
            d.as_object_mut().unwrap().extend(extra.clone());
        }
        v = sockets[*seat].ok(cmd, d).await["d"]["v"].as_u64().unwrap();
        check_views(&server, &clients, &mut sockets, &t, v).await;
    }
    assert_eq!(sockets[2].views.tables[&t]["status"], "over");
    // The view's fields are the generated types' (the web client reads no other).
    check_declared(&sockets[0].views.tables[&t], board);

    // On the wire: events hold patches, never the view; and the patch of a move
    // does not carry the moves before it.
    let events = wire_events(&sockets[2]);
    assert!(events.len() > moves.len(), "{}", events.len());
    let first_moves = moves.first().map(|m| m.to_string()).unwrap();
    let generated = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../web/src/net/generated/protocol.ts"),
    )
    .unwrap();
    for e in &events {
        assert!(e["d"]["patch"].is_array(), "{e}");
        // Every event's type is one the generated `Event` union declares.
        for ev in e["d"]["events"].as_array().unwrap() {
            let ty = ev["type"].as_str().unwrap();
            assert!(
                generated.contains(&format!("{{ \"type\": \"{ty}\", ")),
                "event type {ty} is not in the generated Event union"
            );
        }
        let acted = e["d"]["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["type"] == "acted");
        if let Some(acted) = acted
            && acted["ply"].as_u64() > Some(1)
        {
            let text = e["d"]["patch"].to_string();
            assert!(
                !text.contains(&format!("\"action\":\"{first_moves}\"")),
                "a later move's patch repeats the first move: {text}"
            );
        }
    }
}

async fn chess_views(backend: Backend) {
    two_seats(
        backend,
        "chess",
        "ChessView",
        json!({}),
        &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"],
        &[
            // A takeback shortens the move lists (a `trunc` or a `set`).
            (0, "takeback.request", json!(null)),
            (1, "takeback.accept", json!(null)),
            (0, "resign", json!(null)),
        ],
    )
    .await;
}

async fn xiangqi_views(backend: Backend) {
    two_seats(
        backend,
        "xiangqi",
        "XiangqiView",
        json!({}),
        &["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"],
        &[(1, "resign", json!(null))],
    )
    .await;
}

async fn go_views(backend: Backend) {
    two_seats(
        backend,
        "go",
        "GoView",
        json!({"size": 9, "komi": 7.5}),
        &["E5", "C3", "G7", "D4", "pass", "pass"],
        // The marking: both accept the count, and the game ends counted.
        &[
            (0, "move", json!({"action": "accept"})),
            (1, "move", json!({"action": "accept"})),
        ],
    )
    .await;
}

/// Three seats and a spectator: a whole Doudizhu hand, checked after every action.
async fn doudizhu_views(backend: Backend) {
    let server = start(backend).await;
    let mut clients = Vec::new();
    for name in ["zhang", "wangw", "lilei", "zhaoz"] {
        clients.push(server.register(name).await);
    }
    let mut sockets = Vec::new();
    for c in &clients {
        sockets.push(c.ws().await);
    }
    let t = sockets[0]
        .create(json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}))
        .await;
    sockets[0].event("sat").await;
    for (i, w) in sockets.iter_mut().enumerate().skip(1) {
        w.send("watch", json!({"table": t})).await;
        w.expect("sync").await;
        if i < 3 {
            w.ok("sit", json!({"table": t, "seat": i})).await;
        }
    }
    let mut v = 0;
    for w in sockets.iter_mut().take(3) {
        v = w.ok("ready", json!({"table": t})).await["d"]["v"]
            .as_u64()
            .unwrap();
    }
    let refs: Vec<&Client> = clients.iter().collect();
    check_views(&server, &refs, &mut sockets, &t, v).await;
    let mut turns = 0;
    loop {
        let spectator = sockets[3].views.tables[&t].clone();
        if spectator["status"] == "over" {
            break;
        }
        assert!(turns < 300, "the hand never ended");
        turns += 1;
        let seat = spectator["game"]["board"]["to_act"]
            .as_u64()
            .expect("to act") as usize;
        let own = sockets[seat].views.tables[&t]["game"]["board"].clone();
        let legal: Vec<String> = own["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        let action = if own["phase"] == "bidding" {
            legal
                .iter()
                .find(|a| a.starts_with("bid"))
                .unwrap_or(&legal[0])
                .clone()
        } else {
            legal[0].clone()
        };
        v = sockets[seat]
            .ok("move", json!({"table": t, "action": action}))
            .await["d"]["v"]
            .as_u64()
            .unwrap();
        check_views(&server, &refs, &mut sockets, &t, v).await;
    }
    assert!(turns > 3, "a whole hand ({turns} turns)");
    for w in &sockets {
        check_declared(&w.views.tables[&t], "DoudizhuView");
    }
    // Seats see their own hand, the spectator none, in the patched views as in
    // the synced ones (checked above); the next hand dealt starts from a patch too.
    for w in sockets.iter_mut().take(3) {
        w.ok("rematch", json!({"table": t})).await;
    }
    while sockets[0].views.tables[&t]["status"] != "playing" {
        sockets[0].recv().await;
    }
    let v = sockets[0].views.tables[&t]["version"].as_u64().unwrap();
    check_views(&server, &refs, &mut sockets, &t, v).await;
    for (seat, w) in sockets.iter().enumerate().take(3) {
        let board = &w.views.tables[&t]["game"]["board"];
        assert!(
            board["hand"].is_array(),
            "seat {seat} holds its hand: {board}"
        );
    }
    assert!(sockets[3].views.tables[&t]["game"]["board"]["hand"].is_null());
}

both!(chess_views, xiangqi_views, go_views, doudizhu_views);

/// The fields the generated TypeScript declares for `name` (`export type name
/// = { a: …, b?: … }`), as (field, optional).
fn declared(name: &str) -> Vec<(String, bool)> {
    let ts = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../web/src/net/generated/protocol.ts"),
    )
    .unwrap();
    let start = ts
        .find(&format!("export type {name}"))
        .unwrap_or_else(|| panic!("{name} is not in the generated types"));
    let body = &ts[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find("};").unwrap()];
    // Without doc comments, then every `name:` or `name?:` at depth 0.
    let mut text = String::new();
    let mut rest = body;
    while let Some(at) = rest.find("/**") {
        text.push_str(&rest[..at]);
        rest = &rest[at + rest[at..].find("*/").unwrap() + 2..];
    }
    text.push_str(rest);
    let (mut depth, mut word, mut fields) = (0i32, String::new(), Vec::new());
    for ch in text.chars() {
        match ch {
            '{' | '<' | '(' | '[' => depth += 1,
            '}' | '>' | ')' | ']' => depth -= 1,
            _ => {}
        }
        if depth == 0 && (ch.is_alphanumeric() || ch == '_') {
            word.push(ch);
        } else if depth == 0 && ch == ':' && !word.is_empty() {
            fields.push((word.trim_end_matches('?').to_string(), false));
            word.clear();
        } else if depth == 0 && ch == '?' && !word.is_empty() {
            word.push('?');
            fields.push((word.trim_end_matches('?').to_string(), true));
            word.clear();
        } else if !(ch.is_alphanumeric() || ch == '_') {
            word.clear();
        }
    }
    fields.dedup();
    fields
}

/// Every key of `value` is a field the generated type declares, and every
/// field it declares (but the optional ones) is there.
fn matches_declared(what: &str, value: &Value, name: &str) {
    let obj = value
        .as_object()
        .unwrap_or_else(|| panic!("{what}: no object: {value}"));
    let fields = declared(name);
    for key in obj.keys() {
        assert!(
            fields.iter().any(|(f, _)| f == key),
            "{what}: `{key}` is not declared in {name}: {fields:?}"
        );
    }
    for (f, optional) in &fields {
        assert!(
            *optional || obj.contains_key(f),
            "{what}: {name}.{f} missing: {value}"
        );
    }
}

/// A synced view's parts against the generated types of the table's view and
/// of the game's own view.
fn check_declared(view: &Value, board: &str) {
    matches_declared("the view", view, "TableView");
    matches_declared("a seat", &view["seats"][0], "SeatView");
    matches_declared("the proposal", &view["proposal"], "Proposal");
    matches_declared("settings", &view["proposal"]["settings"], "Settings");
    let game = &view["game"];
    matches_declared("the game", game, "GameView");
    matches_declared("the clock", &game["clock"], "ClockView");
    matches_declared(
        "a seat's clock",
        &game["clock"]["seats"][0],
        "SeatClockView",
    );
    if let Some(m) = game["moves"].as_array().and_then(|m| m.first()) {
        matches_declared("a move", m, "MoveView");
    }
    if game["outcome"].is_object() {
        matches_declared("the outcome", &game["outcome"], "Outcome");
    }
    matches_declared("the board", &game["board"], board);
}
