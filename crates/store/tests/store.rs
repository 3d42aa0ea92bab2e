//! The same behaviour on both backends: every check runs against a fresh SQLite file
//! and a fresh PostgreSQL schema (`QIYUAN_TEST_POSTGRES`, default
//! `postgres://root@127.0.0.1:5432/test`).

use std::sync::Arc;

use qiyuan_store::*;

async fn stores() -> (tempfile::TempDir, Vec<Arc<dyn Store>>) {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = open(dir.path().join("q.db").to_str().unwrap())
        .await
        .unwrap();
    let url = qiyuan_testkit::db::postgres_schema("store_test");
    let pg = open(&url).await.unwrap_or_else(|e| {
        panic!("PostgreSQL is needed for the store tests and was not reachable at {url}: {e}")
    });
    (dir, vec![sqlite, pg])
}

#[tokio::test]
async fn accounts_and_sessions() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let u = s
            .create_user(NewUser {
                username: "Magnus".into(),
                password_hash: Some("h".into()),
                guest: false,
                created_at: 1,
            })
            .await
            .unwrap();
        assert_eq!(u.username, "Magnus", "{name}");
        let dup = s
            .create_user(NewUser {
                username: "magnus".into(),
                password_hash: None,
                guest: false,
                created_at: 2,
            })
            .await;
        assert!(
            matches!(dup, Err(StoreError::Conflict(_))),
            "{name}: {dup:?}"
        );
        assert_eq!(
            s.user_by_name("MAGNUS").await.unwrap().unwrap().id,
            u.id,
            "{name}"
        );
        assert_eq!(
            s.user(u.id)
                .await
                .unwrap()
                .unwrap()
                .password_hash
                .as_deref(),
            Some("h")
        );

        s.create_session("tok", u.id, 10, 100).await.unwrap();
        assert_eq!(
            s.session_user("tok", 50).await.unwrap().unwrap().id,
            u.id,
            "{name}"
        );
        assert!(
            s.session_user("tok", 100).await.unwrap().is_none(),
            "{name}: expired"
        );
        assert_eq!(
            s.session_expires_at("tok").await.unwrap(),
            Some(100),
            "{name}"
        );
        s.delete_session("tok").await.unwrap();
        assert!(s.session_user("tok", 50).await.unwrap().is_none(), "{name}");
        assert_eq!(s.session_expires_at("tok").await.unwrap(), None, "{name}");

        // Log out everywhere: every session of the user goes, others' stay.
        let other = s
            .create_user(NewUser {
                username: "Hikaru".into(),
                password_hash: None,
                guest: false,
                created_at: 3,
            })
            .await
            .unwrap();
        s.create_session("t1", u.id, 10, 1000).await.unwrap();
        s.create_session("t2", u.id, 10, 1000).await.unwrap();
        s.create_session("t3", other.id, 10, 1000).await.unwrap();
        s.create_session("old", other.id, 10, 20).await.unwrap();
        assert_eq!(s.delete_user_sessions(u.id).await.unwrap(), 2, "{name}");
        assert!(s.session_user("t1", 50).await.unwrap().is_none(), "{name}");
        assert!(s.session_user("t2", 50).await.unwrap().is_none(), "{name}");
        assert_eq!(
            s.session_user("t3", 50).await.unwrap().unwrap().id,
            other.id
        );
        assert_eq!(s.delete_expired_sessions(50).await.unwrap(), 1, "{name}");
        assert_eq!(
            s.session_user("t3", 50).await.unwrap().unwrap().id,
            other.id
        );
    }
}

