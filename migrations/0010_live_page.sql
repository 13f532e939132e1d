-- The public live page of a tournament (issue 22): its unguessable address, made once by
-- /tournament page on and kept when the page is turned off, and whether it is shown.
-- The page is found by its address across guilds, hence the unique index.

ALTER TABLE tournaments ADD COLUMN page_slug TEXT
    CHECK (page_slug IS NULL OR length(page_slug) BETWEEN 22 AND 64);
ALTER TABLE tournaments ADD COLUMN page_public INTEGER NOT NULL DEFAULT 0
    CHECK (page_public IN (0, 1) AND (page_public = 0 OR page_slug IS NOT NULL));
CREATE UNIQUE INDEX tournaments_by_page_slug ON tournaments (page_slug)
    WHERE page_slug IS NOT NULL;
