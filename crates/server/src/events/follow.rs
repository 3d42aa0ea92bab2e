//! An event's page is told when the event changes, instead of asking: a
//! socket that follows an event (`event.follow`) is in the people hub under
//! `event:{id}`, and this node reads each followed event's public view (what
//! `GET /api/event/{id}` answers) every [`EVERY`], telling its followers
//! `notify` `event_changed` when it differs from the last read — a round
//! paired, a result, a registration, an arbiter's act, whoever made it and
//! on whichever node. A newly followed event is told once at its first read,
//! so a page that loaded it just before misses nothing.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use qiyuan_store::Store;

use crate::people::Hub;
use crate::protocol::ServerMsg;
use crate::protocol::out::Notification;

/// How often the followed events are read.
pub const EVERY: Duration = Duration::from_millis(400);

/// The subject under which an event's page follows it.
pub fn subject(event: &str) -> String {
    format!("event:{event}")
}

/// Reads the followed events and tells their followers of changes, until
/// the server stops.
pub async fn run(
    store: Arc<dyn Store>,
    hub: Arc<Hub>,
    shutdown: tokio::sync::watch::Receiver<bool>,
) {
    // Each followed event's view as last read.
    let mut last: HashMap<String, String> = HashMap::new();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(EVERY) => {}
            _ = crate::stopped(shutdown.clone()) => break,
        }
        let followed: Vec<String> = hub
            .subjects()
            .into_iter()
            .filter_map(|s| s.strip_prefix("event:").map(str::to_string))
            .collect();
        last.retain(|id, _| followed.contains(id));
        for id in followed {
            let view = match super::api::public_view(&*store, &id).await {
                Ok(Some(view)) => view.to_string(),
                Ok(None) => continue,
                Err(e) => {
                    tracing::debug!(event = %id, "cannot read a followed event: {}", e.message);
                    continue;
                }
            };
            if last.get(&id) == Some(&view) {
                continue;
            }
            last.insert(id.clone(), view);
            let msg = ServerMsg::Notify(Notification::EventChanged { event: id.clone() });
            hub.tell_followers(&subject(&id), &msg.encode(None));
        }
    }
}
