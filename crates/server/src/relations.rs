//! Relations between people: follow and unfollow (two who follow each other
//! are friends, 好友), block and unblock, and the presence of the people one
//! follows — offline, online, playing or watching — read from this node's
//! sockets (who is connected, which tables they watch) and its live tables
//! (who sits where). A block ends the follows between the two both ways; a
//! blocked person cannot follow the blocker again nor challenge them
//! (`lichess::challenges` asks the store's `is_blocked`, as any feature that
//! refuses a blocked person should: [`is_blocked`]).
//!
//! A person's presence is pushed to their followers' sockets as it changes
//! (`rel.presence`): [`tell_presence`] hears of sockets coming, going and
//! watching from the sockets, and of games starting and ending from the
//! tables' events.
//!
//! Routes: `GET /api/rel/following`, `GET /api/rel/with/{name}`, and `POST
//! /api/rel/{follow,unfollow,block,unblock}/{name}`, each answering where the
//! caller now stands with that person ([`RelationView`]). Accounts only: a
//! guest neither follows nor blocks, and nobody follows a guest.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use qiyuan_store::{Store, User, UserId};

use crate::accounts::Accounts;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::protocol::ServerMsg;
use crate::protocol::relations::{FollowedPerson, Following, Presence, PresenceMsg, RelationView};
use crate::ws::Sockets;

/// What the relations' routes share: the store, who the caller is, and where
/// people are (this node's sockets and live tables).
pub struct Relations {
    pub store: Arc<dyn Store>,
    pub accounts: Arc<Accounts>,
    pub sockets: Arc<Sockets>,
    pub tables: Arc<live::Registry>,
    /// Where people are as the other nodes see them.
    pub people: Arc<crate::people::Hub>,
    /// With several nodes: where this node tells what it sees of people.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
}

/// Whether `blocker` blocks `blocked`: whoever refuses a blocked person
/// (challenges, invitations, messages, chat) asks this.
pub async fn is_blocked(store: &dyn Store, blocker: UserId, blocked: UserId) -> ApiResult<bool> {
    Ok(store.is_blocked(blocker, blocked).await?)
}

/// The relations' routes.
pub fn routes<S: Clone + Send + Sync + 'static>(relations: Arc<Relations>) -> Router<S> {
    Router::new()
        .route("/api/rel/following", get(following))
        .route("/api/rel/with/{name}", get(with))
        .route("/api/rel/follow/{name}", post(follow))
        .route("/api/rel/unfollow/{name}", post(unfollow))
        .route("/api/rel/block/{name}", post(block))
        .route("/api/rel/unblock/{name}", post(unblock))
        .with_state(relations)
}

impl Relations {
    /// The caller, who must have an account.
    async fn account(&self, headers: &HeaderMap) -> ApiResult<User> {
        let user = self.accounts.require_user(headers).await?;
        if user.guest {
            return Err(ApiError::forbidden(
                "guest_relations",
                "guests neither follow nor block: register to keep friends",
            ));
        }
        Ok(user)
    }

    /// The person named `name`, who is not `me`.
    async fn other(&self, me: &User, name: &str) -> ApiResult<User> {
        let other = self
            .store
            .user_by_name(&crate::auth::normalize_username(name))
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no user {name}")))?;
        if other.id == me.id {
            return Err(ApiError::bad_request(
                "self_relation",
                "you cannot follow or block yourself",
            ));
        }
        Ok(other)
    }

    async fn view(&self, me: &User, other: &User) -> ApiResult<Json<RelationView>> {
        Ok(Json(self.store.relation(me.id, other.id).await?.into()))
    }

    /// Where each of `people` (id and name) is now, on every node: what this
    /// node sees ([`Relations::presence_here`]) merged with what the others
    /// told ([`Presence::merge`]).
    pub fn presence_of(&self, people: &[(UserId, &str)]) -> Vec<Presence> {
        self.presence_here(people)
            .into_iter()
            .zip(people)
            .map(|(here, (id, _))| here.merge(self.people.elsewhere(*id)))
            .collect()
    }