/// A banned user's sessions and API tokens authenticate nobody while the ban
/// holds, and again once it is lifted; the banned are listed by role.
#[tokio::test]
async fn a_ban_refuses_sessions_and_tokens() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let mut ids = Vec::new();
        for username in ["Mallory", "Bob"] {
            let u = s
                .create_user(NewUser {
                    username: username.into(),
                    password_hash: None,
                    guest: false,
                    created_at: 1,
                })
                .await
                .unwrap();
            s.create_session(&format!("s-{username}"), u.id, 10, 1000)
                .await
                .unwrap();
            s.create_api_token(&NewApiToken {
                token_hash: format!("t-{username}"),
                id: format!("id-{username}"),
                user_id: u.id,
                description: "test".into(),
                scopes: "board:play".into(),
                created_at: 1,
            })
            .await
            .unwrap();
            ids.push(u.id);
        }
        let (mallory, bob) = (ids[0], ids[1]);
        s.grant_role(mallory, "banned", 20).await.unwrap();
        s.grant_role(bob, "muted", 20).await.unwrap();
        assert!(
            s.session_user("s-Mallory", 50).await.unwrap().is_none(),
            "{name}"
        );
        assert!(s.api_token("t-Mallory").await.unwrap().is_none(), "{name}");
        assert_eq!(s.session_user("s-Bob", 50).await.unwrap().unwrap().id, bob);
        assert_eq!(s.api_token("t-Bob").await.unwrap().unwrap().1.id, bob);
        assert_eq!(
            s.users_with_role("banned").await.unwrap(),
            [mallory],
            "{name}"
        );
        assert_eq!(s.users_with_role("muted").await.unwrap(), [bob], "{name}");
        assert!(s.revoke_role(mallory, "banned").await.unwrap());
        assert_eq!(
            s.api_token("t-Mallory").await.unwrap().unwrap().1.id,
            mallory
        );
        assert!(s.users_with_role("banned").await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn usernames_are_unique_by_look() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let new = |username: &str| NewUser {
            username: username.into(),
            password_hash: None,
            guest: false,
            created_at: 1,
        };
        s.create_user(new("admin")).await.unwrap();
        // Cyrillic а, fullwidth, and "rn" for "m": the same skeleton.
        for lookalike in ["\u{430}dmin", "ａｄｍｉｎ", "adrnin", "ADMIN"] {
            let r = s.create_user(new(lookalike)).await;
            assert!(
                matches!(r, Err(StoreError::Conflict(_))),
                "{name}: {lookalike} → {r:?}"
            );
        }
        s.create_user(new("admins")).await.unwrap();
        // Accents and other marks are taken off (issue 41): `admiń` is `admin`,
        // and a plain name is taken by its accented form made first.
        for accented in ["admiń", "ádmin", "a\u{300}dmin", "ad\u{323}min"] {
            let r = s.create_user(new(accented)).await;
            assert!(
                matches!(r, Err(StoreError::Conflict(_))),
                "{name}: {accented} → {r:?}"
            );
        }
        s.create_user(new("Zoë")).await.unwrap();
        let r = s.create_user(new("zoe")).await;
        assert!(matches!(r, Err(StoreError::Conflict(_))), "{name}: {r:?}");
        // Han names have no marks: two of them are two names.
        s.create_user(new("王伟")).await.unwrap();
        s.create_user(new("王玮")).await.unwrap();
    }
    assert_eq!(username_skeleton("ａｄｍｉｎ"), username_skeleton("admin"));
    assert_ne!(username_skeleton("admin"), username_skeleton("admins"));
    for (a, b) in [
        ("admiń", "admin"),
        ("Müller", "muller"),
        ("Çelik", "celik"),
        ("Nguyễn", "nguyen"),
        ("Ёлка", "елка"),
    ] {
        assert_eq!(username_skeleton(a), username_skeleton(b), "{a} {b}");
    }
    // Names without marks keep the skeleton they had (no account changes key).
    let before = |name: &str| {
        use unicode_normalization::UnicodeNormalization;
        let folded = name.nfkc().collect::<String>().to_lowercase();
        unicode_security::skeleton(&folded)
            .collect::<String>()
            .to_lowercase()
    };
    for plain in [
        "admin",
        "adrnin",
        "棋手小王",
        "王Wang",
        "Иван",
        "김철수",
        "ｇｕｅｓｔ7",
    ] {
        assert_eq!(username_skeleton(plain), before(plain), "{plain}");
    }
}

