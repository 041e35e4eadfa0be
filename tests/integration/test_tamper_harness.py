"""The tamper harness (ops/tamper/tamper.py) in its quick mode: 52 random mutations of a played store, four of
each form (the newest events cut off, with and without the head record rewritten, chains rewritten to the head,
the books beside later events, topics...), every one named damaged at the seq it damaged."""
import pytest

from ops.tamper import tamper
from tests.integration.conftest import PG_URL


def result_line(printed: str) -> str:
    return next(line for line in printed.splitlines() if line.startswith("RESULT"))


def form_rows(printed: str) -> dict[str, str]:
    return {line.split()[0]: line for line in printed.splitlines() if line.split()[:1] and line.split()[0] in
            tamper.KINDS}


def test_the_quick_tamper_harness_finds_and_locates_every_mutation(capsys):
    assert tamper.main(["--quick", "--seed", "11"]) == 0
    printed = capsys.readouterr().out
    assert "detected 52/52 (100.0%), located 52/52 (100.0%)" in result_line(printed)
    assert "server errors 0" in result_line(printed)
    assert set(form_rows(printed)) == set(tamper.KINDS)  # every form was tried


@pytest.mark.postgres
def test_the_tamper_harness_finds_mutations_in_every_shards_tables(capsys):
    assert tamper.main(["--postgres", PG_URL, "--shards", "2", "--games", "2", "--mutations", "28",
                        "--seed", "5"]) == 0
    printed = capsys.readouterr().out
    played = next(line for line in printed.splitlines() if line.startswith("played"))
    assert "warlog_events" in played and "warlog_shard1_events" in played  # both shards hold a game
    assert "detected 28/28 (100.0%), located 28/28 (100.0%)" in result_line(printed)
    assert "server errors 0" in result_line(printed)
