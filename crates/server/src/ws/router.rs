//! A connection's messages, parsed at the edge and routed: to the lobby, to a
//! feature (new tables, seeks, analysis) or to a table's task.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;
use tokio::task::JoinHandle;

use crate::App;
use crate::error::ApiError;
use crate::live::{self, Conn, TableMsg};
use crate::protocol::out::LobbyPage;
use crate::protocol::{self, Ack, ClientMsg, HallMsg, Request, ServerMsg};

/// One connection's messages, each routed to the lobby, a feature or a
/// table's task, and what the connection is subscribed to.
pub(super) struct Router {
    app: Arc<App>,
    conn: Conn,
    tables: HashSet<String>,
    lobbies: HashMap<String, JoinHandle<()>>,
    /// The analysis board's search, stopped when the socket closes.
    analysis: crate::analysis::Running,
    /// The events whose changes the socket is told (their pages are open).
    events: HashMap<String, crate::people::Follow>,
}

/// The most events one socket follows at once.
const MAX_FOLLOWED_EVENTS: usize = 8;

impl Router {
    pub(super) fn new(app: Arc<App>, conn: Conn) -> Router {
        Router {
            app,
            conn,
            tables: HashSet::new(),
            lobbies: HashMap::new(),
            analysis: Default::default(),
            events: HashMap::new(),
        }
    }

    pub(super) fn reply_error(&self, err: &ApiError, id: Option<&Value>) {
        self.conn.reply(&ServerMsg::error(err, None), id);
    }

    pub(super) async fn on_text(&mut self, text: &str) {
        if text.len() > self.app.config.max_message_bytes {
            let err = ApiError::bad_request(
                "too_large",
                format!(
                    "a message may have at most {} bytes; this one has {}",
                    self.app.config.max_message_bytes,
                    text.len()
                ),
            );
            self.reply_error(&err, None);
            return;
        }
        match protocol::parse(text) {
            Ok(req) => {
                if let Err(err) = self.on_request(&req).await {
                    let table = match &req.msg {
                        ClientMsg::Table(cmd) => Some(cmd.table()),
                        ClientMsg::Hall(HallMsg::Watch(w) | HallMsg::Unwatch(w)) => {
                            Some(w.table.as_str())
                        }
                        ClientMsg::Hall(HallMsg::Chat(c)) => Some(c.table.as_str()),
                        ClientMsg::Hall(HallMsg::ChatSpectators(c)) => Some(c.table.as_str()),
                        ClientMsg::Hall(HallMsg::ChatPlayers(c)) => Some(c.table.as_str()),
                        ClientMsg::Hall(_) => None,
                    };
                    self.conn
                        .reply(&ServerMsg::error(&err, table), req.id.as_ref());
                }
            }
            Err((err, id)) => self.reply_error(&err, id.as_ref()),
        }
    }

    async fn table(&self, id: &str) -> Result<live::TableHandle, ApiError> {
        // Several nodes: a table another node owns, through its proxy here.
        self.app
            .table(id)
            .await
            .ok_or_else(|| ApiError::not_found(format!("no live table {id}")))
    }

    /// The socket is at a table from now on (it watches it or acts there):
    /// it is told the table's events, and it is in the table's chat rooms
    /// (a private table's only for its owner, the one person it admits).
    async fn enter(&mut self, handle: &live::TableHandle) {
        self.at_table(&handle.id, true);
        let owner = match (&handle.owner, &self.conn.user) {
            (Some(owner), Some(user)) => owner.id == user.id,
            _ => false,
        };
        let invited = !handle.invite_only
            || owner
            || self
                .conn
                .user
                .as_ref()
                .is_some_and(|u| handle.sitting.has(&u.username));
        if owner || (!live::TableKind::of_stored(&handle.id).is_private() && invited) {
            self.app
                .chat
                .join(
                    &handle.id,
                    &handle.sitting,
                    handle.owner.as_ref().map(|o| o.id),
                    &self.conn,
                )
                .await;
        }
    }

    /// The socket is at `table` now (`at`), or no more; its lag is wanted
    /// (its pings frequent) while it is at any.
    fn at_table(&mut self, table: &str, at: bool) {
        if at {
            self.tables.insert(table.to_string());
        } else {
            self.tables.remove(table);
        }
        self.conn.lag.set_at_table(!self.tables.is_empty());
    }

    async fn send_table(&self, handle: &live::TableHandle, msg: TableMsg) -> Result<(), ApiError> {
        handle
            .tx
            .send(msg)
            .await
            .map_err(|_| ApiError::not_found(format!("table {} has closed", handle.id)))
    }