/// Accounts made under the old rule get the new skeleton when the store opens
/// (migration 9, then the backfill in the order they were made): an `admiń`
/// made before keeps `admin` from being registered; of two that now look
/// alike, the older keeps the skeleton and both keep their names.
#[tokio::test]
async fn old_accounts_get_the_skeleton_without_marks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.db");
    let path = path.to_str().unwrap();
    let new = |username: &str| NewUser {
        username: username.into(),
        password_hash: None,
        guest: false,
        created_at: 1,
    };
    let store = open(path).await.unwrap();
    store.create_user(new("admiń")).await.unwrap();
    store.create_user(new("zoe")).await.unwrap();
    drop(store);
    // As the store was before: the old skeletons (marks kept), a "Zoë" that the
    // old rule let in beside "zoe", and migration 9 not yet applied.
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    for (id, old) in [(1, "admiń"), (2, "zoe")] {
        sqlx::query("UPDATE users SET skeleton = $1 WHERE id = $2")
            .bind(old)
            .bind(id)
            .execute(&pool)
            .await
            .unwrap();
    }
    sqlx::query(
        "INSERT INTO users (username, username_key, skeleton, guest, created_at) \
         VALUES ('Zoë', 'zoë', 'zoë', FALSE, 2)",
    )
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query("DELETE FROM qiyuan_schema WHERE version = 9")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;

    let store = open(path).await.unwrap();
    for taken in ["admin", "ádmin", "zoé"] {
        let r = store.create_user(new(taken)).await;
        assert!(matches!(r, Err(StoreError::Conflict(_))), "{taken} → {r:?}");
    }
    let zoe = store.user_by_name("zoe").await.unwrap().unwrap();
    assert_eq!(
        zoe.id, 2,
        "the older account keeps the name and its skeleton"
    );
    assert!(store.user_by_name("Zoë").await.unwrap().is_some());
}

