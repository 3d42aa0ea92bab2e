//! Invitations to a table over real HTTP and sockets, on both stores: an
//! invitation reaches every page the invited person has open within a second
//! (and the inviter's), a decline carries its reason to the inviter, an
//! acceptance seats the invited person; a blocked person's invitation is
//! refused; an invite link seats exactly one person and then says by whom
//! its seat was taken; the table names its spectators. And presence across
//! two nodes: a followed person's sockets on another node are seen.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{self, Backend, Client, Ws, post};
use crate::nodes::Site;
use crate::people_notify::{account, notified, on, quiet};

/// A new chess table with `c` seated at seat 0; the table and `c`'s socket
/// there.
async fn table_of(c: &Client) -> (String, Ws) {
    let mut ws = c.ws().await;
    let table = ws
        .create(json!({"game": "chess", "time": common::blitz(), "seat": 0}))
        .await;
    ws.event("sat").await;
    (table, ws)
}

fn code(body: &Value) -> Value {
    body["error"]["code"].clone()
}

/// Who sits at each seat as a table view tells it.
fn seated(state: &Value) -> Vec<Value> {
    state["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["user"].clone())
        .collect()
}

async fn an_invitation_reaches_every_page_and_is_answered(backend: Backend) {
    let s = common::start(backend).await;
    let ann = s.register("ann").await;
    let bob = s.register("bob").await;
    let cat = s.register("cat").await;
    let dan = s.register("dan").await;
    let (table, mut at_table) = table_of(&ann).await;
    let mut a = ann.ws().await;
    let mut b1 = bob.ws().await;
    let mut b2 = bob.ws().await;
    let mut c = cat.ws().await;
    let mut d = dan.ws().await;

    let (status, inv) = post(&ann, "/api/invite/to/bob", json!({"table": table})).await;
    assert_eq!(status, 200, "{inv}");
    let id = inv["id"].as_str().unwrap().to_string();
    for ws in [&mut b1, &mut b2, &mut a] {
        let n = notified(ws, "invitation").await;
        assert_eq!(n["id"], id.as_str());
        assert_eq!(n["from"], "ann");
        assert_eq!(n["to"], "bob");
        assert_eq!(n["table"], table.as_str());
        assert_eq!(n["game"], "chess");
    }
    // A page that opens later reads it.
    let listed: Value = bob.get("/api/invite").await.json().await.unwrap();
    assert_eq!(listed[0]["id"], id.as_str(), "{listed}");

    // Cat is invited too, and declines with a reason Ann is told.
    let (status, inv_c) = post(&ann, "/api/invite/to/cat", json!({"table": table})).await;
    assert_eq!(status, 200, "{inv_c}");
    let id_c = inv_c["id"].as_str().unwrap().to_string();
    notified(&mut c, "invitation").await;
    let (status, body) = post(
        &cat,
        &format!("/api/invite/{id_c}/decline"),
        json!({"reason": "<script>"}),
    )
    .await;
    assert_eq!(
        (status, code(&body)),
        (400, json!("unknown_reason")),
        "{body}"
    );
    let (status, body) = post(
        &cat,
        &format!("/api/invite/{id_c}/decline"),
        json!({"reason": "later"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    for ws in [&mut a, &mut c] {
        let n = notified(ws, "invitation_declined").await;
        assert_eq!(n["id"], id_c.as_str());
        assert_eq!(n["to"], "cat");
        assert_eq!(n["reason"], "later");
    }
    // Nobody else answers Bob's invitation, nor anyone twice.
    let (status, _) = post(&cat, &format!("/api/invite/{id}/accept"), json!({})).await;
    assert_eq!(status, 404);
    let (status, body) = post(&cat, &format!("/api/invite/{id_c}/accept"), json!({})).await;
    assert_eq!((status, code(&body)), (409, json!("invitation_answered")));

    // Bob accepts: he sits at the free seat, and both are told.
    let (status, seat) = post(&bob, &format!("/api/invite/{id}/accept"), json!({})).await;
    assert_eq!(status, 200, "{seat}");
    assert_eq!(seat, json!({"table": table, "seat": 1}));
    for ws in [&mut a, &mut b1, &mut b2] {
        let n = notified(ws, "invitation_accepted").await;
        assert_eq!(n["id"], id.as_str());
        assert_eq!(n["table"], table.as_str());
    }
    at_table.event("sat").await;
    assert_eq!(seated(at_table.state()), [json!("ann"), json!("bob")]);
    let (status, body) = post(&bob, &format!("/api/invite/{id}/accept"), json!({})).await;
    assert_eq!((status, code(&body)), (409, json!("invitation_answered")));
    let listed: Value = bob.get("/api/invite").await.json().await.unwrap();
    assert_eq!(listed, json!([]));
    quiet(&mut d).await;
}

async fn what_cannot_be_invited(backend: Backend) {
    let s = common::start(backend).await;
    let ann = s.register("ann").await;
    let bob = s.register("bob").await;
    let cat = s.register("cat").await;
    let (table, _at_table) = table_of(&ann).await;
    let mut b = bob.ws().await;

    // Bob blocks Ann: her invitation is refused, and he hears nothing.
    let (status, _) = post(&bob, "/api/rel/block/ann", json!({})).await;
    assert_eq!(status, 200);
    let (status, body) = post(&ann, "/api/invite/to/bob", json!({"table": table})).await;
    assert_eq!((status, code(&body)), (403, json!("blocked")), "{body}");
    quiet(&mut b).await;
    // Nor can he take her link.
    let (status, link) = post(&ann, &format!("/api/table/{table}/invite-link"), json!({})).await;
    assert_eq!(status, 201, "{link}");
    let token = link["token"].as_str().unwrap();
    let (status, body) = post(&bob, &format!("/api/invite/link/{token}"), json!({})).await;
    assert_eq!((status, code(&body)), (403, json!("blocking")), "{body}");
    let (status, _) = post(&bob, "/api/rel/unblock/ann", json!({})).await;
    assert_eq!(status, 200);

    // Only a player at the table invites to it; nobody invites themself, a
    // guest, or to a table that is not there.
    let (status, body) = post(&cat, "/api/invite/to/bob", json!({"table": table})).await;
    assert_eq!(
        (status, code(&body)),
        (403, json!("not_at_table")),
        "{body}"
    );
    let (status, body) = post(&cat, &format!("/api/table/{table}/invite-link"), json!({})).await;
    assert_eq!(
        (status, code(&body)),
        (403, json!("not_at_table")),
        "{body}"
    );
    let (status, body) = post(&ann, "/api/invite/to/ann", json!({"table": table})).await;
    assert_eq!((status, code(&body)), (400, json!("self_invite")));
    let guest = s.guest().await;
    let (status, _) = post(
        &ann,
        &format!("/api/invite/to/{}", guest.name),
        json!({"table": table}),
    )
    .await;
    assert_eq!(status, 404);
    let (status, body) = post(&guest, "/api/invite/to/bob", json!({"table": table})).await;
    assert_eq!((status, code(&body)), (403, json!("guest_invite")));
    let (status, _) = post(&ann, "/api/invite/to/bob", json!({"table": "nothere"})).await;
    assert_eq!(status, 404);
    let (status, body) = post(&ann, "/api/invite/to/bob", json!({"tabel": table})).await;
    assert_eq!((status, code(&body)), (400, json!("bad_body")));

    // Nobody floods another's pages: 20 invitations and links a minute.
    // (Ann's five invitations and link above count too.)
    let mut made = 0;
    loop {
        let (status, body) =
            post(&ann, &format!("/api/table/{table}/invite-link"), json!({})).await;
        if status == 429 {
            assert_eq!(code(&body), "rate_limited");
            break;
        }
        assert_eq!(status, 201, "{body}");
        made += 1;
        assert!(made <= 20, "no limit");
    }
    assert_eq!(made, 15);
}

async fn an_invite_link_seats_exactly_one(backend: Backend) {
    let s = common::start(backend).await;
    let ann = s.register("ann").await;
    let bob = s.register("bob").await;
    let cat = s.register("cat").await;
    let (table, mut at_table) = table_of(&ann).await;
    let mut a = ann.ws().await;
    let (status, link) = post(&ann, &format!("/api/table/{table}/invite-link"), json!({})).await;
    assert_eq!(status, 201, "{link}");
    let token = link["token"].as_str().unwrap().to_string();
    assert!(token.len() >= 20, "a secret: {token}");
    assert_eq!(link["url"], format!("/#/join/{token}"));
    let offered: Value = bob
        .get(&format!("/api/invite/link/{token}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        offered,
        json!({"table": table, "game": "chess", "from": "ann", "open": true, "taken_by": null})
    );

    // Bob and Cat open it at once: one sits, the other is told who did.
    let path = format!("/api/invite/link/{token}");
    let (took_b, took_c) = tokio::join!(post(&bob, &path, json!({})), post(&cat, &path, json!({})));
    let (winner, loser) = match (took_b.0, took_c.0) {
        (200, 409) => (("bob", took_b.1), took_c.1),
        (409, 200) => (("cat", took_c.1), took_b.1),
        other => panic!("one seat for two: {other:?} {took_b:?} {took_c:?}"),
    };
    assert_eq!(winner.1, json!({"table": table, "seat": 1}));
    assert_eq!(code(&loser), "invite_taken");
    assert!(
        loser["error"]["message"]
            .as_str()
            .unwrap()
            .contains(winner.0),
        "{loser}"
    );
    let n = notified(&mut a, "invitation_accepted").await;
    assert_eq!(n["to"], winner.0);
    at_table.event("sat").await;
    assert_eq!(seated(at_table.state()), [json!("ann"), json!(winner.0)]);
    let after: Value = bob.get(&path).await.json().await.unwrap();
    assert_eq!(
        (after["open"].clone(), after["taken_by"].clone()),
        (json!(false), json!(winner.0))
    );
    // Again, by anyone: taken.
    let (status, body) = post(&bob, &path, json!({})).await;
    assert_eq!((status, code(&body)), (409, json!("invite_taken")));
    let (status, _) = post(&bob, "/api/invite/link/notalink", json!({})).await;
    assert_eq!(status, 404);
}

/// The table's view names who watches it: accounts and guests alike (the
/// client counts the guests).
async fn spectators_are_named(backend: Backend) {
    let s = common::start(backend).await;
    let ann = s.register("ann").await;
    let bob = s.register("bob").await;
    let guest = s.guest().await;
    let (table, mut at_table) = table_of(&ann).await;
    let mut wb = bob.ws().await;
    wb.send("watch", json!({"table": table})).await;
    wb.expect("sync").await;
    let mut wg = guest.ws().await;
    wg.send("watch", json!({"table": table})).await;
    let sync = wg.expect("sync").await;
    let mut names: Vec<String> = sync["d"]["state"]["spectators"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    names.sort();
    let mut want = vec!["bob".to_string(), guest.name.clone()];
    want.sort();
    assert_eq!(names, want);
    // The player's view follows: Bob leaves, the list says so.
    wb.close().await;
    loop {
        at_table.recv().await;
        let now = at_table.state()["spectators"].clone();
        if now == json!([guest.name.clone()]) {
            break;
        }
    }
}

/// A table for the invited (`invite_only`) is listed nowhere, and nobody
/// without an invitation watches it, sits there or reads its chat; the link
/// seats its taker, who then plays there like anyone; a restart keeps it so.
async fn a_table_for_the_invited_stays_private(backend: Backend) {
    let mut s = common::start(backend).await;
    let ann = s.register("ann").await;
    let bob = s.register("bob").await;
    let eve = s.register("eve").await;
    let mut wa = ann.ws().await;
    let table = wa
        .create(json!({"game": "chess", "time": common::blitz(), "seat": 0, "invite_only": true}))
        .await;
    wa.event("sat").await;
    let lobby: Value = eve.get("/api/lobby/chess").await.json().await.unwrap();
    assert!(
        !lobby.to_string().contains(&table),
        "listed nowhere: {lobby}"
    );
    let mut we = eve.ws().await;
    let r = we.act("watch", json!({"table": table})).await;
    assert_eq!(r["d"]["code"], "invite_only", "{r}");
    let r = we.act("sit", json!({"table": table, "seat": 1})).await;
    assert_eq!(r["d"]["code"], "invite_only", "{r}");
    let r = we.act("chat", json!({"table": table, "text": "hi"})).await;
    assert_eq!(r["t"], "error", "no chat for the uninvited: {r}");
    // Ann's line in the players' room reaches nobody outside.
    wa.ok("chat", json!({"table": table, "text": "only us"}))
        .await;

    // Bob takes the link's seat, then watches and plays as anyone would.
    let (status, link) = post(&ann, &format!("/api/table/{table}/invite-link"), json!({})).await;
    assert_eq!(status, 201, "{link}");
    let token = link["token"].as_str().unwrap();
    let (status, seat) = post(&bob, &format!("/api/invite/link/{token}"), json!({})).await;
    assert_eq!(status, 200, "{seat}");
    let mut wb = bob.ws().await;
    wb.send("watch", json!({"table": table})).await;
    wb.expect("sync").await;
    wb.ok("chat", json!({"table": table, "text": "hello ann"}))
        .await;
    let heard = wa.expect("chat").await;
    assert_eq!(heard["d"]["text"], "hello ann");
    // Eve has heard nothing of it.
    let nothing = tokio::time::timeout(Duration::from_millis(300), we.expect("chat")).await;
    assert!(nothing.is_err(), "{nothing:?}");

    // Its game is read by id by its people alone.
    let r = eve.get(&format!("/api/game/{table}")).await;
    assert_eq!(r.status(), 403);
    let body: Value = r.json().await.unwrap();
    assert_eq!(code(&body), "invite_only");
    assert_eq!(ann.get(&format!("/api/game/{table}")).await.status(), 200);

    // After a restart the table is still for the invited.
    s.restart().await;
    let eve = common::login(&s, "eve").await;
    let mut we = eve.ws().await;
    let r = we.act("watch", json!({"table": table})).await;
    assert_eq!(r["d"]["code"], "invite_only", "{r}");
    let bob = common::login(&s, "bob").await;
    let mut wb = bob.ws().await;
    wb.send("watch", json!({"table": table})).await;
    wb.expect("sync").await;
}

both!(
    an_invitation_reaches_every_page_and_is_answered,
    what_cannot_be_invited,
    an_invite_link_seats_exactly_one,
    spectators_are_named,
    a_table_for_the_invited_stays_private
);

/// The next `rel.presence` about `name` on `ws`, within a second.
async fn presence_pushed(ws: &mut Ws, name: &str) -> Value {
    let wait = async {
        loop {
            let m = ws.expect("rel.presence").await;
            if m["d"]["username"] == name {
                return m["d"]["presence"].clone();
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(1), wait)
        .await
        .unwrap_or_else(|_| panic!("no presence of {name} within a second"))
}

/// `name`'s presence in `c`'s following list.
async fn presence_listed(c: &Client, name: &str) -> Value {
    let body: Value = c.get("/api/rel/following").await.json().await.unwrap();
    body["following"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["username"] == name)
        .unwrap_or_else(|| panic!("{} does not follow {name}: {body}", c.name))["presence"]
        .clone()
}

/// Ann's page is on node A; Bob's sockets are on node B: Ann is told when he
/// comes online, watches a table, plays at one (owned by A) and goes, and
/// her list on A says so; an invitation made on A reaches Bob's page on B.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_and_invitations_across_two_nodes() {
    let site = Site::new("presence");
    let a = site.node("a").await;
    let b = site.node("b").await;
    let ann = account(&a.base, "ann").await;
    let bob = account(&a.base, "bob").await;
    let cat = account(&a.base, "cat").await;
    let bob_b = on(&bob, &b.base);
    for (who, whom) in [(&ann, "bob"), (&bob, "ann")] {
        let (status, _) = post(who, &format!("/api/rel/follow/{whom}"), json!({})).await;
        assert_eq!(status, 200);
    }
    let mut wa = ann.ws().await;
    assert_eq!(
        presence_listed(&ann, "bob").await,
        json!({"state": "offline"})
    );

    let mut wb = bob_b.ws().await;
    assert_eq!(
        presence_pushed(&mut wa, "bob").await,
        json!({"state": "online"})
    );
    assert_eq!(
        presence_listed(&ann, "bob").await,
        json!({"state": "online"})
    );

    // Cat's table is on node A; Bob watches it from B.
    let (table, mut wc) = table_of(&cat).await;
    wb.send("watch", json!({"table": table})).await;
    wb.expect("sync").await;
    let watching = json!({"state": "watching", "table": table});
    assert_eq!(presence_pushed(&mut wa, "bob").await, watching);
    assert_eq!(presence_listed(&ann, "bob").await, watching);

    // Cat invites Bob from A: his page on B is told; he accepts there and
    // sits; once the game starts he is playing.
    let (status, inv) = post(&cat, "/api/invite/to/bob", json!({"table": table})).await;
    assert_eq!(status, 200, "{inv}");
    let n = notified(&mut wb, "invitation").await;
    let id = n["id"].as_str().unwrap().to_string();
    let (status, seat) = post(&bob_b, &format!("/api/invite/{id}/accept"), json!({})).await;
    assert_eq!(status, 200, "{seat}");
    wb.ok("ready", json!({"table": table})).await;
    wc.ok("ready", json!({"table": table})).await;
    let playing = json!({"state": "playing", "table": table});
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    loop {
        let p = presence_pushed(&mut wa, "bob").await;
        if p == playing {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never playing: {p}");
    }
    assert_eq!(presence_listed(&ann, "bob").await, playing);
    let _ = wc.act("resign", json!({"table": table})).await;
    let _ = seat;
    wb.close().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
    loop {
        let p = presence_pushed(&mut wa, "bob").await;
        if p == json!({"state": "offline"}) {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never offline: {p}");
    }
    assert_eq!(
        presence_listed(&ann, "bob").await,
        json!({"state": "offline"})
    );
    a.stop().await;
    b.stop().await;
}
