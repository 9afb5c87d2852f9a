"""The ladder's pages (docs/ladder.md "Pages"): the table per preset, a bot's page with its
author's forms, a game's page with its replay, and the author's dashboard."""
