"""`cardtable solve` (issue 6 §1 and §2): table and par of a deal, a PBN file with a
progress bar, solution-tree files written and read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.dds import dd_table
from rules.bridge.par import par
from server.cli import main

DEAL = "N:AKQ2.J54.T9.8765 JT98.AKQ.876.432 7654.T98.AKQ.AKQ 3.7632.J5432.JT9"
ENDING = "N:AK.2.. QJ.3.. T9.4.. 87.5.."


def test_deal_prints_table_and_par(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", DEAL]) == 0
    out = capsys.readouterr().out.splitlines()
    table = dd_table(DEAL)
    assert out[0] == DEAL
    assert out[1].split() == ["N", "E", "S", "W"]
    assert out[2].split() == ["NT", *(str(table["N"][s]) for s in "NESW")]
    assert out[-1] == str(par(table, "None", "N"))


def test_json_carries_table_and_par_for_the_vulnerability(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", DEAL, "--json", "--vul", "All", "--dealer", "E"]) == 0
    doc = json.loads(capsys.readouterr().out)
    table = dd_table(DEAL)
    assert doc["table"] == table
    assert doc["par"]["score_ns"] == par(table, "All", "E").score
    assert doc["vulnerable"] == "All" and doc["dealer"] == "E"


def test_pbn_file_solves_every_deal_with_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rotated = "E:" + DEAL[2:]
    path = tmp_path / "two.pbn"
    path.write_text(
        f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n\n'
        f'[Board "2"]\n[Dealer "E"]\n[Vulnerable "NS"]\n[Deal "{rotated}"]\n'
    )
    assert main(["solve", "--pbn", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    docs = [json.loads(x) for x in captured.out.splitlines()]
    assert [d["board"] for d in docs] == [1, 2]
    assert [(d["dealer"], d["vulnerable"]) for d in docs] == [("N", "None"), ("E", "NS")]
    for doc in docs:
        assert doc["table"] == dd_table(doc["deal"])
    assert docs[1]["table"]["N"]["E"] == docs[0]["table"]["N"]["N"]


def test_tree_written_then_read_prints_the_principal_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "end.tree"
    assert main(["solve", ENDING, "--strain", "N", "--leader", "W", "--write-tree", str(path)]) == 0
    capsys.readouterr()
    assert main(["solve", "--tree", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    # West cashes the 5H, then North's spades take the rest.
    assert doc["value"] == 1 == dd_table(ENDING)["N"]["W"]
    assert [t["cards"][0] for t in doc["line"]][:1] == ["5H"]
    assert [t["winner"] for t in doc["line"]] == ["W", "N", "N"]


def test_tree_what_if_follows_a_defence_and_refuses_a_line_it_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "end.tree"
    main(["solve", ENDING, "--strain", "N", "--leader", "W", "--write-tree", str(path)])
    capsys.readouterr()
    assert main(["solve", "--tree", str(path), "--line", "5H 2H 3H 4H 8S KS QS TS"]) == 0
    out = capsys.readouterr().out
    assert "trick 2: W leads 8S KS QS TS, N wins" in out
    assert "trick 3: N leads AS" in out
    assert main(["solve", "--tree", str(path), "--line", "8S AS QS TS"]) == 2
    assert "no line" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["solve", "bad"], "bad_deal"),
        (["solve", "N:AKQ.J54.T9.8765 x x x"], "bad_deal"),
        (["solve"], "bad_deal"),
        (["solve", DEAL, "--write-tree", "x.tree"], "bad_deal"),
        (["solve", DEAL, "--strain", "S", "--leader", "N", "--write-tree", "x.tree"],
         "tree_too_large"),
    ],
)
def test_bad_input_is_a_coded_error(
    argv: list[str], code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert f"error [{code}]" in capsys.readouterr().err


def test_a_file_that_is_not_a_tree_is_a_coded_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a tree")
    assert main(["solve", "--tree", str(path)]) == 2
    err = capsys.readouterr().err
    assert "error [bad_input]" in err and str(path) in err