#[tokio::test]
async fn tables_games_and_logs() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let user = |n: &str, guest| NewUser {
            username: n.into(),
            password_hash: None,
            guest,
            created_at: 1,
        };
        let a = s.create_user(user("a", false)).await.unwrap();
        let b = s.create_user(user("b", true)).await.unwrap();
        let t = TableRow {
            id: "t1".into(),
            game: "chess".into(),
            config: "{}".into(),
            open: true,
            created_at: 5,
        };
        s.create_table(&t).await.unwrap();
        assert!(
            matches!(s.create_table(&t).await, Err(StoreError::Conflict(_))),
            "{name}"
        );
        assert_eq!(s.open_tables().await.unwrap(), vec![t.clone()], "{name}");
        s.append("t1", 1, 10, "e2e4").await.unwrap();
        s.append("t1", 2, 11, "e7e5").await.unwrap();
        let again = s.append("t1", 2, 12, "d7d5").await;
        assert!(
            matches!(again, Err(StoreError::Conflict(_))),
            "{name}: {again:?}"
        );
        let log = s.log("t1", 0).await.unwrap();
        assert_eq!(
            log.iter().map(|e| e.entry.as_str()).collect::<Vec<_>>(),
            ["e2e4", "e7e5"]
        );
        assert_eq!(log[1].at, 11, "{name}");
        assert_eq!(s.log("t1", 1).await.unwrap().len(), 1, "{name}");

        let players = vec![
            Player {
                seat: 0,
                user_id: Some(a.id),
                name: "a".into(),
                rating: Some(1500),
                rating_diff: None,
            },
            Player {
                seat: 1,
                user_id: Some(b.id),
                name: "b".into(),
                rating: None,
                rating_diff: None,
            },
        ];
        let g = NewGame {
            id: "t1".into(),
            table_id: "t1".into(),
            number: 1,
            game: "chess".into(),
            settings: "{}".into(),
            rated: true,
            started_at: 9,
            players: players.clone(),
            private: false,
        };
        s.start_game(&g).await.unwrap();
        s.start_game(&g).await.unwrap(); // a replayed start changes nothing
        let row = s.game("t1").await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Live, "{name}");
        assert_eq!(row.players, players, "{name}");

        let finish = Finish {
            game_id: "t1".into(),
            at: 20,
            result: "{\"score\":\"1-0\"}".into(),
            record: "1. e4 e5 1-0".into(),
            rating_diffs: vec![(0, 12)],
            ratings: vec![RatingRow {
                user_id: a.id,
                pool: "chess:blitz".into(),
                rating: 1512.5,
                deviation: 290.0,
                volatility: 0.06,
                games: 1,
                updated_at: 20,
            }],
            points: Vec::new(),
        };
        assert!(s.finish_game(&finish).await.unwrap(), "{name}");
        assert!(
            !s.finish_game(&finish).await.unwrap(),
            "{name}: finishing twice does nothing"
        );
        let row = s.game("t1").await.unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Finished, "{name}");
        assert_eq!(row.record.as_deref(), Some("1. e4 e5 1-0"), "{name}");
        assert_eq!(row.players[0].rating_diff, Some(12), "{name}");
        let r = s.rating(a.id, "chess:blitz").await.unwrap().unwrap();
        assert_eq!(r.rating, 1512.5, "{name}");
        assert_eq!(s.ratings(a.id).await.unwrap().len(), 1, "{name}");
        assert_eq!(s.games_of_user(a.id, 10).await.unwrap().len(), 1, "{name}");
        assert_eq!(s.games_of_table("t1").await.unwrap().len(), 1, "{name}");
        assert!(
            s.games_of_user(a.id + b.id + 100, 10)
                .await
                .unwrap()
                .is_empty()
        );

        // A casual rematch between a user and a computer player (no account):
        // its end changes no rating or points, its row alone is written.
        let casual_players = vec![
            Player {
                seat: 0,
                user_id: None,
                name: "bot:1".into(),
                rating: None,
                rating_diff: None,
            },
            players[1].clone(),
        ];
        let casual = NewGame {
            id: "t1-2".into(),
            number: 2,
            rated: false,
            players: casual_players.clone(),
            ..g.clone()
        };
        s.start_game(&casual).await.unwrap();
        s.start_game(&casual).await.unwrap();
        assert_eq!(
            s.game("t1-2").await.unwrap().unwrap().players,
            casual_players,
            "{name}"
        );
        let end = Finish {
            game_id: "t1-2".into(),
            at: 30,
            result: "{\"score\":\"0-1\"}".into(),
            record: "1. f3 e5 0-1".into(),
            rating_diffs: Vec::new(),
            ratings: Vec::new(),
            points: Vec::new(),
        };
        assert!(s.finish_game(&end).await.unwrap(), "{name}");
        assert!(!s.finish_game(&end).await.unwrap(), "{name}");
        let row = s.game("t1-2").await.unwrap().unwrap();
        assert_eq!(
            (row.status, row.ended_at, row.record.as_deref()),
            (GameStatus::Finished, Some(30), Some("1. f3 e5 0-1")),
            "{name}"
        );
        assert_eq!(s.games_of_table("t1").await.unwrap().len(), 2, "{name}");
        assert_eq!(s.games_of_user(b.id, 10).await.unwrap().len(), 2, "{name}");

        // A private game (单机) is kept and found by id, and in no user's list.
        s.create_table(&TableRow {
            id: "solo1".into(),
            open: false,
            ..t.clone()
        })
        .await
        .unwrap();
        let private = NewGame {
            id: "solo1".into(),
            table_id: "solo1".into(),
            private: true,
            ..g.clone()
        };
        s.start_game(&private).await.unwrap();
        assert!(s.game("solo1").await.unwrap().is_some(), "{name}");
        assert_eq!(s.games_of_table("solo1").await.unwrap().len(), 1, "{name}");
        let listed = s.games_of_user(b.id, 10).await.unwrap();
        assert_eq!(listed.len(), 2, "{name}: {listed:?}");
        assert!(listed.iter().all(|g| g.table_id == "t1"), "{name}");
        assert_eq!(
            s.rating(a.id, "chess:blitz").await.unwrap().unwrap().rating,
            1512.5,
            "{name}: a casual game changes no rating"
        );

        s.close_table("t1").await.unwrap();
        assert!(s.open_tables().await.unwrap().is_empty(), "{name}");
        assert!(!s.table("t1").await.unwrap().unwrap().open, "{name}");
    }
}

