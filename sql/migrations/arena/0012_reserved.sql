-- Reserved: this number belongs to a migration written beside the titles
-- migration (0013); that migration replaces this file when both meet.
SELECT 1;
