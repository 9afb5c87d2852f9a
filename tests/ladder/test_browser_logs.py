"""A bot's logs and faults in the replay, in chromium (issue #29, "Logs"): a link to a step
opens the replay there; its author reads the bot's log beside the decision as text (a
<script> in it runs nothing); a fault's link shows its step, the safe move played for it, on
the ladder's pages and on an outside bot's tournament faults (the replay of the fault's deal)."""

from django.urls import reverse
from playwright.sync_api import expect

from bot_games import selectors as bot_games
from bot_games.models import BotSeat
from bot_games.services import deal_steps
from ladder.web.views import GAME_FAULTS_OPEN
from outside_bots import services as outside_bots
from tests.ladder.test_bot_games import commit  # noqa: F401 (the fixture)
from tests.ladder.test_logs import SCRIPT, play_validation
from tests.pages.test_browser import browser, pytestmark, signed_in, visit  # noqa: F401
from tests.tournaments.helpers import ENTRANTS, small_tournament
from tests.tournaments.test_replays import stored_game


def test_the_replay_opens_at_a_logs_and_a_faults_step(
        browser, live_server, client, servers, ladder_settings, author, other,  # noqa: F811
        commit):  # noqa: F811
    server, game, seat = play_validation(servers, author, commit)
    log = BotSeat.objects.get(game=game.bot_game, seat=seat).logs[3]
    url = live_server.url + reverse("ladder:game", args=[game.pk])

    ctx = signed_in(browser, live_server, client, author)
    dialogs = []
    ctx.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page, problems = visit(browser, f"{url}#step-{log['step']}", ctx)
    assert page.locator("#step-number").inner_text() == str(log["step"])
    decided = page.locator("#step-decided").inner_text()
    assert log["text"] == f"{SCRIPT} {server.requests[3]['decision']} 4"
    assert log["text"] in decided and "ada-bot: " in decided
    page.get_by_text("logs, in order").click()  # the list of logs is folded
    page.get_by_role("link", name=f"step {log['step']}").first.click()
    # The replay moves on the link's hashchange, which the browser fires after the click.
    expect(page.locator("#step-number")).to_have_text(str(log["step"]))
    assert dialogs == [] and problems == []

    _, junk, _ = play_validation(servers, other, commit, mode="junk", name="bob-bot")
    fault = next(f for f in bot_games.game_faults(game_id=junk.bot_game_id)[:GAME_FAULTS_OPEN]
                 if f.decision == "play" and f.step > 20)
    page, problems = visit(browser, live_server.url + reverse("ladder:game", args=[junk.pk]))
    page.get_by_role("link", name=f"step {fault.step} of the replay").first.click()
    expect(page.locator("#step-number")).to_have_text(str(fault.step))
    shown = page.locator("#step-decided").inner_text()
    assert "safe move played for it" in shown and "pwned" not in shown
    assert problems == []


def test_a_tournament_fault_opens_the_replay_of_its_deal_at_its_decision(
        browser, live_server, settings):  # noqa: F811
    # A deal's replay starts at the game's step ``first``; the link names the game's step.
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1:9"]
    bot = outside_bots.outside_bot_create(name="gone", url="http://127.0.0.1:9/")
    tournament = small_tournament(entrants=[*ENTRANTS[:3], ("Gone", "outside:gone")], seats=4,
                                  scoring={"system": "fixed-rounds", "deals": 2})
    outside_bots.outside_bot_update(bot=bot, enabled=False)  # its seat plays safe, as faults
    stored = stored_game(tournament)
    fault = stored.bot_game.faults.filter(deal=1).order_by("number")[1]
    first = deal_steps(stored.bot_game.transcript)[1][0]

    page, problems = visit(browser, live_server.url + reverse("gameplay:outside_bot",
                                                              args=["gone"]))
    page.get_by_role("link", name=f"decision {fault.number} in the replay").click()
    page.wait_for_load_state("load")
    assert page.locator("#step-number").inner_text() == str(fault.step - first + 1)
    assert "safe move played for it" in page.locator("#step-decided").inner_text()
    assert problems == []
