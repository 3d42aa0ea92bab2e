//! Settings by agreement: a seated player proposes, every seat accepts the
//! current proposal by id and gets ready, and the game starts when all have.

use qiyuan_clock::Millis;
use qiyuan_game::Game;

use super::{K, R, TRIAL, Table, build_game, loads_position, parse_options, refuse};
use crate::types::{Event, Proposal, Settings, TableRefusal};

impl<G: Game> Table<G> {
    pub(super) fn propose(&mut self, user: &str, settings: Settings) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "settings are changed between games");
        }
        if self.config.tournament {
            return refuse(K::SettingsFixed, "a tournament table's settings are fixed");
        }
        if settings.setup.is_random() {
            return refuse(K::BadSettings, "deals are drawn by the table");
        }
        settings
            .time
            .validate()
            .map_err(|m| TableRefusal::new(K::BadSettings, m))?;
        let options = parse_options::<G>(&settings)
            .map_err(|e| TableRefusal::new(K::BadSettings, e.to_string()))?;
        let trial = build_game::<G>(
            &settings,
            &options,
            &self.config,
            self.state.games + 1,
            Some(TRIAL),
        )
        .map_err(|m| TableRefusal::new(K::BadSettings, m))?
        .game;
        self.preview = loads_position(&settings).then_some(trial);
        self.proposed = options;
        let proposal = Proposal {
            id: self.state.proposal.id + 1,
            by: seat,
            settings,
        };
        for s in &mut self.state.seats {
            s.ready = false;
            s.accepted = None;
        }
        self.state.seats[seat.index()].accepted = Some(proposal.id);
        self.state.proposal = proposal.clone();
        self.clear_rematch();
        Ok(vec![Event::Proposed { proposal }])
    }

    pub(super) fn accept(&mut self, user: &str, proposal: u32, now: Millis) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "a game is being played");
        }
        if proposal != self.state.proposal.id {
            return refuse(K::StaleProposal, "that proposal has been replaced");
        }
        if self.state.seats[seat.index()].accepted == Some(proposal) {
            return refuse(K::NotAllowed, "you have accepted it already");
        }
        self.state.seats[seat.index()].accepted = Some(proposal);
        let mut events = vec![Event::Accepted { seat, proposal }];
        events.extend(self.maybe_start(now)?);
        Ok(events)
    }

    pub(super) fn decline(&mut self, user: &str, proposal: u32) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "a game is being played");
        }
        if proposal != self.state.proposal.id {
            return refuse(K::StaleProposal, "that proposal has been replaced");
        }
        if self.state.proposal.by == seat {
            return refuse(K::NotAllowed, "that is your own proposal");
        }
        let s = &mut self.state.seats[seat.index()];
        if s.accepted == Some(proposal) {
            return refuse(K::NotAllowed, "you have accepted it already");
        }
        s.ready = false;
        Ok(vec![Event::Declined { seat, proposal }])
    }

    pub(super) fn ready(&mut self, user: &str, proposal: Option<u32>, now: Millis) -> R {
        let seat = self.seated(user)?;
        if self.is_playing() {
            return refuse(K::GameInProgress, "a game is being played");
        }
        let current = self.state.proposal.id;
        if proposal.is_some_and(|p| p != current) {
            return refuse(K::StaleProposal, "that proposal has been replaced");
        }
        let s = &mut self.state.seats[seat.index()];
        if s.ready {
            return refuse(K::NotAllowed, "you are ready already");
        }
        let mut events = Vec::new();
        if s.accepted != Some(current) {
            s.accepted = Some(current);
            events.push(Event::Accepted {
                seat,
                proposal: current,
            });
        }
        s.ready = true;
        events.push(Event::Ready { seat, ready: true });
        events.extend(self.maybe_start(now)?);
        Ok(events)
    }

    pub(super) fn unready(&mut self, user: &str) -> R {
        let seat = self.seated(user)?;
        let playing = self.is_playing();
        let s = &mut self.state.seats[seat.index()];
        if !s.ready || playing {
            return refuse(K::NotAllowed, "you are not waiting to start");
        }
        s.ready = false;
        Ok(vec![Event::Ready { seat, ready: false }])
    }

    /// Starts the game when every seat is taken, ready, and agrees to the proposal.
    fn maybe_start(&mut self, now: Millis) -> R {
        let id = self.state.proposal.id;
        let all = self
            .state
            .seats
            .iter()
            .all(|s| s.user.is_some() && s.ready && s.accepted == Some(id));
        if !all {
            return Ok(Vec::new());
        }
        self.start_game(now)
    }
}
