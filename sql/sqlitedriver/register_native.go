//go:build !js

package sqlitedriver

import _ "modernc.org/sqlite" // registers "sqlite"
