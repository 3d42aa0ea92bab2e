//! Schema migrations, one list per backend. Each is applied once, in its own
//! transaction, and recorded in `qiyuan_schema`.

/// (version, SQL) for SQLite.
pub const SQLITE: &[(i64, &str)] = &[
    (1, include_str!("../migrations/sqlite/0001_init.sql")),
    (2, include_str!("../migrations/sqlite/0002_hardening.sql")),
    (3, include_str!("../migrations/sqlite/0003_points.sql")),
    (4, include_str!("../migrations/sqlite/0004_settings.sql")),
    (5, include_str!("../migrations/sqlite/0005_api_tokens.sql")),
    (6, include_str!("../migrations/sqlite/0006_events.sql")),
    (7, include_str!("../migrations/sqlite/0007_leases.sql")),
    (
        8,
        include_str!("../migrations/sqlite/0008_private_games.sql"),
    ),
    (
        9,
        include_str!("../migrations/sqlite/0009_username_marks.sql"),
    ),
    (10, include_str!("../migrations/sqlite/0010_relations.sql")),
    (11, include_str!("../migrations/sqlite/0011_chat.sql")),
    (12, include_str!("../migrations/sqlite/0012_chat_rooms.sql")),
    (
        13,
        include_str!("../migrations/sqlite/0013_invitations.sql"),
    ),
    (15, include_str!("../migrations/sqlite/0015_event_end.sql")),
    (
        17,
        include_str!("../migrations/sqlite/0017_arbiter_roles.sql"),
    ),
    (19, include_str!("../migrations/sqlite/0019_node_beats.sql")),
    (
        20,
        include_str!("../migrations/sqlite/0020_card_events.sql"),
    ),
    (21, include_str!("../migrations/sqlite/0021_duplicate.sql")),
    (22, include_str!("../migrations/sqlite/0022_table_chat.sql")),
    (
        23,
        include_str!("../migrations/sqlite/0023_played_deal.sql"),
    ),
];

/// (version, SQL) for PostgreSQL.
pub const POSTGRES: &[(i64, &str)] = &[
    (1, include_str!("../migrations/postgres/0001_init.sql")),
    (2, include_str!("../migrations/postgres/0002_hardening.sql")),
    (3, include_str!("../migrations/postgres/0003_points.sql")),
    (4, include_str!("../migrations/postgres/0004_settings.sql")),
    (
        5,
        include_str!("../migrations/postgres/0005_api_tokens.sql"),
    ),
    (6, include_str!("../migrations/postgres/0006_events.sql")),
    (7, include_str!("../migrations/postgres/0007_leases.sql")),
    (
        8,
        include_str!("../migrations/postgres/0008_log_without_foreign_key.sql"),
    ),
    (
        9,
        include_str!("../migrations/postgres/0009_private_games.sql"),
    ),
    (
        10,
        include_str!("../migrations/postgres/0010_username_marks.sql"),
    ),
    (
        11,
        include_str!("../migrations/postgres/0011_relations.sql"),
    ),
    (12, include_str!("../migrations/postgres/0012_chat.sql")),
    (
        13,
        include_str!("../migrations/postgres/0013_chat_rooms.sql"),
    ),
    (
        14,
        include_str!("../migrations/postgres/0014_invitations.sql"),
    ),
    (
        16,
        include_str!("../migrations/postgres/0016_event_end.sql"),
    ),
    (
        17,
        include_str!("../migrations/postgres/0017_arbiter_roles.sql"),
    ),
    (
        19,
        include_str!("../migrations/postgres/0019_node_beats.sql"),
    ),
    (
        20,
        include_str!("../migrations/postgres/0020_card_events.sql"),
    ),
    (
        21,
        include_str!("../migrations/postgres/0021_duplicate.sql"),
    ),
    (
        22,
        include_str!("../migrations/postgres/0022_table_chat.sql"),
    ),
    (
        23,
        include_str!("../migrations/postgres/0023_played_deal.sql"),
    ),
];

/// Applies the migrations a pool has not seen. Written once for both backends.
macro_rules! run_migrations {
    ($pool:expr, $list:expr) => {{
        sqlx::raw_sql(
            "CREATE TABLE IF NOT EXISTS qiyuan_schema (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
        )
        .execute($pool)
        .await?;
        for (version, sql) in $list {
            let done: Option<i64> =
                sqlx::query_scalar("SELECT version FROM qiyuan_schema WHERE version = $1")
                    .bind(*version)
                    .fetch_optional($pool)
                    .await?;
            if done.is_some() {
                continue;
            }
            let mut tx = $pool.begin().await?;
            sqlx::raw_sql(sql).execute(&mut *tx).await?;
            sqlx::query("INSERT INTO qiyuan_schema (version, applied_at) VALUES ($1, $2)")
                .bind(*version)
                .bind($crate::backend::now_ms())
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            tracing::info!(version, "applied schema migration");
        }
        Ok::<(), $crate::StoreError>(())
    }};
}
pub(crate) use run_migrations;
