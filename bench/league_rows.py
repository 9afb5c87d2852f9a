"""A league's played seasons written straight into the database for the benchmarks
(bench/standings.py, bench/pages.py): rows by bulk_create, seat totals scored by the engine's
ScoreSheet, ratings by the league's OpenSkill replay."""


def played_season(season, games, table_of, deals_a_game, rng):
    """``games`` finished games of ``season``, each at the table ``table_of()`` gives (players in
    seat order), of ``deals_a_game`` deals in random finishing orders: its games and each
    deal as (deal id, finishing order)."""
    from gameplay.engine.roles import Role, roles_of
    from gameplay.engine.scoring import ScoreSheet
    from league.models import Deal, Game, Place, Seat
    from league.rules import scoring_of

    scoring = scoring_of(season)
    role_field = {Role.PRESIDENT: "presidents", Role.VICE_PRESIDENT: "vice_presidents",
                  Role.CITIZEN: "citizens", Role.VICE_SCUM: "vice_scums", Role.SCUM: "scums"}
    games = Game.objects.bulk_create(Game(season=season, number=g + 1, dealer=0,
                                          status=Game.FINISHED) for g in range(games))
    seats, deal_rows, orders = [], [], []
    for game in games:
        table = table_of()
        sheet = ScoreSheet(scoring)
        totals = {p.pk: {"deals": 0, "position_sum": 0, **dict.fromkeys(role_field.values(), 0)}
                  for p in table}
        for number in range(1, deals_a_game + 1):
            order = [p.pk for p in rng.sample(table, len(table))]
            sheet.add(order)
            for position, (pid, role) in enumerate(roles_of(order).items(), start=1):
                totals[pid]["deals"] += 1
                totals[pid]["position_sum"] += position
                totals[pid][role_field[role]] += 1
            deal_rows.append(Deal(game=game, number=number, dealer=(number - 1) % len(table)))
            orders.append(order)
        winners = set(sheet.winners)
        seats += [Seat(game=game, number=i, player=p, points=sheet.totals[p.pk],
                       is_winner=p.pk in winners, **totals[p.pk]) for i, p in enumerate(table)]
    Seat.objects.bulk_create(seats, batch_size=5000)
    deal_rows = Deal.objects.bulk_create(deal_rows, batch_size=5000)
    seat_of = {(s.game_id, s.player_id): s.number for s in seats}
    Place.objects.bulk_create(
        (Place(deal=d, seat=seat_of[(d.game_id, pid)], player_id=pid, position=i,
               role=role.value)
         for d, order in zip(deal_rows, orders, strict=True)
         for i, (pid, role) in enumerate(roles_of(order).items(), start=1)),
        batch_size=5000)
    return games, [(d.pk, order) for d, order in zip(deal_rows, orders, strict=True)]


def rate(deals, season_id):
    """The ratings after ``deals`` (deal id, finishing order), in a season or all-time."""
    from gameplay.runner.figures import ordinal
    from league.models import Rating, RatingHistory
    from league.ratings import replay

    rows, state = replay(deals, {})
    RatingHistory.objects.bulk_create(
        (RatingHistory(player_id=p, season_id=season_id, deal_id=d, mu=mu, sigma=sigma,
                       ordinal=o) for d, p, mu, sigma, o in rows), batch_size=5000)
    Rating.objects.bulk_create(
        Rating(player_id=p, season_id=season_id, mu=mu, sigma=sigma,
               ordinal=ordinal(mu, sigma), deals=n) for p, (mu, sigma, n) in state.items())
