"""One home for a played bot game (issue #27): the game as the match runner played it (its
rules, seed and transcript), each seat's bot and figures, and every fault a seat made.
Tournament games and ladder games both point at theirs; ``bot_games.services.game_store`` is
the one writer, called inside the caller's transaction."""