    /// Where each of `people` (id and name) is now, on this node: seated at a
    /// table with a game started, else watching a table, else connected,
    /// else offline.
    pub fn presence_here(&self, people: &[(UserId, &str)]) -> Vec<Presence> {
        let ids: HashSet<UserId> = people.iter().map(|(id, _)| *id).collect();
        let online: HashMap<UserId, Vec<String>> = self.sockets.online_among(&ids);
        people
            .iter()
            .map(|(id, name)| {
                let seats = self.tables.seats_of(name);
                if let Some((table, _)) = seats.iter().find(|(_, played)| *played) {
                    return Presence::Playing {
                        table: table.clone(),
                    };
                }
                let Some(watched) = online.get(id) else {
                    return Presence::Offline;
                };
                match watched
                    .iter()
                    .find(|t| !seats.iter().any(|(seat, _)| seat == *t))
                {
                    Some(table) => Presence::Watching {
                        table: table.clone(),
                    },
                    None => Presence::Online,
                }
            })
            .collect()
    }
}

/// `GET /api/rel/following`: the people the caller follows, friends marked,
/// with their presence; and the names of those they block.
async fn following(
    State(rel): State<Arc<Relations>>,
    headers: HeaderMap,
) -> ApiResult<Json<Following>> {
    let me = rel.account(&headers).await?;
    let followed = rel.store.following(me.id).await?;
    let people: Vec<(UserId, &str)> = followed
        .iter()
        .map(|f| (f.user, f.username.as_str()))
        .collect();
    let presence = rel.presence_of(&people);
    let following = followed
        .iter()
        .zip(presence)
        .map(|(f, presence)| FollowedPerson {
            username: f.username.clone(),
            friend: f.mutual,
            since: f.since,
            presence,
        })
        .collect();
    let blocked = rel
        .store
        .blocked(me.id)
        .await?
        .into_iter()
        .map(|b| b.username)
        .collect();
    Ok(Json(Following { following, blocked }))
}

