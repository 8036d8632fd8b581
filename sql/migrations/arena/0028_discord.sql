-- Discord (docs/notifications.md): a player's Discord account linked to
-- their platform account (OAuth2, scope identify), one each way, and the
-- states of links under way (used once, within DiscordLinkTTL).
CREATE TABLE discord_links (
	discord_user_id TEXT PRIMARY KEY,
	platform_id TEXT NOT NULL UNIQUE,
	username TEXT NOT NULL,
	linked_at TEXT NOT NULL
);

CREATE TABLE discord_link_states (
	state TEXT PRIMARY KEY,
	platform_id TEXT NOT NULL,
	created_at TEXT NOT NULL
);
