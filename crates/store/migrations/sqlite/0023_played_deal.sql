-- Which deal of a hand at a table of three was played (issue 45): 0, or the
-- number of the redeal when everyone passed. Written with the hand's scores; a
-- duplicate event compares only the results of the same deal of a board.
ALTER TABLE event_hands ADD COLUMN played_deal BIGINT NOT NULL DEFAULT 0;