/// Points (积分) add up over the hands that counted, per game, in the same
/// transaction as the hand's end: a replayed end adds nothing.
#[tokio::test]
async fn points_add_up_hand_by_hand() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let user = |n: &str| NewUser {
            username: n.into(),
            password_hash: None,
            guest: false,
            created_at: 1,
        };
        let a = s.create_user(user("ann")).await.unwrap();
        let b = s.create_user(user("bo")).await.unwrap();
        let c = s.create_user(user("cy")).await.unwrap();
        s.create_table(&TableRow {
            id: "d".into(),
            game: "doudizhu".into(),
            config: "{}".into(),
            open: true,
            created_at: 1,
        })
        .await
        .unwrap();
        assert_eq!(s.points(a.id, "doudizhu").await.unwrap(), None, "{name}");
        let hand = |n: i64, points: Vec<(UserId, i64)>| {
            let id = format!("d-{n}");
            let game = NewGame {
                id: id.clone(),
                table_id: "d".into(),
                number: n,
                game: "doudizhu".into(),
                settings: "{}".into(),
                rated: false,
                started_at: n,
                players: Vec::new(),
                private: false,
            };
            let finish = Finish {
                game_id: id,
                at: 100 + n,
                result: "{}".into(),
                record: "{}".into(),
                rating_diffs: Vec::new(),
                ratings: Vec::new(),
                points: points
                    .into_iter()
                    .map(|(user_id, diff)| PointsChange {
                        user_id,
                        game: "doudizhu".into(),
                        diff,
                    })
                    .collect(),
            };
            (game, finish)
        };
        // A landlord wins 2 units; then a farmer escapes: 4 to the landlord, the
        // partner's void result does not count.
        for (game, finish) in [
            hand(1, vec![(a.id, 4), (b.id, -2), (c.id, -2)]),
            hand(2, vec![(a.id, 8), (b.id, -8)]),
        ] {
            s.start_game(&game).await.unwrap();
            assert!(s.finish_game(&finish).await.unwrap(), "{name}");
            assert!(!s.finish_game(&finish).await.unwrap(), "{name}");
        }
        let pa = s.points(a.id, "doudizhu").await.unwrap().unwrap();
        assert_eq!(
            (pa.points, pa.hands, pa.username.as_str()),
            (12, 2, "ann"),
            "{name}"
        );
        assert_eq!(pa.updated_at, 102, "{name}");
        let pc = s.points(c.id, "doudizhu").await.unwrap().unwrap();
        assert_eq!((pc.points, pc.hands), (-2, 1), "{name}");
        assert_eq!(s.points(a.id, "chess").await.unwrap(), None, "{name}");
        let board = s.points_leaderboard("doudizhu", 10).await.unwrap();
        let order: Vec<(&str, i64)> = board
            .iter()
            .map(|p| (p.username.as_str(), p.points))
            .collect();
        assert_eq!(order, [("ann", 12), ("cy", -2), ("bo", -10)], "{name}");
        assert_eq!(s.points_leaderboard("doudizhu", 1).await.unwrap().len(), 1);
        assert!(s.points_leaderboard("chess", 10).await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn unreachable_postgres_is_a_clear_error() {
    let err = open("postgres://root@127.0.0.1:1/test")
        .await
        .err()
        .expect("port 1 has no server");
    assert!(err.to_string().contains("cannot use database"), "{err}");
}

/// Nodes' heartbeats: one row per node, each beat replacing the last.
#[tokio::test]
async fn a_nodes_last_heartbeat_is_kept() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        assert_eq!(s.last_beat("a").await.unwrap(), None, "{name}: no beat yet");
        s.beat("a", 1_000).await.unwrap();
        s.beat("b", 5_000).await.unwrap();
        s.beat("a", 2_000).await.unwrap();
        assert_eq!(s.last_beat("a").await.unwrap(), Some(2_000), "{name}");
        assert_eq!(s.last_beat("b").await.unwrap(), Some(5_000), "{name}");
        assert_eq!(s.last_beat("c").await.unwrap(), None, "{name}");
    }
}

