"""The browser's tournament pages, rendered by the server: ``/tournaments`` lists
the stored tournaments; ``/tournaments/ID`` shows one: the rating table, both
charts (SVG drawn with matplotlib) and every match's games, each linked to its
replay in the browser client (``/#replay=GAME``)."""

from __future__ import annotations

import math
from html import escape
from typing import Any

from bots.arena import mean_ci
from engine.presentation import plural
from rules.registry import get_game
from server.persistence.results import StoredTournament


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/style.css"></head>'
        f'<body class="tournament-page"><main>{body}</main></body></html>\n'
    )


def _num(x: float | None) -> str:
    if x is None or not math.isfinite(x):
        return "∞"
    return str(int(x)) if float(x).is_integer() else f"{x:.3f}"


def list_page(rows: list[tuple[StoredTournament, int]]) -> str:
    """Every stored tournament, newest first."""
    items = "".join(
        f'<tr><td><a href="/tournaments/{t.id}">{t.id}</a></td>'
        f"<td>{escape(get_game(t.game_type).title)}</td><td>{escape(t.status)}</td>"
        f"<td>{n}</td><td>{escape(t.created_at.strftime('%Y-%m-%d %H:%M'))}</td>"
        f"<td>{escape(', '.join(e['name'] for e in t.setup.get('entrants', [])))}</td></tr>"
        for t, n in rows
    )
    body = '<h1>Tournaments</h1><p><a href="/">Lobby</a></p>' + (
        '<table class="standings"><thead><tr><th>#</th><th>game</th><th>status</th>'
        f"<th>matches</th><th>created</th><th>bots</th></tr></thead><tbody>{items}"
        "</tbody></table>"
        if rows
        else "<p>No stored tournaments yet: run <code>cardtable tournament</code>.</p>"
    )
    return _page("Tournaments", body)


def render(t: StoredTournament) -> str:
    """The whole page, chart included (seconds of matplotlib: a worker thread's job)."""
    from server.tournament.plot import svg

    return tournament_page(t, svg(stored_chart(t)))


def tournament_page(t: StoredTournament, chart_svg: str) -> str:
    """One tournament: standings with ratings, the charts, the matches."""
    title = f"{get_game(t.game_type).title} tournament {t.id}"
    setup = t.setup
    bots = standings_of(t)
    rows = "".join(
        f"<tr><td>{escape(b['name'])}</td><td>{_num(b['mean'])}</td>"
        f"<td>{_interval(b)}</td><td>{b['mu']:.1f} ± {b['sigma']:.1f}</td>"
        f"<td>{_num(b['points'])}</td><td>{b['matches']}</td><td>{b['stand_ins']}</td></tr>"
        for b in bots
    )
    standings = (
        '<table class="standings"><thead><tr><th>bot</th><th>mean score/game</th>'
        "<th>95% CI (t)</th><th>rating (mu ± sigma)</th><th>points</th><th>matches</th>"
        f"<th>stand-ins</th></tr></thead><tbody>{rows}</tbody></table>"
        if bots
        else "<p>No standings yet.</p>"
    )
    matches = "".join(
        f"<tr><td>{m.number}</td><td>{m.round}</td><td>{escape(m.bot_a)}</td>"
        f"<td>{_num(m.score_a)} – {_num(m.score_b)}</td><td>{escape(m.bot_b)}</td><td>"
        + " ".join(
            f'<a href="/#replay={g.game_id}" title="{escape(" / ".join(g.bots))}: '
            f'{escape(" ".join(_num(s) for s in g.scores))}">game {g.game_id}</a>'
            for g in m.games
        )
        + "</td></tr>"
        for m in t.matches
    )
    body = (
        f"<h1>{escape(title)}</h1>"
        '<p><a href="/tournaments">All tournaments</a> · <a href="/">Lobby</a></p>'
        f"<p>{escape(str(setup.get('schedule')))}, {plural(setup.get('deals'), 'deal')} per pairing"
        f"{'' if setup.get('duplicate', True) else ', one seating per deal'}, "
        f"budget {setup.get('budget')} s per decision · {escape(t.status)} · "
        f"{plural(len(t.matches), 'match', 'matches')}</p>"
        f"<h2>Standings</h2>{standings}"
        f'<div class="chart">{_inline(chart_svg)}</div>'
        "<h2>Matches</h2><p>Each match is one deal in every seating of the two bots; "
        "each game links to its replay.</p>"
        '<table class="standings"><thead><tr><th>#</th><th>round</th><th>bot</th>'
        "<th>score per game</th><th>bot</th><th>games</th></tr></thead>"
        f"<tbody>{matches}</tbody></table>"
        + _byes(t)
    )
    return _page(title, body)


def _byes(t: StoredTournament) -> str:
    """The Swiss byes: who sat out which round, and the points it scored."""
    if not t.byes:
        return ""
    items = "".join(
        f"<li>round {b.round}: {escape(b.bot)} (+{_num(b.points)} points)</li>" for b in t.byes
    )
    return f"<h2>Byes</h2><ul>{items}</ul>"


def _interval(b: dict[str, Any]) -> str:
    if b["half_width"] is None:
        return "–"
    return f"[{_num(b['mean'] - b['half_width'])}, {_num(b['mean'] + b['half_width'])}]"


def _inline(svg: str) -> str:
    """matplotlib's SVG document without its XML prologue and doctype, for inline use."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else ""


def stored_chart(t: StoredTournament) -> Any:
    """The same charts from what the database holds."""
    from server.tournament.plot import RatingPoint, StandingPoint, chart

    bots = standings_of(t)
    standings = [StandingPoint(b["name"], b["mean"], b["half_width"]) for b in bots]
    ratings = [RatingPoint(r.match_number, r.bot, r.mu, r.sigma) for r in t.ratings]
    return chart(f"{get_game(t.game_type).title} tournament {t.id}", standings, ratings)


def standings_of(t: StoredTournament) -> list[dict[str, Any]]:
    """The standings stored with a finished (or interrupted) tournament; for one
    still running, worked out from the matches and Swiss byes stored so far."""
    if t.standings is not None:
        return list(t.standings.get("bots", []))
    names = [e["name"] for e in t.setup.get("entrants", [])]
    samples: dict[str, list[float]] = {n: [] for n in names}
    points = dict.fromkeys(names, 0.0)
    stand_ins = dict.fromkeys(names, 0)
    for m in t.matches:
        samples[m.bot_a].append(m.score_a)
        if m.bot_b != m.bot_a:
            samples[m.bot_b].append(m.score_b)
            win = 1.0 if m.score_a > m.score_b else 0.5 if m.score_a == m.score_b else 0.0
            points[m.bot_a] += win
            points[m.bot_b] += 1.0 - win
        for g in m.games:
            for bot, n in zip(g.bots, g.stand_ins, strict=True):
                stand_ins[bot] += n
    for bye in t.byes:
        points[bye.bot] += bye.points
    latest = {r.bot: r for r in t.ratings}
    out = []
    for n in names:
        mean, half = mean_ci(samples[n])
        out.append(
            {
                "name": n,
                "mean": mean,
                "half_width": half if math.isfinite(half) else None,
                "matches": len(samples[n]),
                "mu": latest[n].mu if n in latest else 25.0,
                "sigma": latest[n].sigma if n in latest else 25.0 / 3,
                "points": points[n],
                "stand_ins": stand_ins[n],
            }
        )
    return sorted(out, key=lambda b: (-b["mean"], b["name"]))
