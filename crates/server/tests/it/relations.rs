//! Relations over real HTTP and sockets, on both stores: follow and unfollow,
//! friends (mutual follows), blocks (which refuse a follow and a challenge),
//! and the presence of the people one follows — offline, online once a socket
//! is open, playing when seated in a started game, watching a table.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{self, Backend, Client, post};

async fn get(c: &Client, path: &str) -> (u16, Value) {
    let r = c.get(path).await;
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// The caller's view of `name` after a relation command.
async fn rel(c: &Client, what: &str, name: &str) -> Value {
    let (status, body) = post(c, &format!("/api/rel/{what}/{name}"), json!({})).await;
    assert_eq!(status, 200, "{} {what} {name}: {body}", c.name);
    body
}

/// The names `c` follows, each with whether they are a friend.
async fn following(c: &Client) -> Vec<(String, bool)> {
    let (status, body) = get(c, "/api/rel/following").await;
    assert_eq!(status, 200, "{body}");
    body["following"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["username"].as_str().unwrap().to_string(),
                p["friend"].as_bool().unwrap(),
            )
        })
        .collect()
}

async fn follow_unfollow_and_friends(backend: Backend) {
    let server = common::start(backend).await;
    let ann = server.register("ann").await;
    let bob = server.register("bob").await;
    let cat = server.register("cat").await;
    assert_eq!(following(&ann).await, []);

    let v = rel(&ann, "follow", "bob").await;
    assert_eq!(
        v,
        json!({"following": true, "followed_by": false, "friend": false, "blocking": false, "blocked_by": false})
    );
    rel(&ann, "follow", "cat").await;
    assert_eq!(
        following(&ann).await,
        [("bob".into(), false), ("cat".into(), false)]
    );
    let (_, v) = get(&bob, "/api/rel/with/ann").await;
    assert_eq!(
        (v["following"].clone(), v["followed_by"].clone()),
        (json!(false), json!(true))
    );

    // Bob follows back (by his name's other case): friends.
    let v = rel(&bob, "follow", "ANN").await;
    assert_eq!(v["friend"], true, "{v}");
    assert_eq!(
        following(&ann).await,
        [("bob".into(), true), ("cat".into(), false)]
    );
    assert_eq!(following(&bob).await, [("ann".into(), true)]);

    // Unfollowing ends the friendship, on both sides' lists.
    let v = rel(&bob, "unfollow", "ann").await;
    assert_eq!(
        (v["following"].clone(), v["friend"].clone()),
        (json!(false), json!(false))
    );
    assert_eq!(following(&bob).await, []);
    assert_eq!(
        following(&ann).await,
        [("bob".into(), false), ("cat".into(), false)]
    );
    rel(&ann, "unfollow", "cat").await;
    assert_eq!(following(&ann).await, [("bob".into(), false)]);
    let _ = cat;

    // What cannot be done.
    let (status, body) = post(&ann, "/api/rel/follow/ann", json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (400, json!("self_relation"))
    );
    let (status, _) = post(&ann, "/api/rel/follow/nobody_here", json!({})).await;
    assert_eq!(status, 404);
    let guest = server.guest().await;
    let (status, body) = post(&guest, "/api/rel/follow/ann", json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (403, json!("guest_relations"))
    );
    let (status, _) = post(&ann, &format!("/api/rel/follow/{}", guest.name), json!({})).await;
    assert_eq!(status, 404, "nobody follows a guest");
    let anonymous = reqwest::Client::new()
        .get(format!("{}/api/rel/following", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
}

/// `POST /api/challenge/{name}` as `c` (a five-minute casual game): the status.
async fn challenge(c: &Client, name: &str) -> (u16, Value) {
    let r = c
        .http
        .post(format!("{}/api/challenge/{name}", c.base))
        .bearer_auth(&c.token)
        .form(&[("clock.limit", "300"), ("clock.increment", "0")])
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn a_block_refuses_follows_and_challenges(backend: Backend) {
    let server = common::start(backend).await;
    let ann = server.register("ann").await;
    let bob = server.register("bob").await;
    rel(&ann, "follow", "bob").await;
    rel(&bob, "follow", "ann").await;

    // Ann blocks Bob: the follows end both ways.
    let v = rel(&ann, "block", "bob").await;
    assert_eq!(
        v,
        json!({"following": false, "followed_by": false, "friend": false, "blocking": true, "blocked_by": false})
    );
    assert_eq!(following(&ann).await, []);
    assert_eq!(following(&bob).await, []);
    let (_, v) = get(&bob, "/api/rel/with/ann").await;
    assert_eq!(v["blocked_by"], true, "{v}");
    let (_, list) = get(&ann, "/api/rel/following").await;
    assert_eq!(list["blocked"], json!(["bob"]));

    // Bob can neither follow her again nor challenge her; she can challenge him.
    let (status, body) = post(&bob, "/api/rel/follow/ann", json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (403, json!("blocked")),
        "{body}"
    );
    assert_eq!(following(&bob).await, []);
    let (status, body) = challenge(&bob, "ann").await;
    assert_eq!(status, 403, "a blocked person's challenge: {body}");
    let (status, body) = challenge(&ann, "bob").await;
    assert_eq!(status, 200, "the blocker may challenge: {body}");

    // Unblocked, both work again.
    let v = rel(&ann, "unblock", "bob").await;
    assert_eq!(v["blocking"], false);
    let (status, body) = challenge(&bob, "ann").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(rel(&bob, "follow", "ann").await["following"], true);
}

/// `name`'s presence in `c`'s following list.
async fn presence(c: &Client, name: &str) -> Value {
    let (status, body) = get(c, "/api/rel/following").await;
    assert_eq!(status, 200, "{body}");
    body["following"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["username"] == name)
        .unwrap_or_else(|| panic!("{} does not follow {name}: {body}", c.name))["presence"]
        .clone()
}

/// Waits (at most 5 s) until `name`'s presence as `c` reads it is `want`.
async fn presence_becomes(c: &Client, name: &str, want: Value) {
    let mut seen = Value::Null;
    for _ in 0..100 {
        seen = presence(c, name).await;
        if seen == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{name}'s presence stayed {seen}, not {want}");
}

async fn presence_of_the_people_one_follows(backend: Backend) {
    let server = common::start(backend).await;
    let ann = server.register("ann").await;
    let bob = server.register("bob").await;
    let cat = server.register("cat").await;
    let dan = server.register("dan").await;
    rel(&ann, "follow", "bob").await;
    rel(&ann, "follow", "dan").await;
    assert_eq!(presence(&ann, "bob").await, json!({"state": "offline"}));

    // Online once a socket is open.
    let ws = bob.ws().await;
    assert_eq!(presence(&ann, "bob").await, json!({"state": "online"}));
    ws.close().await;
    presence_becomes(&ann, "bob", json!({"state": "offline"})).await;

    // Playing once seated in a started game; Dan, watching it, is watching.
    let (table, wb, _wc) =
        common::table_with_game(&server, &bob, &cat, "chess", common::blitz()).await;
    assert_eq!(
        presence(&ann, "bob").await,
        json!({"state": "playing", "table": table})
    );
    assert_eq!(presence(&ann, "dan").await, json!({"state": "offline"}));
    let mut wd = dan.ws().await;
    assert_eq!(presence(&ann, "dan").await, json!({"state": "online"}));
    wd.send("watch", json!({"table": table})).await;
    wd.expect("sync").await;
    assert_eq!(
        presence(&ann, "dan").await,
        json!({"state": "watching", "table": table})
    );
    let r = wd.act("unwatch", json!({"table": table})).await;
    assert_eq!(r["t"], "ack", "{r}");
    assert_eq!(presence(&ann, "dan").await, json!({"state": "online"}));

    // A player is still playing while his socket is away (his seat waits).
    wb.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        presence(&ann, "bob").await,
        json!({"state": "playing", "table": table})
    );
}

/// The next `rel.presence` on `ws` (other messages skipped), within 10 s.
async fn pushed(ws: &mut common::Ws) -> Value {
    ws.expect("rel.presence").await["d"].clone()
}

async fn presence_is_pushed_to_followers(backend: Backend) {
    let server = common::start(backend).await;
    let ann = server.register("ann").await;
    let bob = server.register("bob").await;
    let cat = server.register("cat").await;
    rel(&ann, "follow", "bob").await;
    let mut wa = ann.ws().await;

    let wb = bob.ws().await;
    assert_eq!(
        pushed(&mut wa).await,
        json!({"username": "bob", "presence": {"state": "online"}})
    );
    wb.close().await;
    assert_eq!(
        pushed(&mut wa).await,
        json!({"username": "bob", "presence": {"state": "offline"}})
    );

    // Bob sits down and his game starts: playing. Cat, whom nobody follows,
    // is told to nobody: Ann hears of Bob alone.
    let (table, _wb, _wc) =
        common::table_with_game(&server, &bob, &cat, "chess", common::blitz()).await;
    let mut last = pushed(&mut wa).await;
    while last["presence"]["state"] != "playing" {
        assert_eq!(last["username"], "bob", "{last}");
        last = pushed(&mut wa).await;
    }
    assert_eq!(
        last,
        json!({"username": "bob", "presence": {"state": "playing", "table": table}})
    );
    assert!(
        wa.seen
            .iter()
            .filter(|m| m["t"] == "rel.presence")
            .all(|m| m["d"]["username"] == "bob"),
        "only the people Ann follows: {:?}",
        wa.seen
    );
}

crate::both!(
    follow_unfollow_and_friends,
    a_block_refuses_follows_and_challenges,
    presence_of_the_people_one_follows,
    presence_is_pushed_to_followers,
);
