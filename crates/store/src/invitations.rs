//! Invitations to a table (migration `0013_invitations` on SQLite,
//! `0014_invitations` on PostgreSQL): one to a named person, or a link that
//! seats whoever opens it first. Each has a secret token (its id) and is
//! answered once — accepted (by whom), declined (with the reason) or
//! withdrawn; [`InvitationStore::answer_invitation`] is the one place an
//! answer is taken, so of two people opening the same link at once one alone
//! is seated. The store knows nothing of tables or seats.

use async_trait::async_trait;

use crate::{PostgresStore, Result, SqliteStore, UserId};

/// A new invitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewInvitation {
    /// The secret that names it (in the link, for a link).
    pub token: String,
    pub table: String,
    pub from: UserId,
    /// The person invited; `None` for a link.
    pub to: Option<UserId>,
    pub at: i64,
}

/// An invitation as kept.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct InvitationRow {
    pub token: String,
    #[sqlx(rename = "table_id")]
    pub table: String,
    pub from_user: UserId,
    pub to_user: Option<UserId>,
    pub created_at: i64,
    /// `open`, `accepted`, `declined` or `withdrawn`.
    pub state: String,
    pub reason: Option<String>,
    /// Who accepted it (for a link, whoever opened it first).
    pub taken_by: Option<UserId>,
    pub answered_at: Option<i64>,
}

impl InvitationRow {
    pub fn is_open(&self) -> bool {
        self.state == "open"
    }
}

/// Invitations to tables.
#[async_trait]
pub trait InvitationStore: Send + Sync {
    async fn add_invitation(&self, invitation: &NewInvitation) -> Result<()>;
    async fn invitation(&self, token: &str) -> Result<Option<InvitationRow>>;
    /// Answers the open invitation `token` (`state`: `accepted`, `declined`,
    /// `withdrawn`) by `by`, with `reason`; false, and nothing written, if it
    /// was answered already or does not exist.
    async fn answer_invitation(
        &self,
        token: &str,
        state: &str,
        by: UserId,
        reason: Option<&str>,
        at: i64,
    ) -> Result<bool>;
    /// Opens again an invitation whose acceptance could not be carried out
    /// (the seat refused the person for a reason that may pass).
    async fn reopen_invitation(&self, token: &str) -> Result<()>;
    /// The open invitations to `user`, newest first, at most `limit`.
    async fn invitations_to(&self, user: UserId, limit: i64) -> Result<Vec<InvitationRow>>;
}

macro_rules! impl_invitations {
    ($store:ty) => {
        #[async_trait]
        impl InvitationStore for $store {
            async fn add_invitation(&self, i: &NewInvitation) -> Result<()> {
                let i = i.clone();
                self.write(move |c| Box::pin(async move {
                    sqlx::query(
                        "INSERT INTO invitations (token, table_id, from_user, to_user, created_at) \
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(&i.token)
                    .bind(&i.table)
                    .bind(i.from)
                    .bind(i.to)
                    .bind(i.at)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                }))
                .await
            }

            async fn invitation(&self, token: &str) -> Result<Option<InvitationRow>> {
                Ok(sqlx::query_as("SELECT * FROM invitations WHERE token = $1")
                    .bind(token)
                    .fetch_optional(&self.read)
                    .await?)
            }

            async fn answer_invitation(
                &self,
                token: &str,
                state: &str,
                by: UserId,
                reason: Option<&str>,
                at: i64,
            ) -> Result<bool> {
                let (token, state, reason) =
                    (token.to_string(), state.to_string(), reason.map(str::to_string));
                self.write(move |c| Box::pin(async move {
                    let done = sqlx::query(
                        "UPDATE invitations SET state = $2, taken_by = $3, reason = $4, answered_at = $5 \
                         WHERE token = $1 AND state = 'open'",
                    )
                    .bind(&token)
                    .bind(&state)
                    .bind(by)
                    .bind(&reason)
                    .bind(at)
                    .execute(&mut *c)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }))
                .await
            }

            async fn reopen_invitation(&self, token: &str) -> Result<()> {
                let token = token.to_string();
                self.write(move |c| Box::pin(async move {
                    sqlx::query(
                        "UPDATE invitations SET state = 'open', taken_by = NULL, reason = NULL, \
                         answered_at = NULL WHERE token = $1",
                    )
                    .bind(&token)
                    .execute(&mut *c)
                    .await?;
                    Ok(())
                }))
                .await
            }

            async fn invitations_to(&self, user: UserId, limit: i64) -> Result<Vec<InvitationRow>> {
                Ok(sqlx::query_as(
                    "SELECT * FROM invitations WHERE to_user = $1 AND state = 'open' \
                     ORDER BY created_at DESC LIMIT $2",
                )
                .bind(user)
                .bind(limit)
                .fetch_all(&self.read)
                .await?)
            }
        }
    };
}

impl_invitations!(SqliteStore);
impl_invitations!(PostgresStore);
