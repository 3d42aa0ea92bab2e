//! Duplicate events' boards, the same on both backends: an event's board
//! secrets are drawn once, a board is published once.

use std::sync::Arc;

use qiyuan_store::*;

async fn stores() -> (tempfile::TempDir, Vec<Arc<dyn Store>>) {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = open(dir.path().join("q.db").to_str().unwrap())
        .await
        .unwrap();
    let url = qiyuan_testkit::db::postgres_schema("store_duplicate");
    let pg = open(&url).await.unwrap_or_else(|e| {
        panic!("PostgreSQL is needed for the store tests and was not reachable at {url}: {e}")
    });
    (dir, vec![sqlite, pg])
}

#[tokio::test]
async fn boards_are_drawn_once_and_published_once() {
    let (_dir, stores) = stores().await;
    for s in stores {
        let name = s.backend();
        let organiser = s
            .create_user(NewUser {
                username: "organiser".into(),
                password_hash: None,
                guest: false,
                created_at: 1,
            })
            .await
            .unwrap();
        s.create_event(&EventRow {
            id: "e1".into(),
            organiser: organiser.id,
            game: "g".into(),
            config: "{}".into(),
            status: "running".into(),
            created_at: 1,
            updated_at: 1,
            end_reason: None,
        })
        .await
        .unwrap();
        let first: Vec<String> = (0..4).map(|b| format!("{b:064x}")).collect();
        assert!(s.put_board_secrets("e1", &first).await.unwrap(), "{name}");
        let again: Vec<String> = (0..4).map(|b| format!("{:064x}", b + 100)).collect();
        assert!(!s.put_board_secrets("e1", &again).await.unwrap(), "{name}");
        assert_eq!(s.board_secrets("e1").await.unwrap(), first, "{name}");
        let boards = s.event_boards("e1").await.unwrap();
        assert_eq!(boards.len(), 4, "{name}");
        assert!(boards.iter().all(|b| b.published_at.is_none()), "{name}");

        assert!(s.publish_board("e1", 0, 20).await.unwrap(), "{name}");
        assert!(!s.publish_board("e1", 0, 21).await.unwrap(), "{name}");
        assert_eq!(
            s.event_boards("e1").await.unwrap()[0].published_at,
            Some(20),
            "{name}"
        );
    }
}
