"""Discord presentation: embeds, views, pagination, error rendering and the command translator."""
