//! The group writer of the table log, on real SQLite and PostgreSQL
//! (`QIYUAN_TEST_POSTGRES`, default `postgres://root@127.0.0.1:5432/test`): many
//! tables committing at once share transactions and keep each table's order; a
//! failure in a batch fails every append of it and commits none; a version that
//! exists is that append's own conflict; a game's beginning and end (its
//! table, its game row, its settlement) waiting together commit in one
//! transaction of the writer, a failing one alone.

use std::sync::Arc;
use std::time::Duration;

use qiyuan_store::*;

/// A store of each backend, with the concrete type's pause for the batching.
enum Backend {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

impl Backend {
    fn store(&self) -> Arc<dyn Store> {
        match self {
            Backend::Sqlite(s) => Arc::new(s.clone()),
            Backend::Postgres(s) => Arc::new(s.clone()),
        }
    }
    async fn pause(&self) -> AppendPause {
        match self {
            Backend::Sqlite(s) => s.pause_appends().await,
            Backend::Postgres(s) => s.pause_appends().await,
        }
    }
    fn waiting(&self) -> usize {
        match self {
            Backend::Sqlite(s) => s.appends_waiting(),
            Backend::Postgres(s) => s.appends_waiting(),
        }
    }
}

async fn backends() -> (tempfile::TempDir, Vec<Backend>) {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = SqliteStore::open(dir.path().join("q.db").to_str().unwrap())
        .await
        .unwrap();
    let url = qiyuan_testkit::db::postgres_schema("group_test");
    let pg = PostgresStore::open(&url).await.unwrap_or_else(|e| {
        panic!("PostgreSQL is needed for the store tests and was not reachable at {url}: {e}")
    });
    (dir, vec![Backend::Sqlite(sqlite), Backend::Postgres(pg)])
}

async fn table(s: &Arc<dyn Store>, id: &str) {
    s.create_table(&TableRow {
        id: id.into(),
        game: "g".into(),
        config: "{}".into(),
        open: true,
        created_at: 1,
    })
    .await
    .unwrap();
}

/// Waits until `n` appends are queued behind the pause.
async fn until_waiting(b: &Backend, n: usize) {
    for _ in 0..500 {
        if b.waiting() >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("only {} of {n} appends queued", b.waiting());
}

#[tokio::test]
async fn many_tables_at_once_keep_every_entry_in_order() {
    let (_dir, backends) = backends().await;
    for b in &backends {
        let s = b.store();
        let name = s.backend();
        let tables: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
        for t in &tables {
            table(&s, t).await;
        }
        // 20 tables, each appending 1..=40 as its actor does: the next after the
        // previous one's answer, all tables at once.
        let mut tasks = Vec::new();
        for t in tables.clone() {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                for v in 1..=40i64 {
                    s.append(&t, v, v * 10, &format!("{t}:{v}")).await.unwrap();
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        for t in &tables {
            let log = s.log(t, 0).await.unwrap();
            let got: Vec<(i64, i64, String)> = log
                .into_iter()
                .map(|e| (e.version, e.at, e.entry))
                .collect();
            let want: Vec<(i64, i64, String)> =
                (1..=40).map(|v| (v, v * 10, format!("{t}:{v}"))).collect();
            assert_eq!(got, want, "{name}: {t}");
        }
    }
}

#[tokio::test]
async fn appends_waiting_together_share_one_batch_in_arrival_order() {
    let (_dir, backends) = backends().await;
    for b in &backends {
        let s = b.store();
        let name = s.backend();
        for t in ["a", "b", "c"] {
            table(&s, t).await;
        }
        let pause = b.pause().await;
        // Sent in this order while the writer is paused: one batch holding
        // several versions of each table.
        let mut tasks = Vec::new();
        for v in 1..=5i64 {
            for t in ["a", "b", "c"] {
                let s = s.clone();
                tasks.push(tokio::spawn(async move {
                    s.append(t, v, v, &format!("{t}{v}")).await
                }));
                until_waiting(b, tasks.len()).await;
            }
        }
        // Nothing is committed while the writer is paused.
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(s.log("a", 0).await.unwrap().is_empty(), "{name}");
        assert!(
            tasks.iter().all(|t| !t.is_finished()),
            "{name}: no answer yet"
        );
        drop(pause);
        for task in tasks {
            task.await.unwrap().unwrap();
        }
        for t in ["a", "b", "c"] {
            let versions: Vec<i64> = s
                .log(t, 0)
                .await
                .unwrap()
                .iter()
                .map(|e| e.version)
                .collect();
            assert_eq!(versions, vec![1, 2, 3, 4, 5], "{name}: {t}");
        }
        assert_eq!(b.waiting(), 0, "{name}");
    }
}

#[tokio::test]
async fn a_large_batch_keeps_every_entry_and_the_stats_count_it() {
    let (_dir, backends) = backends().await;
    for b in &backends {
        let s = b.store();
        let name = s.backend();
        // 302 appends of 43 tables in one batch, one of them a version that
        // exists.
        let tables: Vec<String> = (0..43).map(|i| format!("big{i}")).collect();
        for t in &tables {
            table(&s, t).await;
        }
        s.append("big0", 1, 1, "before").await.unwrap();
        let before = s.writer_stats();
        let pause = b.pause().await;
        let mut tasks = Vec::new();
        for v in 2..=8i64 {
            for t in &tables {
                let (s, t) = (s.clone(), t.clone());
                tasks.push(tokio::spawn(async move {
                    s.append(&t, v, v, &format!("{t} {v}")).await
                }));
            }
            if v == 5 {
                // A version that exists, in the middle of the batch.
                let s = s.clone();
                tasks.push(tokio::spawn(async move {
                    s.append("big0", 1, 9, "again").await
                }));
            }
        }
        until_waiting(b, tasks.len()).await;
        drop(pause);
        let results = futures_results(tasks).await;
        assert_eq!(results.len(), 302, "{name}");
        let conflicts = results
            .iter()
            .filter(|r| matches!(r, Err(StoreError::Conflict(_))))
            .count();
        assert_eq!(conflicts, 1, "{name}");
        assert!(
            results
                .iter()
                .all(|r| r.is_ok() || matches!(r, Err(StoreError::Conflict(_)))),
            "{name}"
        );
        for t in &tables {
            let log = s.log(t, 0).await.unwrap();
            let versions: Vec<i64> = log.iter().map(|e| e.version).collect();
            let from = if t == "big0" { 1 } else { 2 };
            assert_eq!(versions, (from..=8).collect::<Vec<i64>>(), "{name}: {t}");
            for e in &log {
                if e.version == 1 {
                    assert_eq!(e.entry, "before", "{name}: the conflict changed nothing");
                } else {
                    assert_eq!(e.entry, format!("{t} {}", e.version), "{name}");
                }
            }
        }
        let after = s.writer_stats();
        assert_eq!(after.batches, before.batches + 1, "{name}: one batch");
        assert_eq!(after.appends, before.appends + 302, "{name}");
        assert!(after.write_us > before.write_us, "{name}");
        let bucket = BATCH_SIZE_BOUNDS.iter().position(|&b| b >= 302).unwrap();
        assert_eq!(after.sizes[bucket], before.sizes[bucket] + 1, "{name}");
        assert_eq!(b.waiting(), 0, "{name}");
    }
}

#[tokio::test]
async fn a_failure_in_a_batch_fails_all_of_it_and_commits_none() {
    let (_dir, backends) = backends().await;
    for b in &backends {
        let s = b.store();
        let name = s.backend();
        for t in ["x", "y"] {
            table(&s, t).await;
        }
        s.append("x", 1, 1, "x1").await.unwrap();
        let pause = b.pause().await;
        let mut tasks = Vec::new();
        // Good appends of two tables around one that the database refuses in
        // mid-batch: SQLite because its table does not exist (the log's foreign
        // key), PostgreSQL because of the NUL in its text (PostgreSQL's log has
        // no foreign key; a NUL is never in an entry, whose JSON escapes it).
        let sends: [(&'static str, i64, &'static str); 5] = [
            ("x", 2, "e"),
            ("y", 1, "e"),
            ("nowhere", 1, "e\0"),
            ("y", 2, "e"),
            ("x", 3, "e"),
        ];
        for (t, v, entry) in sends {
            let s = s.clone();
            tasks.push(tokio::spawn(async move { s.append(t, v, v, entry).await }));
            until_waiting(b, tasks.len()).await;
        }
        drop(pause);
        for (task, (t, v, _)) in tasks.into_iter().zip(sends) {
            let result = task.await.unwrap();
            assert!(
                matches!(result, Err(StoreError::Batch(_))),
                "{name}: {t} {v} failed with its batch: {result:?}"
            );
        }
        let x: Vec<i64> = s
            .log("x", 0)
            .await
            .unwrap()
            .iter()
            .map(|e| e.version)
            .collect();
        assert_eq!(x, vec![1], "{name}: nothing of the batch was committed");
        assert!(s.log("y", 0).await.unwrap().is_empty(), "{name}");
        // The writer goes on: the same appends alone commit.
        s.append("x", 2, 2, "x2").await.unwrap();
        s.append("y", 1, 1, "y1").await.unwrap();
        assert_eq!(s.log("x", 0).await.unwrap().len(), 2, "{name}");
    }
}

#[tokio::test]
async fn a_version_that_exists_is_its_own_conflict_in_a_batch() {
    let (_dir, backends) = backends().await;
    for b in &backends {
        let s = b.store();
        let name = s.backend();
        for t in ["p", "q"] {
            table(&s, t).await;
        }
        s.append("p", 1, 1, "first").await.unwrap();
        let pause = b.pause().await;
        let sends: [(&'static str, i64, &'static str); 4] = [
            ("q", 1, "q1"),
            ("p", 1, "again"),
            ("q", 2, "q2"),
            ("q", 2, "twice in one batch"),
        ];
        let mut tasks = Vec::new();
        for (t, v, e) in sends {
            let s = s.clone();
            tasks.push(tokio::spawn(async move { s.append(t, v, v, e).await }));
            until_waiting(b, tasks.len()).await;
        }
        drop(pause);
        let results: Vec<_> = futures_results(tasks).await;
        assert!(results[0].is_ok(), "{name}: {:?}", results[0]);
        assert!(
            matches!(results[1], Err(StoreError::Conflict(_))),
            "{name}: {:?}",
            results[1]
        );
        assert!(results[2].is_ok(), "{name}: {:?}", results[2]);
        assert!(
            matches!(results[3], Err(StoreError::Conflict(_))),
            "{name}: {:?}",
            results[3]
        );
        let p = s.log("p", 0).await.unwrap();
        assert_eq!(p.len(), 1, "{name}");
        assert_eq!(p[0].entry, "first", "{name}: the conflict changed nothing");
        let q: Vec<String> = s
            .log("q", 0)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.entry)
            .collect();
        assert_eq!(q, vec!["q1", "q2"], "{name}");
    }
}

async fn futures_results(tasks: Vec<tokio::task::JoinHandle<Result<()>>>) -> Vec<Result<()>> {
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

/// Several nodes: fenced appends go through the group writer with their token
/// checked inside the batch. One batch holding a fenced append with its
/// lease's token, one with a token since taken over by another node (and the
/// new owner's append of the same version), a plain append and a version that
/// exists: the stale token fails alone ([`StoreError::Fenced`], nothing
/// written), the existing version is its own conflict, the others commit.
#[tokio::test]
async fn a_fenced_out_append_fails_alone_in_a_mixed_batch() {
    let (_dir, backends) = backends().await;
    for b in &backends {
        let s = b.store();
        let name = s.backend();
        for t in ["owned", "lost", "plain"] {
            table(&s, t).await;
        }
        let mine = s
            .acquire_lease("owned", "n1", 60_000)
            .await
            .unwrap()
            .unwrap();
        let old = s
            .acquire_lease("lost", "n1", 60_000)
            .await
            .unwrap()
            .unwrap();
        s.append_fenced("lost", 1, 1, "lost1", old).await.unwrap();
        // The lease lapses and another node takes the table over.
        s.release_lease("lost", old).await.unwrap();
        let new = s
            .acquire_lease("lost", "n2", 60_000)
            .await
            .unwrap()
            .unwrap();
        assert!(new > old, "{name}");
        s.append("plain", 1, 1, "plain1").await.unwrap();
        let pause = b.pause().await;
        let mut tasks = Vec::new();
        let sends: [(&'static str, i64, &'static str, Option<i64>); 5] = [
            ("owned", 1, "owned1", Some(mine)),
            ("lost", 2, "late write", Some(old)),
            ("plain", 2, "plain2", None),
            ("plain", 1, "again", None),
            ("lost", 2, "lost2", Some(new)),
        ];
        for (t, v, e, token) in sends {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                match token {
                    Some(k) => s.append_fenced(t, v, v, e, k).await,
                    None => s.append(t, v, v, e).await,
                }
            }));
            until_waiting(b, tasks.len()).await;
        }
        drop(pause);
        let results = futures_results(tasks).await;
        assert!(results[0].is_ok(), "{name}: {:?}", results[0]);
        assert!(
            matches!(results[1], Err(StoreError::Fenced(_))),
            "{name}: {:?}",
            results[1]
        );
        assert!(results[2].is_ok(), "{name}: {:?}", results[2]);
        assert!(
            matches!(results[3], Err(StoreError::Conflict(_))),
            "{name}: {:?}",
            results[3]
        );
        assert!(results[4].is_ok(), "{name}: {:?}", results[4]);
        assert_eq!(b.waiting(), 0, "{name}");
        let entries = |t: &'static str| {
            let s = s.clone();
            async move {
                s.log(t, 0)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|e| e.entry)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(entries("owned").await, vec!["owned1"], "{name}");
        assert_eq!(
            entries("lost").await,
            vec!["lost1", "lost2"],
            "{name}: the new owner's, not the late write"
        );
        assert_eq!(entries("plain").await, vec!["plain1", "plain2"], "{name}");
    }
}

fn new_game(id: &str, user: Option<i64>) -> NewGame {
    NewGame {
        id: id.into(),
        table_id: id.into(),
        number: 1,
        game: "g".into(),
        settings: "{}".into(),
        rated: user.is_some(),
        started_at: 1,
        players: vec![
            Player {
                seat: 0,
                user_id: user,
                name: "p0".into(),
                rating: user.map(|_| 1500),
                rating_diff: None,
            },
            Player {
                seat: 1,
                user_id: None,
                name: "p1".into(),
                rating: None,
                rating_diff: None,
            },
        ],
        private: false,
    }
}

fn finish(id: &str, user: Option<i64>) -> Finish {
    Finish {
        game_id: id.into(),
        at: 9,
        result: "{}".into(),
        record: "1. e4".into(),
        rating_diffs: user.map(|_| (0, 12)).into_iter().collect(),
        ratings: user
            .map(|user_id| RatingRow {
                user_id,
                pool: "g".into(),
                rating: 1512.0,
                deviation: 300.0,
                volatility: 0.06,
                games: 1,
                updated_at: 9,
            })
            .into_iter()
            .collect(),
        points: Vec::new(),
    }
}

/// Many games beginning and ending at once: their tables, game rows and
/// settlements go to the group writer (on both stores), wait for its batch,
/// commit in one transaction, and are answered only after it; one that fails
/// (a table id taken) fails alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_beginning_and_ending_together_commit_in_one_writer_batch() {
    let (_dir, backends) = backends().await;
    // SQLite's: PostgreSQL writes game rows on its pool (`PostgresStore::batched`).
    for b in backends.iter().filter(|b| matches!(b, Backend::Sqlite(_))) {
        let s = b.store();
        let name = s.backend();
        let user = s
            .create_user(NewUser {
                username: "rated".into(),
                password_hash: None,
                guest: false,
                created_at: 1,
            })
            .await
            .unwrap()
            .id;
        // Five games playing (one rated), to end; five tables to start a game at.
        for i in 0..10 {
            table(&s, &format!("t{i}")).await;
        }
        for i in 0..5 {
            let rated = (i == 0).then_some(user);
            s.start_game(&new_game(&format!("t{i}"), rated))
                .await
                .unwrap();
        }
        let before = s.writer_stats();
        let pause = b.pause().await;
        let mut writes: Vec<tokio::task::JoinHandle<Result<()>>> = Vec::new();
        for i in 0..5 {
            let s2 = s.clone();
            writes.push(tokio::spawn(async move {
                s2.create_table(&TableRow {
                    id: format!("n{i}"),
                    game: "g".into(),
                    config: "{}".into(),
                    open: true,
                    created_at: 2,
                })
                .await
            }));
            let s2 = s.clone();
            writes.push(tokio::spawn(async move {
                s2.start_game(&new_game(&format!("t{}", i + 5), None)).await
            }));
            let s2 = s.clone();
            let rated = (i == 0).then_some(user);
            writes.push(tokio::spawn(async move {
                assert!(s2.finish_game(&finish(&format!("t{i}"), rated)).await?);
                Ok(())
            }));
        }
        // A taken table id: refused alone.
        let s2 = s.clone();
        let taken = tokio::spawn(async move {
            s2.create_table(&TableRow {
                id: "t1".into(),
                game: "g".into(),
                config: "{}".into(),
                open: true,
                created_at: 2,
            })
            .await
        });
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert!(
            writes.iter().all(|w| !w.is_finished()) && !taken.is_finished(),
            "{name}: a write was answered before its batch committed"
        );
        let game = s.game("t5").await.unwrap();
        assert!(game.is_none(), "{name}: nothing is written while paused");
        drop(pause);
        for w in writes {
            w.await.unwrap().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(
            matches!(taken.await.unwrap(), Err(StoreError::Conflict(_))),
            "{name}"
        );
        let after = s.writer_stats();
        assert_eq!(after.jobs - before.jobs, 16, "{name}: every write a job");
        assert_eq!(
            after.job_batches - before.job_batches,
            1,
            "{name}: one transaction for them all"
        );
        for i in 0..5 {
            let ended = s.game(&format!("t{i}")).await.unwrap().unwrap();
            assert_eq!(ended.status, GameStatus::Finished, "{name}");
            let started = s.game(&format!("t{}", i + 5)).await.unwrap().unwrap();
            assert_eq!(started.status, GameStatus::Live, "{name}");
            assert_eq!(started.players.len(), 2, "{name}");
            assert!(s.table(&format!("n{i}")).await.unwrap().is_some(), "{name}");
        }
        let rated = s.game("t0").await.unwrap().unwrap();
        assert_eq!(rated.players[0].rating_diff, Some(12), "{name}");
        let rating = s.rating(user, "g").await.unwrap().unwrap();
        assert_eq!(rating.games, 1, "{name}");
    }
}

/// A game's row sent right behind its entry's append (as a table does when a
/// command starts or ends a game) commits in the same round of the writer,
/// and only if the entry is stored: a row whose entry is not in the log is
/// not written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_row_goes_with_its_entry_and_never_without_it() {
    let (_dir, backends) = backends().await;
    // SQLite's: PostgreSQL writes game rows on its pool (`PostgresStore::batched`).
    for b in backends.iter().filter(|b| matches!(b, Backend::Sqlite(_))) {
        let s = b.store();
        let name = s.backend();
        table(&s, "w").await;
        let mark = |version, at| LogMark {
            table: "w".into(),
            version,
            at,
        };
        let before = s.writer_stats();
        let pause = b.pause().await;
        let s2 = s.clone();
        let started = tokio::spawn(async move {
            let entry = s2.append("w", 1, 100, "ready");
            let (game, at) = (new_game("w", None), mark(1, 100));
            let row = s2.start_game_after(&game, &at);
            let (entry, row) = tokio::join!(entry, row);
            entry.and(row)
        });
        until_waiting(b, 1).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!started.is_finished(), "{name}: answered before the commit");
        drop(pause);
        assert!(
            started.await.unwrap().unwrap(),
            "{name}: the row is written"
        );
        let after = s.writer_stats();
        assert_eq!(after.batches - before.batches, 1, "{name}");
        assert_eq!(after.job_batches - before.job_batches, 1, "{name}");
        assert_eq!(s.game("w").await.unwrap().unwrap().status, GameStatus::Live);
        // An end whose entry is not stored (another version, another time):
        // nothing written.
        let end = finish("w", None);
        assert_eq!(
            s.finish_game_after(&end, &mark(2, 200)).await.unwrap(),
            None
        );
        assert_eq!(
            s.finish_game_after(&end, &mark(1, 101)).await.unwrap(),
            None
        );
        assert_eq!(
            s.game("w").await.unwrap().unwrap().status,
            GameStatus::Live,
            "{name}"
        );
        s.append("w", 2, 200, "resign").await.unwrap();
        assert_eq!(
            s.finish_game_after(&end, &mark(2, 200)).await.unwrap(),
            Some(true)
        );
        assert_eq!(
            s.finish_game_after(&end, &mark(2, 200)).await.unwrap(),
            Some(false),
            "{name}: once"
        );
        assert_eq!(
            s.game("w").await.unwrap().unwrap().status,
            GameStatus::Finished
        );
        // A start whose entry is not stored: no row.
        table(&s, "v").await;
        let mut game = new_game("v", None);
        game.table_id = "v".into();
        let missing = LogMark {
            table: "v".into(),
            version: 1,
            at: 1,
        };
        assert!(
            !s.start_game_after(&game, &missing).await.unwrap(),
            "{name}"
        );
        assert!(s.game("v").await.unwrap().is_none(), "{name}");
    }
}
