-- The event log as a Merkle tree (docs/events.md, "The log as a
-- transparency log"): the tree's stored hashes, numbered as
-- golang.org/x/mod/sumdb/tlog's StoredHashIndex, lowercase hex. The
-- sealer writes them in the batch that sets the events' hash, so an event
-- is sealed if and only if it is in the tree.
CREATE TABLE log_tree (
	idx INTEGER PRIMARY KEY,
	hash TEXT NOT NULL
);

-- Events sealed before the tree existed are sealed again (with the same
-- hashes: their definition did not change), this time with the tree.
UPDATE event_log SET prev_hash = NULL, hash = NULL;