    async fn on_request(&mut self, req: &Request) -> Result<(), ApiError> {
        let id = req.id.as_ref();
        let msg = match &req.msg {
            ClientMsg::Hall(msg) => msg,
            ClientMsg::Table(cmd) => return self.on_command(cmd.clone(), req.id.clone()).await,
        };
        match msg {
            HallMsg::Ping(protocol::client::Ping { lag }) => {
                if let Some(lag) = lag {
                    self.conn.lag.report(*lag);
                }
                let pong = ServerMsg::Pong {
                    server_time: crate::now_ms(),
                };
                self.conn.reply(&pong, id);
            }
            HallMsg::LobbySubscribe(protocol::client::LobbyRoom { game }) => {
                if self.app.games.get(game).is_none() {
                    return Err(ApiError::bad_request(
                        "unknown_game",
                        format!("no game {game:?} here"),
                    ));
                }
                let (tables, more, mut rx) = self
                    .app
                    .lobby
                    .subscribe(game, self.app.config.lobby_page_size);
                let page = ServerMsg::Lobby(LobbyPage {
                    game: game.clone(),
                    tables,
                    more,
                });
                self.conn.reply(&page, id);
                let conn = self.conn.clone();
                let forward = tokio::spawn(async move {
                    loop {
                        match rx.recv().await {
                            Ok(text) => {
                                if !conn.send(text) {
                                    break;
                                }
                            }
                            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                            Err(_) => break,
                        }
                    }
                });
                if let Some(old) = self.lobbies.insert(game.clone(), forward) {
                    old.abort();
                }
            }
            HallMsg::LobbyUnsubscribe(protocol::client::LobbyRoom { game }) => {
                if let Some(task) = self.lobbies.remove(game) {
                    task.abort();
                }
                self.ack(id, Ack::Game { game: game.clone() });
            }
            HallMsg::Create(create) => {
                let user = self.conn.user.clone().ok_or_else(ApiError::unauthorized)?;
                let handle =
                    crate::api::create_table(&self.app.live, &user, create.clone()).await?;
                self.ack(
                    id,
                    Ack::Created {
                        table: handle.id.clone(),
                        invite: format!("/table/{}", handle.id),
                    },
                );
                if let Some(seat) = create.seat {
                    self.enter(&handle).await;
                    self.send_table(
                        &handle,
                        TableMsg::Act {
                            conn: self.conn.clone(),
                            act: protocol::TableAct::Sit { seat },
                            req: None,
                            expect_seat: None,
                        },
                    )
                    .await?;
                }
            }
            HallMsg::PlayComputer(play) => {
                let (handle, seat) =
                    crate::computer::play(&self.app.live, &self.conn, play.clone()).await?;
                self.ack(
                    id,
                    Ack::Seated {
                        table: handle.id.clone(),
                        seat: seat.0,
                    },
                );
                self.enter(&handle).await;
                self.send_table(
                    &handle,
                    TableMsg::Watch {
                        conn: self.conn.clone(),
                        since: None,
                        req: None,
                    },
                )
                .await?;
            }
            HallMsg::Hotseat(hotseat) => {
                let handle =
                    crate::solo::hotseat(&self.app.live, &self.conn, hotseat.clone()).await?;
                self.ack(
                    id,
                    Ack::Seated {
                        table: handle.id.clone(),
                        seat: 0,
                    },
                );
                self.enter(&handle).await;
                self.send_table(
                    &handle,
                    TableMsg::Watch {
                        conn: self.conn.clone(),
                        since: None,
                        req: None,
                    },
                )
                .await?;
            }
            HallMsg::Seek(seek) => {
                let app = &self.app;
                match crate::lobby::seek(
                    &app.live,
                    &app.lobby,
                    app.cluster.as_ref(),
                    self.conn.clone(),
                    seek.clone(),
                )
                .await?
                {
                    Some(table) => {
                        match self.table(&table).await {
                            Ok(handle) => self.enter(&handle).await,
                            Err(_) => self.at_table(&table, true),
                        }
                        self.ack(id, Ack::Table { table });
                    }
                    None => self.ack(id, Ack::Seeking { seeking: true }),
                }
            }
            HallMsg::Analyse(analyse) => {
                crate::analysis::analyse(
                    &self.app.games,
                    &self.app.engines,
                    &self.app.compute,
                    &self.conn,
                    &mut self.analysis,
                    analyse.clone(),
                    req.id.clone(),
                )?;
            }
            HallMsg::AnalyseStop => {
                let cancelled = self.analysis.stop();
                self.ack(id, Ack::Cancelled { cancelled });
            }
            HallMsg::Chat(say) => {
                let line = self.app.chat.say(&self.conn, say).await?;
                self.ack(id, Ack::Line { line });
            }
            HallMsg::ChatSpectators(c) => {
                self.app.chat.spectators(&self.conn, &c.table, c.on).await?;
                self.ack(
                    id,
                    Ack::Table {
                        table: c.table.clone(),
                    },
                );
            }
            HallMsg::ChatPlayers(c) => {
                self.app.chat.players(&self.conn, &c.table, c.on).await?;
                self.ack(
                    id,
                    Ack::Table {
                        table: c.table.clone(),
                    },
                );
            }
            HallMsg::ChatReport(report) => {
                let report = self.app.chat.report(&self.conn, report).await?;
                self.ack(id, Ack::Report { report });
            }
            HallMsg::EventFollow(protocol::client::EventRef { event }) => {
                if event.is_empty() || event.len() > 64 {
                    return Err(ApiError::bad_request("bad_event_id", "not an event's id"));
                }
                if !self.events.contains_key(event) && self.events.len() >= MAX_FOLLOWED_EVENTS {
                    return Err(ApiError::bad_request(
                        "too_many_events",
                        format!("a socket follows at most {MAX_FOLLOWED_EVENTS} events"),
                    ));
                }
                let follow = self.app.people.follow(
                    crate::events::follow::subject(event),
                    self.conn.id,
                    self.conn.tx.clone(),
                );
                self.events.insert(event.clone(), follow);
                self.ack(
                    id,
                    Ack::Event {
                        event: event.clone(),
                    },
                );
            }
            HallMsg::EventUnfollow(protocol::client::EventRef { event }) => {
                self.events.remove(event);
                self.ack(
                    id,
                    Ack::Event {
                        event: event.clone(),
                    },
                );
            }
            HallMsg::ChatJoin(join) => {
                self.app.chat.join_place(&self.conn, &join.place).await?;
                self.ack(id, Ack::Joined { joined: true });
            }
            HallMsg::ChatLeave(leave) => {
                self.app.chat.leave_place(self.conn.id, &leave.place);
                self.ack(id, Ack::Joined { joined: false });
            }
            HallMsg::ChatPost(post) => {
                let line = self.app.chat.post(&self.conn, post).await?;
                self.ack(id, Ack::Line { line });
            }
            HallMsg::SeekCancel => {
                let mut cancelled = self.app.lobby.cancel_seeks(self.conn.id);
                if let Some(cluster) = &self.app.cluster {
                    cancelled |= cluster.cancel_seek(self.conn.id).await;
                }
                self.ack(id, Ack::Cancelled { cancelled });
            }
            HallMsg::Watch(protocol::client::Watch { table, since }) => {
                self.unsealed(table).await?;
                let handle = self.table(table).await?;
                self.enter(&handle).await;
                self.app.sockets.watching(self.conn.id, table, true);
                self.send_table(
                    &handle,
                    TableMsg::Watch {
                        conn: self.conn.clone(),
                        since: *since,
                        req: req.id.clone(),
                    },
                )
                .await?;
            }
            HallMsg::Unwatch(protocol::client::Watch { table, .. }) => {
                let handle = self.table(table).await?;
                self.at_table(table, false);
                self.app.chat.leave(table, self.conn.id);
                self.app.sockets.watching(self.conn.id, table, false);
                self.send_table(&handle, TableMsg::Unwatch { conn: self.conn.id })
                    .await?;
                self.ack(
                    id,
                    Ack::Table {
                        table: table.clone(),
                    },
                );
            }
        }
        Ok(())
    }

