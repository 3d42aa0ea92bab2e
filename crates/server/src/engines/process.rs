//! An engine process watched for as long as it lives: a task of its own waits
//! for it, so that a process that dies (killed, crashed) is reaped at once —
//! never left a zombie until it is next used — and reported; dropping the
//! handle kills it (and reaps it).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::process::Child;
use tokio::sync::oneshot;

/// A watched process: its pid, whether it still runs, and the wire that kills
/// it when the handle goes.
pub struct Watched {
    pid: Option<u32>,
    alive: Arc<AtomicBool>,
    _kill: oneshot::Sender<()>,
}

impl Watched {
    /// Watches `child` (its pipes already taken); `on_death` is called with
    /// how it ended when it exits without having been asked to.
    pub fn new(mut child: Child, on_death: impl FnOnce(String) + Send + 'static) -> Watched {
        let pid = child.id();
        let alive = Arc::new(AtomicBool::new(true));
        let (kill, asked) = oneshot::channel::<()>();
        let flag = alive.clone();
        tokio::spawn(async move {
            tokio::select! {
                status = child.wait() => {
                    flag.store(false, Ordering::Relaxed);
                    on_death(match status {
                        Ok(s) => s.to_string(),
                        Err(e) => e.to_string(),
                    });
                }
                // The handle was dropped: the process is no longer wanted.
                _ = asked => {
                    flag.store(false, Ordering::Relaxed);
                    let _ = child.kill().await;
                }
            }
        });
        Watched {
            pid,
            alive,
            _kill: kill,
        }
    }

    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Whether the process still runs (as far as its watcher has seen).
    pub fn alive(&self) -> bool {
        self.alive.load(Ordering::Relaxed)
    }
}
