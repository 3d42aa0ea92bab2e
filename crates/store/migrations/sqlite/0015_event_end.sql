-- Why an event ended (issue 44): JSON, {"reason": "rounds_played",
-- "no_pairing" or "no_players", "rounds", "detail", "at"}.
ALTER TABLE events ADD COLUMN end_reason TEXT;
-- What an action's reason does not say (JSON): a correction's result before
-- and after it ({"before": "1-0", "after": "0-1"}), and whether the server
-- acted rather than an arbiter ({"system": true}: the late-arrival forfeit).
ALTER TABLE event_actions ADD COLUMN detail TEXT;
