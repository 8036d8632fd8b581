-- The language an arena's pages speak to a viewer whose browser and
-- cookie name none of the site's locales (core.Locales).
ALTER TABLE arenas ADD COLUMN default_locale TEXT NOT NULL DEFAULT 'en';
