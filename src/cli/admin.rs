//! `qiyuan admin ...`: the operator's commands on the server's database —
//! roles (organiser, arbiter, admin), bans and mutes, closing a table. They
//! write to the store directly; a running server sees roles, bans and mutes
//! at once (it reads them on each request), a ban also ends the account's
//! sessions, and every node of a running server closes the banned account's
//! WebSockets and API streams within about a second (it reads the bans every
//! second: `qiyuan_server::authority`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Where the database is, as `qiyuan serve` finds it.
#[derive(Debug, clap::Args)]
pub struct Db {
    /// Data folder holding the SQLite database [default: ./data].
    #[arg(long, env = "QIYUAN_DATA")]
    data: Option<PathBuf>,
    /// Database URL: postgres://... for PostgreSQL [default: SQLite in the data folder].
    #[arg(long, env = "QIYUAN_DATABASE")]
    database: Option<String>,
}

impl Db {
    pub fn url(&self) -> String {
        let mut config = qiyuan_server::Config::default();
        if let Some(data) = &self.data {
            config.data_dir = data.clone();
        }
        config.database = self.database.clone();
        config.database_url()
    }
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Grant a role (organiser, arbiter, admin) to an account.
    Grant {
        user: String,
        role: String,
        #[command(flatten)]
        db: Db,
    },
    /// Take a role away.
    Revoke {
        user: String,
        role: String,
        #[command(flatten)]
        db: Db,
    },
    /// Ban an account: its sessions and API tokens are refused now, a running
    /// server closes its connections within seconds, and it enters no events.
    Ban {
        user: String,
        #[command(flatten)]
        db: Db,
    },
    /// Lift a ban.
    Unban {
        user: String,
        #[command(flatten)]
        db: Db,
    },
    /// Mute an account: its chat lines are refused.
    Mute {
        user: String,
        #[command(flatten)]
        db: Db,
    },
    /// Lift a mute.
    Unmute {
        user: String,
        #[command(flatten)]
        db: Db,
    },
    /// Print an account's roles.
    Roles {
        user: String,
        #[command(flatten)]
        db: Db,
    },
    /// Close a table: it is not rebuilt when the server starts again.
    CloseTable {
        table: String,
        #[command(flatten)]
        db: Db,
    },
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let db = match &cmd {
            Command::Grant { db, .. }
            | Command::Revoke { db, .. }
            | Command::Ban { db, .. }
            | Command::Unban { db, .. }
            | Command::Mute { db, .. }
            | Command::Unmute { db, .. }
            | Command::Roles { db, .. }
            | Command::CloseTable { db, .. } => db.url(),
        };
        let store = qiyuan_store::open(&db)
            .await
            .with_context(|| format!("cannot open the database {db}"))?;
        let store = &*store;
        use qiyuan_server::events::{grant, revoke};
        match &cmd {
            Command::Grant { user, role, .. } => {
                grant(store, user, role).await?;
                println!("{user}: {role} granted");
            }
            Command::Revoke { user, role, .. } => {
                let had = revoke(store, user, role).await?;
                println!(
                    "{user}: {role} {}",
                    if had { "revoked" } else { "was not held" }
                );
            }
            Command::Ban { user, .. } => {
                grant(store, user, "banned").await?;
                println!("{user}: banned");
            }
            Command::Unban { user, .. } => {
                revoke(store, user, "banned").await?;
                println!("{user}: ban lifted");
            }
            Command::Mute { user, .. } => {
                grant(store, user, "muted").await?;
                println!("{user}: muted");
            }
            Command::Unmute { user, .. } => {
                revoke(store, user, "muted").await?;
                println!("{user}: mute lifted");
            }
            Command::Roles { user, .. } => {
                let account = store
                    .user_by_name(user)
                    .await?
                    .with_context(|| format!("no account {user:?}"))?;
                for role in store.roles(account.id).await? {
                    println!("{role}");
                }
            }
            Command::CloseTable { table, .. } => {
                store
                    .table(table)
                    .await?
                    .with_context(|| format!("no table {table:?}"))?;
                store.close_table(table).await?;
                println!("table {table} closed (a running server drops it at its next restart)");
            }
        }
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}
