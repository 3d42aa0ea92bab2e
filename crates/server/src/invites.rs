//! Invitations to a table: a person at a table invites a named person
//! (`POST /api/invite/to/{name}`), who is told on every page they have open
//! (`notify` `invitation`, through the [`Notifier`], on every node) and
//! accepts — seated at the table's first free seat — or declines with a
//! reason the inviter is told; or makes a link (`POST
//! /api/table/{id}/invite-link`) that seats whoever opens it first (`POST
//! /api/invite/link/{token}`) and, once taken, says by whom.
//!
//! The rules: accounts only (a guest neither invites nor is invited: the
//! invitation is kept by account); the inviter sits at the table or opened
//! it; a private table (单机) has nobody to invite; a person who blocks the
//! inviter, or whom the inviter blocks, cannot be invited nor take their
//! link. Each invitation is answered once ([`qiyuan_store::InvitationStore`]
//! takes the answer atomically), so a link seats exactly one person; a seat
//! that could not be given opens the invitation again. The seat is given as
//! the server gives seats (an internal `sit`), which is how a table made for
//! the invited alone (`invite_only`, see `live`) lets them in.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use qiyuan_game::Seat;
use qiyuan_store::{InvitationRow, NewInvitation, User};
use qiyuan_table::Command;
use serde::Deserialize;

use crate::App;
use crate::error::{ApiError, ApiResult};
use crate::live::{TableHandle, TableKind};
use crate::people::Notifier;
use crate::protocol::invitations::{InvitationNote, InviteLink, LinkView, SeatedAt};
use crate::protocol::out::Notification;

/// The reasons a decline may give (shown to the inviter in their language).
pub const REASONS: &[&str] = &[
    "generic", "later", "busy", "tooFast", "tooSlow", "rated", "casual",
];

/// How many open invitations to them a person's pages list.
const LISTED: i64 = 50;

/// How many invitations and links one person makes in a minute, so that
/// nobody floods another's pages.
const PER_MINUTE: u32 = 20;

/// What the routes share: the app, and each inviter's count of invitations.
pub struct Invites {
    app: Arc<App>,
    limit: crate::auth::RateLimit,
}

impl Invites {
    /// Counts one invitation (or link) of `user`: `429 rate_limited` past
    /// [`PER_MINUTE`].
    fn count(&self, user: &User) -> ApiResult<()> {
        self.limit
            .hit(&user.id.to_string(), std::time::Instant::now())
            .map_err(|wait| crate::auth::rate_limited("too many invitations", wait))
    }
}

/// The invitations' routes.
pub fn routes<S: Clone + Send + Sync + 'static>(app: Arc<App>) -> Router<S> {
    let invites = Arc::new(Invites {
        app,
        limit: crate::auth::RateLimit::new(PER_MINUTE, std::time::Duration::from_secs(60)),
    });
    Router::new()
        .route("/api/invite", get(list))
        .route("/api/invite/to/{name}", post(invite))
        .route("/api/invite/{id}/accept", post(accept))
        .route("/api/invite/{id}/decline", post(decline))
        .route("/api/invite/link/{token}", get(link).post(take_link))
        .route("/api/table/{id}/invite-link", post(make_link))
        .with_state(invites)
}

fn notifier(app: &App) -> Notifier {
    Notifier::new(app.people.clone(), app.cluster.clone())
}

/// The caller, who must have an account.
async fn account(app: &App, headers: &HeaderMap) -> ApiResult<User> {
    let user = app.accounts.require_user(headers).await?;
    if user.guest {
        return Err(ApiError::forbidden(
            "guest_invite",
            "guests neither invite nor are invited: register to play with friends",
        ));
    }
    Ok(user)
}

/// A new invitation's secret: 24 letters and digits.
fn token() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    (0..24)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

/// The live table `id`, which must not be private.
async fn table(app: &Arc<App>, id: &str) -> ApiResult<TableHandle> {
    if TableKind::of_stored(id).is_private() {
        return Err(TableKind::refused());
    }
    app.table(id)
        .await
        .ok_or_else(|| ApiError::not_found(format!("no live table {id}")))
}

