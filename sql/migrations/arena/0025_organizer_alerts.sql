-- The organizer's live night (DESIGN.md): a tournament's own grace
-- period for a result waiting on its second side (0: the arena's), and an
-- alert's own title for its recipient ("You beat ..."; null: the event's
-- title, as followers read it).
ALTER TABLE tournaments ADD COLUMN grace_period_minutes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alerts ADD COLUMN title TEXT;