/// Leases and fencing (several nodes): one owner at a time, every acquisition a
/// greater token, and an old owner's late append refused with nothing written.
#[tokio::test]
async fn a_fenced_old_owner_writes_nothing() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let table = TableRow {
            id: "leased".into(),
            game: "toy".into(),
            config: "{}".into(),
            open: true,
            created_at: 1,
        };
        s.create_table(&table).await.unwrap();
        let orphans = s.orphan_tables(None).await.unwrap();
        assert_eq!(
            orphans.len(),
            1,
            "{name}: an unleased open table is an orphan"
        );
        let a = s.acquire_lease("leased", "a", 60_000).await.unwrap();
        let a = a.unwrap_or_else(|| panic!("{name}: a free table is taken"));
        assert!(s.orphan_tables(None).await.unwrap().is_empty(), "{name}");
        assert_eq!(s.orphan_tables(Some("a")).await.unwrap().len(), 1, "{name}");
        assert_eq!(
            s.acquire_lease("leased", "b", 60_000).await.unwrap(),
            None,
            "{name}: a live lease is not taken"
        );
        s.append_fenced("leased", 1, 10, "one", a).await.unwrap();
        assert!(
            s.renew_lease("leased", "a", a, 60_000).await.unwrap(),
            "{name}"
        );
        assert_eq!(
            s.renew_leases("a", 60_000).await.unwrap(),
            [("leased".to_string(), a)],
            "{name}: all of a node's leases at once"
        );
        assert!(
            s.renew_leases("b", 60_000).await.unwrap().is_empty(),
            "{name}"
        );
        // Node a stalls past its lease: let it expire, b takes the table over.
        assert!(s.renew_lease("leased", "a", a, -1).await.unwrap(), "{name}");
        let lease = s.lease("leased").await.unwrap().unwrap();
        assert!(!lease.live && lease.node == "a", "{name}: {lease:?}");
        assert_eq!(s.orphan_tables(None).await.unwrap().len(), 1, "{name}");
        let b = s
            .acquire_lease("leased", "b", 60_000)
            .await
            .unwrap()
            .unwrap();
        assert!(b > a, "{name}: tokens grow ({a} then {b})");
        // a wakes up and writes: refused, nothing stored, its renewal too.
        let late = s.append_fenced("leased", 2, 20, "late", a).await;
        assert!(
            matches!(late, Err(StoreError::Fenced(_))),
            "{name}: {late:?}"
        );
        assert!(
            !s.renew_lease("leased", "a", a, 60_000).await.unwrap(),
            "{name}"
        );
        assert!(
            s.renew_leases("a", 60_000).await.unwrap().is_empty(),
            "{name}"
        );
        let log = s.log("leased", 0).await.unwrap();
        assert_eq!(log.len(), 1, "{name}: {log:?}");
        // The new owner writes on; an existing version is still a conflict.
        s.append_fenced("leased", 2, 30, "two", b).await.unwrap();
        let dup = s.append_fenced("leased", 2, 31, "again", b).await;
        assert!(
            matches!(dup, Err(StoreError::Conflict(_))),
            "{name}: {dup:?}"
        );
        let log = s.log("leased", 0).await.unwrap();
        assert_eq!(
            log.iter().map(|e| e.entry.as_str()).collect::<Vec<_>>(),
            ["one", "two"],
            "{name}"
        );
        // Releasing with a stale token does nothing; with the current one, the
        // table is free again and the next token is greater still.
        s.release_lease("leased", a).await.unwrap();
        assert_eq!(s.lease("leased").await.unwrap().unwrap().token, b, "{name}");
        s.release_lease("leased", b).await.unwrap();
        assert!(!s.lease("leased").await.unwrap().unwrap().live, "{name}");
        let c = s
            .acquire_lease("leased", "c", 60_000)
            .await
            .unwrap()
            .unwrap();
        assert!(c > b, "{name}: a token given up is not handed out again");
        let stale = s.append_fenced("leased", 3, 40, "stale", b).await;
        assert!(
            matches!(stale, Err(StoreError::Fenced(_))),
            "{name}: {stale:?}"
        );
    }
}