/// Whether `user` may invite to `handle`'s table: they sit there or opened it.
fn at_table(handle: &TableHandle, user: &User) -> ApiResult<()> {
    let owner = handle.owner.as_ref().is_some_and(|o| o.id == user.id);
    if owner || handle.sitting.has(&user.username) {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "not_at_table",
            "only a player at the table (or who opened it) invites to it",
        ))
    }
}

/// Refuses anything between two people one of whom blocks the other.
async fn not_blocked(app: &App, me: &User, other: &User) -> ApiResult<()> {
    if crate::relations::is_blocked(&*app.store, other.id, me.id).await? {
        return Err(crate::relations::blocked(&other.username));
    }
    if crate::relations::is_blocked(&*app.store, me.id, other.id).await? {
        return Err(ApiError::forbidden(
            "blocking",
            format!("you block {}: unblock them first", other.username),
        ));
    }
    Ok(())
}

/// Seats `user` at the first free seat of `handle`'s table, as the server
/// seats people (within their cap of tables).
async fn seat(app: &App, handle: &TableHandle, user: &User) -> ApiResult<u8> {
    app.tables
        .check_held(&user.username, app.config.max_tables_per_user)?;
    let seats = app.games.get(handle.game).map_or(2, |g| g.seats);
    for seat in 0..seats {
        let sit = Command::Sit {
            user: user.username.clone(),
            seat: Seat(seat),
        };
        if handle.internal(vec![sit]).await?.is_ok() {
            return Ok(seat);
        }
    }
    Err(ApiError::new(
        StatusCode::CONFLICT,
        "seat_taken",
        format!("no seat is free at table {} any more", handle.id),
    ))
}

/// An invitation's row, its inviter's name and its table's game.
async fn note_of(
    app: &Arc<App>,
    row: &InvitationRow,
    to: &str,
    reason: Option<String>,
) -> ApiResult<InvitationNote> {
    let from = app
        .store
        .user(row.from_user)
        .await?
        .map(|u| u.username)
        .unwrap_or_default();
    let game = match app.table(&row.table).await {
        Some(h) => h.game.to_string(),
        None => String::new(),
    };
    Ok(InvitationNote {
        id: row.token.clone(),
        from,
        to: to.to_string(),
        table: row.table.clone(),
        game,
        reason,
    })
}

/// The invitation `id` to `me`, or `404`.
async fn mine(app: &App, me: &User, id: &str) -> ApiResult<InvitationRow> {
    app.store
        .invitation(id)
        .await?
        .filter(|r| r.to_user == Some(me.id))
        .ok_or_else(|| ApiError::not_found("no such invitation"))
}

#[derive(Debug, Deserialize)]
struct InviteBody {
    table: String,
}

#[derive(Debug, Default, Deserialize)]
struct DeclineBody {
    #[serde(default)]
    reason: Option<String>,
}

fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> ApiResult<T> {
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request("bad_body", format!("cannot read the body: {e}")))
}

/// `POST /api/invite/to/{name}` with `{"table": id}`: the invitation, told
/// to both on every page.
async fn invite(
    State(invites): State<Arc<Invites>>,
    headers: HeaderMap,
    Path(name): Path<String>,
    bytes: Bytes,
) -> ApiResult<Json<InvitationNote>> {
    let app = &invites.app;
    let me = account(app, &headers).await?;
    let InviteBody { table: id } = body(&bytes)?;
    invites.count(&me)?;
    let other = app
        .store
        .user_by_name(&crate::auth::normalize_username(&name))
        .await?
        .filter(|u| !u.guest)
        .ok_or_else(|| ApiError::not_found(format!("no account {name}")))?;
    if other.id == me.id {
        return Err(ApiError::bad_request(
            "self_invite",
            "you cannot invite yourself",
        ));
    }
    not_blocked(app, &me, &other).await?;
    let handle = table(app, &id).await?;
    at_table(&handle, &me)?;
    if handle.sitting.has(&other.username) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "already_seated",
            format!("{} sits at this table already", other.username),
        ));
    }
    let invitation = NewInvitation {
        token: token(),
        table: handle.id.clone(),
        from: me.id,
        to: Some(other.id),
        at: crate::now_ms(),
    };
    app.store.add_invitation(&invitation).await?;
    let note = InvitationNote {
        id: invitation.token,
        from: me.username.clone(),
        to: other.username.clone(),
        table: handle.id.clone(),
        game: handle.game.to_string(),
        reason: None,
    };
    tracing::info!(from = %me.username, to = %other.username, table = %handle.id, "invitation");
    let people = notifier(app);
    people.notify(other.id, Notification::Invitation(note.clone()));
    people.notify(me.id, Notification::Invitation(note.clone()));
    Ok(Json(note))
}

