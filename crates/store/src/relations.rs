//! Relations between people (migration `0010_relations` on SQLite,
//! `0011_relations` on PostgreSQL): who follows whom — two people who follow
//! each other are friends (好友) — and who blocks whom. A block ends the follows
//! between the two both ways, and nobody follows a person who blocks them.

use async_trait::async_trait;
use sqlx::Connection as _;

use crate::{PostgresStore, Result, SqliteStore, UserId};

/// A person someone follows.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Followed {
    #[sqlx(rename = "id")]
    pub user: UserId,
    pub username: String,
    /// When the follow began (ms since the epoch).
    pub since: i64,
    /// Whether they follow back: the two are friends.
    pub mutual: bool,
}

/// A person someone blocks.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Blocked {
    #[sqlx(rename = "id")]
    pub user: UserId,
    pub username: String,
    pub since: i64,
}

/// Where one person stands with another, both ways.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct Relation {
    /// The first follows the second.
    pub following: bool,
    /// The second follows the first.
    pub followed_by: bool,
    /// The first blocks the second.
    pub blocking: bool,
    /// The second blocks the first.
    pub blocked_by: bool,
}

impl Relation {
    /// Two who follow each other are friends.
    pub fn friends(&self) -> bool {
        self.following && self.followed_by
    }
}

/// Follows and blocks.
#[async_trait]
pub trait RelationStore: Send + Sync {
    /// `user` follows `other` from `now`; false if they did already, or if
    /// `other` blocks `user` (nothing is written then).
    async fn follow(&self, user: UserId, other: UserId, now: i64) -> Result<bool>;
    /// `user` stops following `other`; false if they did not.
    async fn unfollow(&self, user: UserId, other: UserId) -> Result<bool>;
    /// `user` blocks `other` from `now`, and the follows between the two end
    /// (both ways), in one transaction; false if the block existed.
    async fn block(&self, user: UserId, other: UserId, now: i64) -> Result<bool>;
    /// `user` stops blocking `other`; false if they did not.
    async fn unblock(&self, user: UserId, other: UserId) -> Result<bool>;
    /// Whether `blocker` blocks `blocked`.
    async fn is_blocked(&self, blocker: UserId, blocked: UserId) -> Result<bool>;
    /// Where `user` stands with `other`, both ways.
    async fn relation(&self, user: UserId, other: UserId) -> Result<Relation>;
    /// The people `user` follows, by name, each with whether they follow back.
    async fn following(&self, user: UserId) -> Result<Vec<Followed>>;
    /// The ids of the people who follow `user`.
    async fn followers(&self, user: UserId) -> Result<Vec<UserId>>;
    /// The people `user` blocks, by name.
    async fn blocked(&self, user: UserId) -> Result<Vec<Blocked>>;
}

macro_rules! impl_relations {
    ($store:ty) => {
        #[async_trait]
        impl RelationStore for $store {
            async fn follow(&self, user: UserId, other: UserId, now: i64) -> Result<bool> {
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query(
                        "INSERT INTO follows (user_id, followed, created_at) \
                         SELECT $1, $2, $3 WHERE NOT EXISTS \
                         (SELECT 1 FROM blocks WHERE user_id = $2 AND blocked = $1) \
                         ON CONFLICT (user_id, followed) DO NOTHING",
                    )
                    .bind(user)
                    .bind(other)
                    .bind(now)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn unfollow(&self, user: UserId, other: UserId) -> Result<bool> {
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query("DELETE FROM follows WHERE user_id = $1 AND followed = $2")
                        .bind(user)
                        .bind(other)
                        .execute(&mut *c)
                        .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn block(&self, user: UserId, other: UserId, now: i64) -> Result<bool> {
                self.write(move |c| Box::pin(async move {
                    let mut tx = c.begin().await?;
                    let done = sqlx::query(
                        "INSERT INTO blocks (user_id, blocked, created_at) VALUES ($1, $2, $3) \
                         ON CONFLICT (user_id, blocked) DO NOTHING",
                    )
                    .bind(user)
                    .bind(other)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "DELETE FROM follows WHERE (user_id = $1 AND followed = $2) \
                         OR (user_id = $2 AND followed = $1)",
                    )
                    .bind(user)
                    .bind(other)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn unblock(&self, user: UserId, other: UserId) -> Result<bool> {
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query("DELETE FROM blocks WHERE user_id = $1 AND blocked = $2")
                        .bind(user)
                        .bind(other)
                        .execute(&mut *c)
                        .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn is_blocked(&self, blocker: UserId, blocked: UserId) -> Result<bool> {
                let found: Option<i64> = sqlx::query_scalar(
                    "SELECT user_id FROM blocks WHERE user_id = $1 AND blocked = $2",
                )
                .bind(blocker)
                .bind(blocked)
                .fetch_optional(&self.read)
                .await?;
                Ok(found.is_some())
            }

            async fn relation(&self, user: UserId, other: UserId) -> Result<Relation> {
                Ok(sqlx::query_as(
                    "SELECT \
                     EXISTS (SELECT 1 FROM follows WHERE user_id = $1 AND followed = $2) AS following, \
                     EXISTS (SELECT 1 FROM follows WHERE user_id = $2 AND followed = $1) AS followed_by, \
                     EXISTS (SELECT 1 FROM blocks WHERE user_id = $1 AND blocked = $2) AS blocking, \
                     EXISTS (SELECT 1 FROM blocks WHERE user_id = $2 AND blocked = $1) AS blocked_by",
                )
                .bind(user)
                .bind(other)
                .fetch_one(&self.read)
                .await?)
            }

            async fn following(&self, user: UserId) -> Result<Vec<Followed>> {
                Ok(sqlx::query_as(
                    "SELECT u.id, u.username, f.created_at AS since, \
                     EXISTS (SELECT 1 FROM follows b WHERE b.user_id = f.followed AND b.followed = f.user_id) AS mutual \
                     FROM follows f JOIN users u ON u.id = f.followed \
                     WHERE f.user_id = $1 ORDER BY u.username",
                )
                .bind(user)
                .fetch_all(&self.read)
                .await?)
            }

            async fn followers(&self, user: UserId) -> Result<Vec<UserId>> {
                Ok(sqlx::query_scalar("SELECT user_id FROM follows WHERE followed = $1")
                    .bind(user)
                    .fetch_all(&self.read)
                    .await?)
            }

            async fn blocked(&self, user: UserId) -> Result<Vec<Blocked>> {
                Ok(sqlx::query_as(
                    "SELECT u.id, u.username, b.created_at AS since \
                     FROM blocks b JOIN users u ON u.id = b.blocked \
                     WHERE b.user_id = $1 ORDER BY u.username",
                )
                .bind(user)
                .fetch_all(&self.read)
                .await?)
            }
        }
    };
}

impl_relations!(SqliteStore);
impl_relations!(PostgresStore);
