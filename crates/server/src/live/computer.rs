//! The computer players at a table: their bookkeeping (what `crate::bots::chore`
//! asks for: accepting a start, leaving when alone) and their moves — a built-in
//! player thinking off the async threads, or an external engine (see
//! [`crate::engines`]) with the built-in player standing in when it fails.

use std::sync::atomic::Ordering;

use super::actor::Live;

impl Live {
    /// Applies what the computer players want done now (see [`crate::bots::chore`]).
    pub(super) async fn bot_chores(&mut self) {
        for _ in 0..16 {
            let Some(cmd) = crate::bots::chore(&*self.table, &self.bots) else {
                break;
            };
            if self.apply_and_commit(cmd).await.is_err() {
                break;
            }
        }
    }

    /// A computer player's decision, then applied like a player's action; false
    /// if it had nothing to do. A built-in one thinks off the async threads
    /// (`spawn_blocking`) within its time, with a backstop that sets its stop
    /// flag; an external engine answers within its time and grace (see
    /// [`crate::engines`]), and when it cannot, the game's built-in computer
    /// player at its strongest level plays that move instead.
    pub(super) async fn bot_act(&mut self, turn: crate::bots::Turn) -> bool {
        let crate::bots::Turn { bot, choice } = turn;
        let ask = bot.ask(rand::random());
        let asked = std::time::Instant::now();
        let engines = &self.app.engines;
        let mut thought = None;
        let mut builtin_level = None;
        if engines.has(&bot.level) {
            let position = engines
                .protocol(&bot.level)
                .and_then(|p| choice.engine_position(p));
            if let Some(position) = position {
                let request = crate::engines::Request {
                    position,
                    movetime: ask.allot(None),
                };
                match engines.think(&bot.level, &request).await {
                    Ok(t) if choice.allows(&t.decision) => thought = Some(t),
                    Ok(t) => tracing::warn!(
                        table = %self.id,
                        "engine {} chose {:?}, not a legal action; the built-in player stands in",
                        bot.level,
                        t.decision
                    ),
                    Err(e) => tracing::warn!(
                        table = %self.id,
                        "engine {} failed ({e}); the built-in player stands in",
                        bot.level
                    ),
                }
            }
            builtin_level = self.table.bot_levels().last().map(|l| l.key.to_string());
        }
        if thought.is_none() {
            let mut ask = ask.clone();
            if let Some(level) = builtin_level {
                ask.level = level;
            }
            // What an engine that failed used of the clock is gone.
            ask.time_left = ask.time_left.map(|t| t.saturating_sub(asked.elapsed()));
            let stop = ask.stop.clone();
            let mut search = tokio::task::spawn_blocking(move || choice.think(&ask));
            thought = tokio::select! {
                done = &mut search => done.ok().flatten(),
                _ = tokio::time::sleep(bot.backstop()) => {
                    stop.store(true, Ordering::Relaxed);
                    search.await.ok().flatten()
                }
            };
        }
        let Some(thought) = thought else {
            return false;
        };
        let cmd = bot.command(thought, &mut self.bots);
        if let Err(e) = self.apply_and_commit(cmd).await {
            tracing::error!(table = %self.id, "a computer player's action was refused: {}", e.message);
        }
        true
    }
}