    /// A table playing a duplicate event's board that another table is still
    /// playing admits its own players only (`403 board_sealed`): a socket at
    /// a table hears its events.
    async fn unsealed(&self, table: &str) -> Result<(), ApiError> {
        if let Some(seats) = self.app.store.sealed_table(table).await? {
            let seats: Vec<i64> = serde_json::from_str(&seats).unwrap_or_default();
            if !self
                .conn
                .user
                .as_ref()
                .is_some_and(|u| seats.contains(&u.id))
            {
                return Err(ApiError::forbidden(
                    "board_sealed",
                    "this board is shown once every table has played it",
                ));
            }
        }
        Ok(())
    }

    /// A table command, for its table's task (after checking the game the
    /// client believes the table plays).
    async fn on_command(
        &mut self,
        cmd: protocol::TableCommand,
        id: Option<Value>,
    ) -> Result<(), ApiError> {
        let (at, act) = cmd.into_parts();
        let table = at.table;
        self.unsealed(&table).await?;
        let handle = self.table(&table).await?;
        if let Some(game) = &at.game
            && game != handle.game
        {
            return Err(ApiError::bad_request(
                "wrong_game",
                format!("table {table} plays {}, not {game}", handle.game),
            ));
        }
        self.enter(&handle).await;
        self.send_table(
            &handle,
            TableMsg::Act {
                conn: self.conn.clone(),
                act,
                req: id,
                expect_seat: at.expect_seat,
            },
        )
        .await
    }

    fn ack(&self, id: Option<&Value>, ack: Ack) {
        self.conn.reply(&ServerMsg::Ack(ack), id);
    }

    /// The socket is gone: tables learn it (a seated player may now be absent),
    /// seeks are dropped, lobby forwarding stops.
    pub(super) async fn closed(&mut self) {
        self.analysis.stop();
        self.events.clear();
        self.app.lobby.cancel_seeks(self.conn.id);
        if let Some(cluster) = &self.app.cluster {
            cluster.cancel_seek(self.conn.id).await;
        }
        for (_, task) in self.lobbies.drain() {
            task.abort();
        }
        self.app.chat.leave_places(self.conn.id);
        for table in std::mem::take(&mut self.tables) {
            self.app.chat.leave(&table, self.conn.id);
            if let Ok(handle) = self.table(&table).await {
                let _ = handle
                    .tx
                    .send(TableMsg::Closed { conn: self.conn.id })
                    .await;
            }
        }
        if let Some(cluster) = &self.app.cluster {
            cluster.forget_local(self.conn.id);
        }
    }
}
