"""The browser client in a real (headless) browser: a gin deal and a tractor round are
played to the end by clicking the page, against the server's bots.

Needs Chromium (``chromium``, ``chromium-browser`` or ``google-chrome``; the test
command installs Debian's ``chromium`` where apt is available); skipped without it.
Nothing leaves the machine: the page comes from an in-process server on 127.0.0.1 and
the browser is driven over the DevTools protocol (no playwright).
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.app import Server
from server.persistence.store import ImportedGame
from tests.rules.tractor.last_word import SEED, drawn_to_a_pass
from tests.server.browser_support import NEEDS_CHROMIUM, Page, create, open_page

pytestmark = NEEDS_CHROMIUM


@pytest.fixture
async def page(tmp_path: Path) -> AsyncIterator[tuple[Page, Server]]:
    async with open_page(tmp_path) as opened:
        yield opened


async def play_out(p: Page, step: str, limit: float = 240) -> list[str]:
    """Click ``step`` (a JS expression naming what it did) until the game ends."""
    done: list[str] = []
    end = time.monotonic() + limit
    while time.monotonic() < end:
        errors = await p.js(
            "[...document.querySelectorAll('#errors .error')].map((e) => e.textContent)"
        )
        assert not errors, errors
        if await p.js("S.cur.status") in ("finished", "abandoned"):
            return done
        what = await p.js(step)
        assert not what.startswith("???"), what
        if what != "wait":
            done.append(what)
        await asyncio.sleep(0.05)
    raise AssertionError(f"the game did not end; last actions {done[-10:]}")


RUMMY_STEP = r"""(() => {
  const cur = S.cur, legal = cur.legal || [];
  if (cur.status !== "live" || !legal.length || cur.pending) return "wait";
  const q = (s) => document.querySelector(s), qa = (s) => [...document.querySelectorAll(s)];
  const types = legal.map((a) => a.type);
  if (types.includes("draw")) {
    const pile = q("#rm-pile.legal");
    if (pile && legal.length % 2) { pile.click(); return "take"; }
    q("#rm-stock").click(); return "stock";
  }
  const fin = qa("#actions button[data-action=declare], #actions button[data-action=knock]");
  if (fin.length) { fin[0].click(); return "finish"; }
  const lay = qa("#actions button[data-action=layoff], #actions button[data-action=done]");
  if (lay.length) { lay[0].click(); return lay[0].dataset.action; }
  if (types.includes("discard")) {
    const dead = qa("#hand .rm-group.dead button.card.legal");
    const c = dead[0] || qa("#hand button.card.legal")[0];
    c.click(); return "discard";
  }
  return "??? " + types.join(",");
})()"""


async def test_a_gin_deal_is_played_by_clicking(page: tuple[Page, Server]) -> None:
    p, _ = page
    await create(p, "rummy", {"variant": "gin", "target": 0})
    await p.wait("document.querySelector('#rm-stock') !== null")
    # A new name while holding a seat is refused, saying why (it would change nothing).
    kept = await p.js("S.name")
    await p.js("const n = document.querySelector('#name'); n.value = 'someone else';"
               " n.dispatchEvent(new Event('change')); 1")
    assert await p.js("document.querySelector('#name').value") == kept
    assert "while you hold a seat" in await p.js("document.querySelector('#errors').textContent")
    await p.js("document.querySelector('#errors').replaceChildren(); 1")
    assert await p.js("document.querySelectorAll('#hand button.card, #hand .card').length") >= 10
    done = await play_out(p, RUMMY_STEP)
    # A discard, or a knock (which discards) when the first draw already made a
    # hand to knock with: the table's deal is random.
    assert {"discard", "finish"} & set(done) and ("stock" in done or "take" in done)
    assert "Game finished" in await p.js("document.querySelector('#result').textContent")
    log = await p.js("[...document.querySelectorAll('#log li')].map((l) => l.textContent)")
    assert any("from the stock" in line or "from the discard pile" in line for line in log)
    assert any(line.startswith("Deal over:") for line in log)
    # Every hand is shown now: yours once (below the table), each deadwood count once.
    assert await p.js("document.querySelectorAll('#board .pk-row.bottom .rm-hand').length") == 0
    for where in ("#hand", "#board .pk-row.top"):
        said = await p.js(
            f"[...document.querySelectorAll('{where} *')].filter((n) => !n.children.length"
            " && /deadwood/.test(n.textContent)).map((n) => n.textContent)"
        )
        assert len(said) <= 1, (where, said)


TRACTOR_STEP = r"""(() => {
  const cur = S.cur, legal = cur.legal || [], v = cur.view;
  if (cur.status !== "live" || !legal.length || cur.pending) return "wait";
  const q = (s) => document.querySelector(s), qa = (s) => [...document.querySelectorAll(s)];
  const types = legal.map((a) => a.type);
  if (v.phase === "draw") {
    const pass = q("#actions button[data-action=pass]");
    if (pass) { pass.click(); return "pass"; }
    if (!TR.auto) { q("#draw-all").click(); return "draw all"; }
    // "draw all" waits while a declaration is on offer: draw on by hand
    const draw = q("#actions button[data-action=draw]");
    if (draw && tractorAutoStep(legal, v) === "stop") { draw.click(); return "draw"; }
    return "wait";
  }
  if (types.includes("confirm")) {
    const which = window.__tookBack ? "confirm" : "takeback"; // take one play back, then keep
    const b = q(`#actions button[data-action=${which}]`);
    window.__tookBack = true; b.click(); return which;
  }
  if (types.includes("bury")) {
    if (TR.picked.length < legal[0].cards.length) {
      qa("#hand button.card:not(.picked)").pop().click(); return "pick";
    }
    q("#play-picked").click(); return "bury";
  }
  if (types.includes("call")) { qa(".friend-picker button").pop().click(); return "call"; }
  if (types.includes("play")) {
    const trick = v.trick || [];
    if (TR.picked.length) { q("#play-picked").click(); return "play picked"; }
    if (trick.length && trick[0].cards.length > 1) { q(".quick-play").click(); return "quick"; }
    const card = qa("#hand button.card.legal")[0] || qa("#hand button.card")[0];
    card.click(); return "pick";
  }
  if (types.includes("next_round")) {
    q("#actions button[data-action=next_round]").click(); return "next";
  }
  return "??? " + types.join(",");
})()"""


async def test_a_tractor_round_is_played_by_clicking(page: tuple[Page, Server]) -> None:
    p, _ = page
    await create(p, "tractor", {"rounds": 1, "takeback_allowed": True})
    done = await play_out(p, TRACTOR_STEP, limit=400)
    assert "draw all" in done and "play picked" in done
    log = await p.js("[...document.querySelectorAll('#log li')].map((l) => l.textContent)")
    assert any(line.startswith("Trump: ") for line in log)
    assert any("wins the trick" in line or "win the trick" in line for line in log)
    assert any(line.startswith("Round 1 over:") for line in log)
    assert "Game finished" in await p.js("document.querySelector('#result').textContent")
    # The replay of the game uses the same table layout.
    table = await p.js("S.cur.table")
    await p.js(f"openReplay({table}, 'all'); 1")
    await p.wait(
        "S.replay && S.replay.steps.length > 0 && S.replay.steps.length === S.replay.total"
    )
    await p.js("stepReplay(Math.floor(S.replay.steps.length * 0.7)); 1")
    assert await p.js("document.querySelectorAll('#rp-board .felt.tractor .tr-hand').length") == 4
    # Tractor has no file format: nothing to export.
    assert await p.js("document.querySelector('#export-form').classList.contains('hidden')")


async def test_a_tractor_match_is_ended_by_the_button(page: tuple[Page, Server]) -> None:
    """docs/protocol.md, "Ending the match": the only human proposes, the bots agree
    by policy, so the match ends at once and the page shows the result."""
    p, server = page
    await create(p, "tractor", {"rounds": 5})
    await p.wait("S.cur.status === 'live' && "
                 "!document.querySelector('#btn-end-match').classList.contains('hidden')")
    assert await p.js("document.querySelector('#btn-end-match').textContent") == (
        "Propose ending the match")
    await p.js("document.querySelector('#btn-end-match').click(); 1")
    await p.wait("S.cur.status === 'finished'")
    log = await p.js("[...document.querySelectorAll('#log li')].map((l) => l.textContent)")
    assert any(line.startswith("The players agree to end the match") for line in log), log
    assert "Game finished" in await p.js("document.querySelector('#result').textContent")
    assert await p.js("document.querySelector('#btn-end-match').classList.contains('hidden')")
    stored = await server.store.get_game(int(await p.js("S.cur.table")))
    assert stored is not None and stored.status == "finished"


async def watch_bots_finish(p: Page, game: str, options: dict[str, Any]) -> int:
    """Create a table of bots only, watch it to the end; its id."""
    await p.js("document.querySelector('#create-spectate').checked = true; 1")
    await create(p, game, options)
    await p.wait("S.cur.status === 'finished'", timeout=60)
    return int(await p.js("S.cur.table"))


async def forget(server: Server, table: int) -> None:
    """What the server does to a finished table after a while (or a restart to any)."""
    await server.lobby.tables.pop(table).stop()


async def reconnect(p: Page) -> None:
    await p.js("S.connected = false; S.ws.close(); 1")
    await p.wait("S.connected")


async def toasts(p: Page) -> list[str]:
    return await p.js("[...document.querySelectorAll('#errors .error')].map((e) => e.textContent)")


async def test_a_table_gone_after_its_game_ended_is_dropped_without_alarm(
    page: tuple[Page, Server],
) -> None:
    p, server = page
    # Watching a replay while the server drops the finished table, then reconnecting:
    # the client lets the table go quietly and the replay stays on screen.
    await p.js("document.querySelector('[data-tab=replays]').click(); 1")  # the list, early
    table = await watch_bots_finish(p, "whist", {"deals": 1})
    await p.js("document.querySelector('#result button').click(); 1")
    await p.wait("!document.querySelector('#replays').classList.contains('hidden')")
    # The list shown again holds the game that ended since it was first shown.
    await p.wait(f"document.querySelector('#games').textContent.includes('#{table} whist')")
    await forget(server, table)
    await reconnect(p)
    await p.wait("S.cur === null")
    assert await toasts(p) == []
    assert await p.js("document.querySelector('#replays').classList.contains('hidden')") is False
    # Leaving a finished table the server has dropped says nothing either.
    table = await watch_bots_finish(p, "whist", {"deals": 1})
    await forget(server, table)
    await p.js("document.querySelector('#btn-leave').click(); 1")
    await p.wait("S.tableRequests.size === 0")
    assert await toasts(p) == []
    # A game in play that vanished is news, though.
    await p.js("document.querySelector('#create-spectate').checked = false; 1")
    await create(p, "whist", {"deals": 1})
    await p.wait("S.cur.status === 'live'")
    await forget(server, int(await p.js("S.cur.table")))
    await reconnect(p)
    await p.wait("S.cur === null")
    assert [t for t in await toasts(p) if t.startswith("table gone")]


async def test_the_lobby_names_the_bot_that_plays_a_leavers_seat(
    page: tuple[Page, Server],
) -> None:
    p, _ = page
    await p.js("document.querySelector('#create-spectate').checked = false; 1")
    await create(p, "whist", {"deals": 1})
    await p.wait("S.cur.status === 'live'")
    table, name = await p.js("[S.cur.table, S.name]")
    await p.js("window.confirm = () => true; document.querySelector('#btn-leave').click(); 1")
    await p.wait(f"S.tables.get({table}) && S.tables.get({table}).seats[0].bot")
    await p.js("document.querySelector('[data-tab=lobby]').click(); 1")
    chip = await p.js("document.querySelector('#tables .seat-chip').textContent")
    assert chip == f"North: {name} (bot heuristic standing in)"


async def test_each_game_is_drawn_by_its_own_layout(page: tuple[Page, Server]) -> None:
    # Each game's layout is its own script: a table of each draws with it, and the
    # controls under it answer the first move, with nothing logged as an error.
    p, _ = page
    await p.js("window.__errors = []; addEventListener('error', (e) => __errors.push(e.message))")
    felts = {"poker": ".felt.poker", "bridge": ".felt.bridge", "tractor": ".felt.tractor"}
    felts["rummy"] = ".felt.rummy"
    felts["crazy_eights"] = ".felt.crazy-eights"
    for game, felt in felts.items():
        await create(p, game, {})
        await p.wait(f"document.querySelector('#board').querySelector({json.dumps(felt)}) !== null")
        await p.wait("S.cur.legal && S.cur.legal.length > 0 && !S.cur.pending", 20)
        assert await p.js("document.querySelectorAll('#actions button, #hand button').length")
        assert await p.js("window.__errors") == []
        await p.js("window.confirm = () => true; document.querySelector('#btn-leave').click(); 1")
        await p.wait("S.cur === null")


async def laptop_screen(p: Page) -> None:
    await p.call(
        "Emulation.setDeviceMetricsOverride",
        width=1280,
        height=900,
        deviceScaleFactor=1,
        mobile=False,
    )


async def test_the_whole_bidding_box_fits_a_1280_by_900_window(page: tuple[Page, Server]) -> None:
    p, _ = page
    await laptop_screen(p)
    await create(p, "bridge", {})  # North deals board 1: the creator's call first
    await p.wait("S.cur.legal && S.cur.legal.length > 0 && !S.cur.pending")
    bottom, height, scrolled = await p.js(
        "[document.querySelector('#actions [data-call=\"7NT\"]').getBoundingClientRect().bottom,"
        " innerHeight, scrollY]"
    )
    assert scrolled == 0 and bottom <= height, (bottom, height)


async def test_a_bridge_replay_says_dummys_cards_come_from_dummy(page: tuple[Page, Server]) -> None:
    p, _ = page
    for _ in range(3):  # the bots may pass a board out, or claim before dummy plays
        table = await watch_bots_finish(p, "bridge", {"boards": 1})
        await p.js(f"openReplay({table}, 'all'); 1")
        await p.wait(
            f"S.replay && S.replay.gameId === {table} && S.replay.steps.length"
            " && S.replay.steps.length === S.replay.total"
        )
        # Declarer chooses dummy's cards (the step's seat); the play event names dummy.
        dummy_steps = await p.js(
            "S.replay.steps.map((s, i) => [i, s])"
            ".filter(([, s]) => s.action && s.action.type === 'play'"
            " && s.events[0].kind === 'play' && s.events[0].seat !== s.seat)"
            ".map(([i, s]) => [i, S.replay.names[s.seat]])"
        )
        if dummy_steps:
            break
        await p.js("document.querySelector('#btn-leave').click(); 1")
        await p.wait("S.cur === null")
    assert dummy_steps
    # The export box offers the game's own formats.
    assert await p.js("[...document.querySelectorAll('#export-format option')]"
                      ".map((o) => o.value)") == ["pbn", "lin"]
    assert not await p.js("document.querySelector('#export-form').classList.contains('hidden')")
    for index, declarer in dummy_steps[:3]:
        await p.js(f"stepReplay({index}); 1")
        action = await p.js("document.querySelector('#rp-action').textContent")
        assert action.startswith(f"{declarer}: Play ") and action.endswith(" from dummy"), action
        said = await p.js("[...document.querySelectorAll('#rp-events li')][0].textContent")
        assert said.startswith(f"{declarer} ") and said.endswith(" from dummy"), said
    # The fewest cards North held (one in the last trick, more if a claim ended the
    # play): the seat label counts them in words.
    fewest = await p.js(
        "(() => { const n = S.replay.steps.map((s) => (s.view.hand_sizes || [13])[0]);"
        " const i = n.indexOf(Math.min(...n)); stepReplay(i); return n[i]; })()"
    )
    labels = await p.js(
        "[...document.querySelectorAll('#rp-board .seat-label')].map((l) => l.textContent)"
    )
    words = "1 card" if fewest == 1 else f"{fewest} cards"
    assert any(label.endswith(f"· {words}") for label in labels), (fewest, labels)


async def screenshot(p: Page, path: Path) -> None:
    shot = await p.call("Page.captureScreenshot", format="png")
    path.write_bytes(base64.b64decode(shot["data"]))


async def test_a_turn_clock_from_the_form_counts_down_and_runs_out(
    page: tuple[Page, Server], tmp_path: Path
) -> None:
    p, _ = page
    # A bank without a turn clock is refused before anything is sent.
    await p.js("""document.querySelector('#create-bank').value = '1';
        document.querySelector('#create button[type=submit]').click(); 1""")
    assert any(t.startswith("no turn clock") for t in await toasts(p))
    assert await p.js("S.cur") is None
    # A real table with a 1 s turn and a 1 s bank; North (ours) is first to play.
    await p.js("document.querySelector('#create-turn').value = '1'; 1")
    await create(p, "whist", {"deals": 1})
    clocks = "[...document.querySelectorAll('#table .clock')].map((c) => c.textContent)"
    on_seat = "document.querySelector('#board .seat-label[data-seat=\"0\"] .clock')"
    shown = await p.wait(f"S.cur.legal && S.cur.legal.length && {on_seat} && {clocks}", 10)
    assert len(shown) == 2 and shown[0] in ("0:01", "bank 0:01"), shown  # board and seat list
    title = await p.js("document.querySelector('#table-title').textContent")
    assert "1 s a turn + 1 s bank" in title, title
    await screenshot(p, tmp_path / "clock-turn.png")
    version = await p.js("S.cur.version")
    shown = await p.wait(f"{clocks}.filter((t) => t === 'bank 0:01').length === 2 && {clocks}", 5)
    await screenshot(p, tmp_path / "clock-bank.png")
    # Nobody clicks: the server's stand-in plays North's card when turn and bank are gone.
    await p.wait(f"S.cur.version > {version}", 10)
    log = await p.js("[...document.querySelectorAll('#log li')].map((l) => l.textContent)")
    said = log.index("Your time ran out: a bot played for you.")
    assert log[said + 1].startswith("You play "), log
    assert await p.js("document.querySelectorAll('#hand .card').length") == 12
    await screenshot(p, tmp_path / "clock-out.png")
    # Back to North: the bank is spent, only the turn's second is left.
    await p.wait("S.cur.clock && S.cur.clock.seats.includes(0) && S.cur.clock.banks[0] === 0", 10)


async def test_the_stats_page_shows_each_players_statistics(page: tuple[Page, Server]) -> None:
    from tests.server.test_stats_cli import add_hands

    p, server = page
    await add_hands(server.store)
    # Only the games that keep statistics are offered.
    offered = await p.js("[...document.querySelectorAll('#stats-game option')].map((o) => o.value)")
    assert offered == ["poker"]
    await p.js("""document.querySelector('[data-tab=stats]').click();
        document.querySelector('#stats-game').value = 'poker';
        document.querySelector('#stats-form button[type=submit]').click(); 1""")
    await p.wait("document.querySelectorAll('#stats-table tr').length === 4")
    rows = await p.js(
        "[...document.querySelectorAll('#stats-table tr')]"
        ".map((r) => [...r.children].map((c) => c.textContent))"
    )
    assert rows[0] == ["Player", "Hands", "VPIP", "PFR", "3-bet", "AF", "WTSD", "W$SD", "bb/100"]
    assert rows[1] == ["Ann", "2", "100.0", "50.0", "100.0", "1.00", "50.0", "100.0", "1700.00"]
    assert rows[2][:4] == ["Bob", "2", "0.0", "0.0"] and rows[2][4] == "–"
    note = await p.js("document.querySelector('#stats-note').textContent")
    assert note == "poker: 2 stored games"


async def test_a_secret_replay_step_names_no_seat(page: tuple[Page, Server]) -> None:
    # A Tractor pass at the last word is its passer's secret: another seat's replay
    # shows the step without saying whose it was.
    p, server = page
    moves, passer = drawn_to_a_pass()
    (stored,) = await server.store.import_games([ImportedGame(
        "tractor", {}, SEED, "secret pass", 4, "abandoned", None, {}, moves, "secret pass")])
    gid = stored.game_id
    await p.js(f"openReplay({gid}, {(passer + 1) % 4}, false, {len(moves)}); 1")
    await p.wait(f"S.replay && S.replay.gameId === {gid} && !S.replay.loading"
                 f" && S.replay.steps.length === {len(moves) + 1}")
    await p.js(f"stepReplay({len(moves)}); 1")
    assert await p.js("document.querySelector('#rp-action').textContent") == (
        "A step not shown to this viewer")


async def test_a_bad_house_rule_in_the_folded_section_is_shown(
    page: tuple[Page, Server],
) -> None:
    p, server = page
    await p.wait("S.optionSchemas && S.optionSchemas.poker")
    await p.js("""document.querySelector('#create-game').value = 'poker';
        document.querySelector('#create-game').dispatchEvent(new Event('change')); 1""")
    await p.wait("!!document.querySelector('#create-form [data-option=seats]')")
    await p.js("""document.querySelector('#create-form [data-option=seats]').value = '11';
        document.querySelector('#create-rules').open = false;
        document.querySelector('#create button[type=submit]').click(); 1""")
    await p.wait("document.querySelector('#create-rules').open")
    assert server.lobby.tables == {}


async def test_a_replay_link_is_followed_once(page: tuple[Page, Server]) -> None:
    """A tournament page's link opens its replay; a reload later (seated at a table
    by then) opens the page as it is, not that replay again."""
    p, server = page
    moves, _ = drawn_to_a_pass()
    (stored,) = await server.store.import_games([ImportedGame(
        "tractor", {}, SEED, "a linked game", 4, "abandoned", None, {}, moves, "linked")])
    await p.call("Page.navigate", url="about:blank")  # a load, not a same-page hash change
    await p.call("Page.navigate", url=f"http://127.0.0.1:{server.port}/#replay={stored.game_id}")
    await p.wait(f"S.replay && S.replay.gameId === {stored.game_id}", loading=True)
    assert await p.js("location.hash") == ""


async def test_the_seat_asked_for_is_counted_from_one(page: tuple[Page, Server]) -> None:
    """The form's seat 3 is the third seat (South at whist), as the table names it."""
    p, _ = page
    await p.js("""document.querySelector('#create-spectate').checked = false;
        document.querySelector('#create-seat').disabled = false;
        document.querySelector('#create-seat').value = '3'; 1""")
    await create(p, "whist", {"deals": 1})
    assert await p.js("S.cur.seat") == 2


