-- Fixed-window request counters of the public read API, for runtimes that
-- keep no memory between requests (the edge). Old windows are swept by the
-- scheduled jobs.
CREATE TABLE rate_counters (
	bucket TEXT NOT NULL,                 -- "ip:<address>" or "key:<id>"
	window_start INTEGER NOT NULL,        -- unix seconds, a multiple of the window
	count INTEGER NOT NULL,
	PRIMARY KEY (bucket, window_start)
);
