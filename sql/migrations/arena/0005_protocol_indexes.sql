-- Indexes for the protocol's lookups: a side's roster, a player's matches.
CREATE INDEX roster_members_side ON roster_members (tournament_id, captain_id);
