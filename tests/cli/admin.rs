//! `qiyuan admin ...` and `qiyuan swiss export` on a real database (SQLite in a
//! fresh data folder): roles granted, listed and revoked, bans, unknown roles
//! and accounts refused, and an event's TRF exported as the server serves it.
#![cfg(all(feature = "server", feature = "swiss"))]

use qiyuan_testkit::fs::temp_dir;

use crate::util::qiyuan;

#[test]
fn roles_bans_and_an_event_export() {
    let dir = temp_dir("admin");
    let data = dir.to_str().unwrap().to_string();
    let url = dir.join("qiyuan.db").to_string_lossy().into_owned();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let store = runtime.block_on(qiyuan_store::open(&url)).unwrap();
    let alice = runtime
        .block_on(store.create_user(qiyuan_store::NewUser {
            username: "alice".into(),
            password_hash: None,
            guest: false,
            created_at: 0,
        }))
        .unwrap();
    runtime
        .block_on(store.create_session("h", alice.id, 0, i64::MAX))
        .unwrap();

    let (ok, out, err) = qiyuan(&["admin", "grant", "alice", "organiser", "--data", &data]);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "alice: organiser granted");
    assert!(qiyuan(&["admin", "grant", "alice", "arbiter", "--data", &data]).0);
    let (ok, out, _) = qiyuan(&["admin", "roles", "alice", "--data", &data]);
    assert!(ok);
    assert_eq!(out, "arbiter\norganiser\n");
    let (ok, _, err) = qiyuan(&["admin", "grant", "alice", "emperor", "--data", &data]);
    assert!(!ok);
    assert!(err.contains("unknown role"), "{err}");
    let (ok, _, err) = qiyuan(&["admin", "grant", "nobody", "arbiter", "--data", &data]);
    assert!(!ok);
    assert!(err.contains("no account"), "{err}");
    let (ok, out, _) = qiyuan(&["admin", "revoke", "alice", "arbiter", "--data", &data]);
    assert!(ok);
    assert_eq!(out.trim(), "alice: arbiter revoked");
    // A ban ends the account's sessions.
    assert!(qiyuan(&["admin", "ban", "alice", "--data", &data]).0);
    assert_eq!(
        runtime.block_on(store.roles(alice.id)).unwrap(),
        ["banned", "organiser"]
    );
    assert!(
        runtime
            .block_on(store.session_user("h", 1))
            .unwrap()
            .is_none()
    );
    assert!(qiyuan(&["admin", "unban", "alice", "--data", &data]).0);
    let (ok, _, err) = qiyuan(&["admin", "close-table", "nosuch", "--data", &data]);
    assert!(!ok);
    assert!(err.contains("no table"), "{err}");

    // An event in the store: its TRF, exported.
    let config = serde_json::json!({
        "name": "Export test", "game": "chess",
        "time": {"kind": "fischer", "base": 60000, "increment": 0},
        "rounds": 3, "starts_at": 0,
    });
    runtime
        .block_on(store.create_event(&qiyuan_store::EventRow {
            id: "ev1".into(),
            organiser: alice.id,
            game: "chess".into(),
            config: config.to_string(),
            status: "registering".into(),
            created_at: 0,
            updated_at: 0,
            end_reason: None,
        }))
        .unwrap();
    runtime
        .block_on(store.add_event_player("ev1", alice.id, Some(1700), 1, 0))
        .unwrap();
    let (ok, trf, err) = qiyuan(&["swiss", "export", "ev1", "--data", &data]);
    assert!(ok, "{err}");
    assert!(trf.starts_with("012 Export test\n"), "{trf}");
    assert!(trf.contains("XXR 3"), "{trf}");
    assert!(trf.contains("alice"), "{trf}");
    let (ok, _, err) = qiyuan(&["swiss", "export", "nosuch", "--data", &data]);
    assert!(!ok);
    assert!(err.contains("no event"), "{err}");
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}