/// `GET /api/rel/with/{name}`: where the caller stands with that person.
async fn with(
    State(rel): State<Arc<Relations>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> ApiResult<Json<RelationView>> {
    let me = rel.account(&headers).await?;
    let other = rel.other(&me, &name).await?;
    rel.view(&me, &other).await
}

/// `POST /api/rel/follow/{name}`: refused (`403 blocked`) when that person
/// blocks the caller; following a guest is `404`, as guests have no profile
/// to follow.
async fn follow(
    State(rel): State<Arc<Relations>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> ApiResult<Json<RelationView>> {
    let me = rel.account(&headers).await?;
    let other = rel.other(&me, &name).await?;
    if other.guest {
        return Err(ApiError::not_found(format!("no account {name}")));
    }
    if !rel.store.follow(me.id, other.id, crate::now_ms()).await?
        && rel.store.is_blocked(other.id, me.id).await?
    {
        return Err(blocked(&other.username));
    }
    rel.view(&me, &other).await
}

/// `POST /api/rel/unfollow/{name}`.
async fn unfollow(
    State(rel): State<Arc<Relations>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> ApiResult<Json<RelationView>> {
    let me = rel.account(&headers).await?;
    let other = rel.other(&me, &name).await?;
    rel.store.unfollow(me.id, other.id).await?;
    rel.view(&me, &other).await
}

/// `POST /api/rel/block/{name}`: the follows between the two end.
async fn block(
    State(rel): State<Arc<Relations>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> ApiResult<Json<RelationView>> {
    let me = rel.account(&headers).await?;
    let other = rel.other(&me, &name).await?;
    rel.store.block(me.id, other.id, crate::now_ms()).await?;
    rel.view(&me, &other).await
}

/// `POST /api/rel/unblock/{name}`.
async fn unblock(
    State(rel): State<Arc<Relations>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> ApiResult<Json<RelationView>> {
    let me = rel.account(&headers).await?;
    let other = rel.other(&me, &name).await?;
    rel.store.unblock(me.id, other.id).await?;
    rel.view(&me, &other).await
}

/// The refusal of what a blocked person asks of the one who blocks them.
pub fn blocked(who: &str) -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "blocked",
        format!("{who} does not accept that from you"),
    )
}

/// Pushes each person's presence to their followers' sockets here when it
/// changes: on a socket of theirs opening, closing, watching or unwatching
/// (`users`, from [`Sockets::tell_changes`]), on a game starting or ending
/// at a table where they sit (`events`), and on another node telling what it
/// sees of them (`elsewhere`, from [`crate::people::Hub::on_elsewhere`]).
/// With several nodes, what this node sees of a person is told to the others
/// as it changes (`BusMsg::Presence`). Runs until the server stops.
pub async fn tell_presence(
    rel: Arc<Relations>,
    mut users: tokio::sync::mpsc::UnboundedReceiver<i64>,
    mut elsewhere: tokio::sync::mpsc::UnboundedReceiver<UserId>,
    events: live::TableEvents,
    shutdown: tokio::sync::watch::Receiver<bool>,
) {
    use tokio::sync::broadcast::error::RecvError;
    let mut tables = events.subscribe();
    // What each person's followers were last told, and what the other nodes
    // were last told of them (offline people are forgotten).
    let mut told = Told::default();
    loop {
        tokio::select! {
            user = users.recv() => match user {
                Some(user) => {
                    if let Ok(Some(user)) = rel.store.user(user).await {
                        rel.tell(&mut told, &user).await;
                    }
                }
                None => break,
            },
            user = elsewhere.recv() => match user {
                Some(user) => {
                    if let Ok(Some(user)) = rel.store.user(user).await {
                        rel.tell(&mut told, &user).await;
                    }
                }
                None => break,
            },
            event = tables.recv() => match event {
                Ok(live::TableEvent::Moved { .. }) | Err(RecvError::Lagged(_)) => {}
                Ok(event) => {
                    for name in rel.tables.people_at(event.table()) {
                        if let Ok(Some(user)) = rel.store.user_by_name(&name).await {
                            rel.tell(&mut told, &user).await;
                        }
                    }
                }
                Err(RecvError::Closed) => break,
            },
            _ = crate::stopped(shutdown.clone()) => break,
        }
    }
}

/// What was told last, per person: to their followers here, and (with
/// several nodes) to the other nodes.
#[derive(Default)]
struct Told {
    followers: HashMap<UserId, Presence>,
    nodes: HashMap<UserId, Presence>,
}

/// Records `presence` as told to `to` for `user`: false if it was told
/// already (offline is what anyone unknown is).
fn news(to: &mut HashMap<UserId, Presence>, user: UserId, presence: &Presence) -> bool {
    if to.get(&user) == Some(presence)
        || (*presence == Presence::Offline && !to.contains_key(&user))
    {
        return false;
    }
    if *presence == Presence::Offline {
        to.remove(&user);
    } else {
        to.insert(user, presence.clone());
    }
    true
}

impl Relations {
    /// Tells the other nodes what this one sees of `user` if that changed,
    /// and `user`'s followers here where they are now (on every node), unless
    /// that is what they were last told.
    async fn tell(&self, told: &mut Told, user: &User) {
        let here = self
            .presence_here(&[(user.id, user.username.as_str())])
            .pop()
            .unwrap_or(Presence::Offline);
        if let Some(cluster) = &self.cluster
            && news(&mut told.nodes, user.id, &here)
        {
            let msg = crate::cluster::BusMsg::Presence {
                user: user.id,
                presence: here.clone(),
            };
            cluster.send_all(&msg).await;
        }
        let presence = here.merge(self.people.elsewhere(user.id));
        if !news(&mut told.followers, user.id, &presence) {
            return;
        }
        let followers = match self.store.followers(user.id).await {
            Ok(followers) => followers,
            Err(e) => {
                tracing::warn!("cannot read {}'s followers: {e}", user.username);
                return;
            }
        };
        if followers.is_empty() {
            return;
        }
        let text = ServerMsg::RelPresence(PresenceMsg {
            username: user.username.clone(),
            presence,
        })
        .encode(None);
        for follower in followers {
            self.sockets.send_to_user(follower, &text);
        }
    }
}
