-- Usernames are unique by their skeleton with accents and other marks taken off
-- (`admiń` is `admin`; see username_skeleton). Accounts' skeletons are computed
-- again by the store when it opens (in the order the accounts were made: of two
-- that now look alike, the later one keeps its name but no skeleton). Guests'
-- names are plain ASCII, whose skeletons do not change.
UPDATE users SET skeleton = NULL WHERE NOT guest;