async def test_an_option_that_may_be_left_unset_is_in_the_form(page: tuple[Page, Server]) -> None:
    """Bridge's dealer override (a choice or nothing) is drawn unset, and set from
    the form reaches the table; poker's minimum bet (a number or nothing) likewise."""
    p, server = page
    await p.wait("S.optionSchemas && S.optionSchemas.bridge")
    await p.js("""document.querySelector('#create-game').value = 'bridge';
        document.querySelector('#create-game').dispatchEvent(new Event('change')); 1""")
    dealer = "document.querySelector('#create-form [data-option=dealer]')"
    assert await p.js(f"{dealer}.value") == ""
    assert await p.js("formOptions()") == {}
    # Choices read as words (the value sent is the option's own).
    claims = "document.querySelector('#create-form [data-option=claims]')"
    assert "double dummy" in await p.js(f"[...{claims}.options].map((o) => o.textContent)")
    await p.js(f"{dealer}.value = 'S'; document.querySelector('#create-options').value = '';"
               " document.querySelector('#create button[type=submit]').click(); 1")
    await p.wait("S.cur && S.cur.view && S.cur.view.game === 'bridge'")
    (table,) = server.lobby.tables.values()
    assert table.config.dealer == "S"
    await p.js("""document.querySelector('#create-game').value = 'poker';
        document.querySelector('#create-game').dispatchEvent(new Event('change'));
        document.querySelector('#create-form [data-option=min_bet]').value = '4'; 1""")
    assert await p.js("formOptions()") == {"min_bet": 4}