/// Follows, friends (mutual follows) and blocks, which end the follows both
/// ways and refuse new ones from the blocked side.
#[tokio::test]
async fn follows_friends_and_blocks() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let mut ids = Vec::new();
        for (i, who) in ["ann", "bo", "cy"].iter().enumerate() {
            let u = s
                .create_user(NewUser {
                    username: (*who).into(),
                    password_hash: Some("h".into()),
                    guest: false,
                    created_at: i as i64,
                })
                .await
                .unwrap();
            ids.push(u.id);
        }
        let (ann, bo, cy) = (ids[0], ids[1], ids[2]);
        assert!(s.follow(ann, bo, 10).await.unwrap(), "{name}");
        assert!(!s.follow(ann, bo, 11).await.unwrap(), "{name}: twice");
        assert!(s.follow(ann, cy, 12).await.unwrap(), "{name}");
        let f = s.following(ann).await.unwrap();
        assert_eq!(
            f.iter()
                .map(|f| (f.username.as_str(), f.mutual))
                .collect::<Vec<_>>(),
            [("bo", false), ("cy", false)],
            "{name}"
        );
        assert_eq!(f[0].since, 10, "{name}");
        assert!(s.follow(bo, ann, 13).await.unwrap(), "{name}");
        let f = s.following(ann).await.unwrap();
        assert!(f[0].mutual && !f[1].mutual, "{name}: {f:?}");
        let mut followers = s.followers(bo).await.unwrap();
        followers.sort();
        assert_eq!(followers, [ann], "{name}");
        let r = s.relation(ann, bo).await.unwrap();
        assert!(r.friends() && !r.blocking && !r.blocked_by, "{name}: {r:?}");
        assert!(s.unfollow(bo, ann).await.unwrap(), "{name}");
        assert!(!s.unfollow(bo, ann).await.unwrap(), "{name}: twice");
        assert!(!s.relation(ann, bo).await.unwrap().friends(), "{name}");

        // Cy blocks Ann: Ann's follow ends, and she cannot follow again.
        assert!(s.follow(cy, ann, 14).await.unwrap(), "{name}");
        assert!(s.block(cy, ann, 15).await.unwrap(), "{name}");
        assert!(!s.block(cy, ann, 16).await.unwrap(), "{name}: twice");
        assert!(s.is_blocked(cy, ann).await.unwrap(), "{name}");
        assert!(!s.is_blocked(ann, cy).await.unwrap(), "{name}: one way");
        let r = s.relation(ann, cy).await.unwrap();
        assert_eq!(
            r,
            Relation {
                following: false,
                followed_by: false,
                blocking: false,
                blocked_by: true
            },
            "{name}"
        );
        assert!(!s.follow(ann, cy, 17).await.unwrap(), "{name}: blocked");
        assert_eq!(
            s.following(ann)
                .await
                .unwrap()
                .iter()
                .map(|f| f.username.as_str())
                .collect::<Vec<_>>(),
            ["bo"],
            "{name}"
        );
        let b = s.blocked(cy).await.unwrap();
        assert_eq!(
            (b.len(), b[0].username.as_str(), b[0].since),
            (1, "ann", 15),
            "{name}"
        );
        assert!(s.unblock(cy, ann).await.unwrap(), "{name}");
        assert!(!s.is_blocked(cy, ann).await.unwrap(), "{name}");
        assert!(s.follow(ann, cy, 18).await.unwrap(), "{name}: unblocked");
    }
}