/// `GET /api/invite`: the open invitations to the caller, newest first (a
/// page that opens reads what it missed here).
async fn list(
    State(invites): State<Arc<Invites>>,
    headers: HeaderMap,
) -> ApiResult<Json<Vec<InvitationNote>>> {
    let app = &invites.app;
    let me = account(app, &headers).await?;
    let mut notes = Vec::new();
    for row in app.store.invitations_to(me.id, LISTED).await? {
        // Tables that closed have nothing to offer.
        if app.table(&row.table).await.is_some() {
            notes.push(note_of(app, &row, &me.username, None).await?);
        }
    }
    Ok(Json(notes))
}

/// `POST /api/invite/{id}/accept`: the invited person sits at the table's
/// first free seat; both are told.
async fn accept(
    State(invites): State<Arc<Invites>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<SeatedAt>> {
    let app = &invites.app;
    let me = account(app, &headers).await?;
    let row = mine(app, &me, &id).await?;
    if !row.is_open() {
        return Err(answered(&row));
    }
    let handle = table(app, &row.table).await?;
    if !app
        .store
        .answer_invitation(&id, "accepted", me.id, None, crate::now_ms())
        .await?
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "invitation_answered",
            "this invitation was answered already",
        ));
    }
    let seat = match seat(app, &handle, &me).await {
        Ok(seat) => seat,
        Err(e) => {
            app.store.reopen_invitation(&id).await?;
            return Err(e);
        }
    };
    let note = note_of(app, &row, &me.username, None).await?;
    let people = notifier(app);
    people.notify(
        row.from_user,
        Notification::InvitationAccepted(note.clone()),
    );
    people.notify(me.id, Notification::InvitationAccepted(note));
    Ok(Json(SeatedAt {
        table: handle.id,
        seat,
    }))
}

/// The refusal of an invitation answered before.
fn answered(row: &InvitationRow) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "invitation_answered",
        format!("this invitation was {} already", row.state),
    )
}

/// `POST /api/invite/{id}/decline` with `{"reason": key}` (one of
/// [`REASONS`]; `generic` if none): the inviter is told the reason.
async fn decline(
    State(invites): State<Arc<Invites>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    bytes: Bytes,
) -> ApiResult<Json<InvitationNote>> {
    let app = &invites.app;
    let me = account(app, &headers).await?;
    let DeclineBody { reason } = if bytes.is_empty() {
        DeclineBody::default()
    } else {
        body(&bytes)?
    };
    let reason = reason.unwrap_or_else(|| "generic".into());
    if !REASONS.contains(&reason.as_str()) {
        return Err(ApiError::bad_request(
            "unknown_reason",
            format!("a decline's reason is one of {}", REASONS.join(", ")),
        ));
    }
    let row = mine(app, &me, &id).await?;
    if !app
        .store
        .answer_invitation(&id, "declined", me.id, Some(&reason), crate::now_ms())
        .await?
    {
        return Err(answered(&row));
    }
    let note = note_of(app, &row, &me.username, Some(reason)).await?;
    let people = notifier(app);
    people.notify(
        row.from_user,
        Notification::InvitationDeclined(note.clone()),
    );
    people.notify(me.id, Notification::InvitationDeclined(note.clone()));
    Ok(Json(note))
}

