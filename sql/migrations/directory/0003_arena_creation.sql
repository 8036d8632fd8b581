-- An arena being created (creating = 1) holds its slug and hosts, but no
-- host routes to it and it is not listed until its database is ready.
-- database_provisioned: the service created the arena's database (and
-- removes it when the creation is abandoned).
ALTER TABLE arenas ADD COLUMN creating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE arenas ADD COLUMN database_provisioned INTEGER NOT NULL DEFAULT 0;
