"""The tamper harness (ops/tamper/tamper.py) in its quick mode: 50 random mutations of a played store,
every one but a truncation named damaged, and every truncation caught by a seat's kept head."""
import pytest

from ops.tamper import tamper
from tests.integration.conftest import PG_URL


def result_line(printed: str) -> str:
    return next(line for line in printed.splitlines() if line.startswith("RESULT"))


def test_the_quick_tamper_harness_finds_every_mutation(capsys):
    assert tamper.main(["--quick", "--seed", "11"]) == 0
    result = result_line(capsys.readouterr().out)
    assert "(100.0%) of the mutations but truncation" in result
    assert "truncations caught by a kept head 7/7 (100.0%)" in result and "server errors 0" in result


@pytest.mark.postgres
def test_the_tamper_harness_finds_mutations_in_every_shards_tables(capsys):
    assert tamper.main(["--postgres", PG_URL, "--shards", "2", "--games", "2", "--mutations", "14",
                        "--seed", "5"]) == 0
    printed = capsys.readouterr().out
    played = next(line for line in printed.splitlines() if line.startswith("played"))
    assert "warlog_events" in played and "warlog_shard1_events" in played  # both shards hold a game
    result = result_line(printed)
    assert "12/12 (100.0%) of the mutations but truncation" in result
    assert "truncations caught by a kept head 2/2 (100.0%)" in result and "server errors 0" in result
