-- What finalize checked is what is served, for good (docs/recordings.md):
-- finalize copies the upload to a key no upload URL names, checks that
-- copy and serves only it. served_key is that copy (NULL while pending).
-- Rows finalized before this migration serve their upload key, as they
-- did: the URLs that named it expired 15 minutes after they were issued.
ALTER TABLE recordings ADD COLUMN served_key TEXT;
ALTER TABLE recording_segments ADD COLUMN served_key TEXT;
UPDATE recordings SET served_key = object_key WHERE state = 'ready';
UPDATE recording_segments SET served_key = object_key WHERE state = 'ready';

-- The upload route asks whether a segment's upload was finalized.
CREATE INDEX recording_segments_object_key ON recording_segments (object_key);

-- Objects to remove once due, written before there is anything to
-- remove: a finalize schedules its copy's removal before making it and
-- cancels it only when it claims the copy, and schedules the upload's
-- removal for when its URLs expired. The scheduled job removes what is
-- due, so a crash at any step leaves nothing behind for long.
CREATE TABLE object_removals (
	object_key TEXT PRIMARY KEY,
	due_at TEXT NOT NULL
);
CREATE INDEX object_removals_due ON object_removals (due_at);