/// `POST /api/table/{id}/invite-link`: a new link that seats whoever opens
/// it first (made by a player at the table, or who opened it).
async fn make_link(
    State(invites): State<Arc<Invites>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<InviteLink>)> {
    let app = &invites.app;
    let me = account(app, &headers).await?;
    invites.count(&me)?;
    let handle = table(app, &id).await?;
    at_table(&handle, &me)?;
    let invitation = NewInvitation {
        token: token(),
        table: handle.id.clone(),
        from: me.id,
        to: None,
        at: crate::now_ms(),
    };
    app.store.add_invitation(&invitation).await?;
    Ok((
        StatusCode::CREATED,
        Json(InviteLink {
            url: format!("/#/join/{}", invitation.token),
            token: invitation.token,
            table: handle.id,
        }),
    ))
}

/// A link's row, or `404` (an invitation to a person is no link).
async fn link_row(app: &App, token: &str) -> ApiResult<InvitationRow> {
    app.store
        .invitation(token)
        .await?
        .filter(|r| r.to_user.is_none())
        .ok_or_else(|| ApiError::not_found("no such invite link"))
}

async fn name_of(app: &App, id: Option<i64>) -> ApiResult<Option<String>> {
    Ok(match id {
        Some(id) => app.store.user(id).await?.map(|u| u.username),
        None => None,
    })
}

/// `GET /api/invite/link/{token}`: the table a link offers, and whether its
/// seat is still free (anyone with the link may ask).
async fn link(
    State(invites): State<Arc<Invites>>,
    Path(token): Path<String>,
) -> ApiResult<Json<LinkView>> {
    let app = &invites.app;
    let row = link_row(app, &token).await?;
    let handle = app.table(&row.table).await;
    Ok(Json(LinkView {
        game: handle
            .as_ref()
            .map(|h| h.game.to_string())
            .unwrap_or_default(),
        open: row.is_open() && handle.is_some(),
        from: name_of(app, Some(row.from_user)).await?.unwrap_or_default(),
        taken_by: name_of(app, row.taken_by).await?,
        table: row.table,
    }))
}

/// `POST /api/invite/link/{token}`: the caller takes the link's seat (the
/// first free one at its table), unless someone took it before (`409
/// invite_taken`, naming them); whoever made the link is told.
async fn take_link(
    State(invites): State<Arc<Invites>>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> ApiResult<Json<SeatedAt>> {
    let app = &invites.app;
    let me = account(app, &headers).await?;
    let row = link_row(app, &token).await?;
    let taken = |by: Option<String>| {
        ApiError::new(
            StatusCode::CONFLICT,
            "invite_taken",
            format!(
                "this link's seat is taken (by {})",
                by.unwrap_or_else(|| "someone".into())
            ),
        )
    };
    if row.from_user == me.id {
        return Err(ApiError::bad_request(
            "self_invite",
            "this is your own link: send it to the person you invite",
        ));
    }
    if !row.is_open() {
        return Err(taken(name_of(app, row.taken_by).await?));
    }
    if let Some(maker) = app.store.user(row.from_user).await? {
        not_blocked(app, &me, &maker).await?;
    }
    let handle = table(app, &row.table).await?;
    if !app
        .store
        .answer_invitation(&token, "accepted", me.id, None, crate::now_ms())
        .await?
    {
        let now = link_row(app, &token).await?;
        return Err(taken(name_of(app, now.taken_by).await?));
    }
    let seat = match seat(app, &handle, &me).await {
        Ok(seat) => seat,
        Err(e) => {
            app.store.reopen_invitation(&token).await?;
            return Err(e);
        }
    };
    let note = note_of(app, &row, &me.username, None).await?;
    notifier(app).notify(row.from_user, Notification::InvitationAccepted(note));
    Ok(Json(SeatedAt {
        table: handle.id,
        seat,
    }))
}
