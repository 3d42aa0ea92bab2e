-- Two arbiter roles per event (seed 002): `table` (监局裁判: watches games,
-- warns, fouls, restores a position, adjusts and stops clocks, refers a case
-- up) and `chief` (裁判长: all that, and disqualifies, adjudicates and
-- corrects results, forfeits, decides referrals). Arbiters named before are
-- table arbiters.
ALTER TABLE event_arbiters ADD COLUMN role TEXT NOT NULL DEFAULT 'table';