/// A chat line is kept unless its writer is muted at its time (the `muted`
/// role, or a timed mute running then), read in the insert itself: a muted
/// writer's line keeps nothing. A table's players' chat is asked closed by
/// each person apart, once each.
#[tokio::test]
async fn chat_lines_of_the_muted_are_not_kept_and_tables_chat_switches() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let mut ids = Vec::new();
        for (i, who) in ["ann", "bo"].iter().enumerate() {
            let u = s
                .create_user(NewUser {
                    username: (*who).into(),
                    password_hash: Some("h".into()),
                    guest: false,
                    created_at: i as i64,
                })
                .await
                .unwrap();
            ids.push(u.id);
        }
        let (ann, bo) = (ids[0], ids[1]);
        let line = |at: i64| NewChatLine {
            table: "t1".into(),
            room: "players".into(),
            user: ann,
            username: "ann".into(),
            text: format!("hello at {at}"),
            at,
        };
        let first = s.add_chat_line(&line(100)).await.unwrap();
        assert!(first.is_some(), "{name}: not muted, kept");
        s.add_mute(&NewMute {
            user: ann,
            until: 200,
            by: bo,
            event: None,
            reason: "spam".into(),
            at: 100,
        })
        .await
        .unwrap();
        assert_eq!(
            s.add_chat_line(&line(150)).await.unwrap(),
            None,
            "{name}: muted"
        );
        let after = s.add_chat_line(&line(200)).await.unwrap();
        assert!(after > first, "{name}: the mute has ended at 200");
        s.grant_role(ann, "muted", 210).await.unwrap();
        assert_eq!(
            s.add_chat_line(&line(300)).await.unwrap(),
            None,
            "{name}: the role"
        );
        s.revoke_role(ann, "muted").await.unwrap();
        assert!(
            s.add_chat_line(&line(400)).await.unwrap().is_some(),
            "{name}"
        );
        let kept = s.recent_chat_lines("t1", 10).await.unwrap();
        assert_eq!(
            kept.iter().map(|l| l.at).collect::<Vec<_>>(),
            [100, 200, 400],
            "{name}: the muted lines left nothing"
        );

        assert!(s.table_chat_off("t1").await.unwrap().is_empty(), "{name}");
        assert!(s.set_table_chat_off("t1", bo, true, 10).await.unwrap());
        assert!(
            !s.set_table_chat_off("t1", bo, true, 11).await.unwrap(),
            "{name}: twice"
        );
        assert!(s.set_table_chat_off("t1", ann, true, 12).await.unwrap());
        assert!(s.set_table_chat_off("t2", ann, true, 12).await.unwrap());
        assert_eq!(
            s.table_chat_off("t1").await.unwrap(),
            [(bo, "bo".to_string()), (ann, "ann".to_string())],
            "{name}"
        );
        assert!(s.set_table_chat_off("t1", bo, false, 13).await.unwrap());
        assert!(
            !s.set_table_chat_off("t1", bo, false, 14).await.unwrap(),
            "{name}"
        );
        assert_eq!(
            s.table_chat_off("t1").await.unwrap(),
            [(ann, "ann".to_string())]
        );
    }
}
