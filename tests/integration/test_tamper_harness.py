"""The tamper harness (ops/tamper/tamper.py) in its quick mode: 50 random mutations of a played store,
every one but a truncation named damaged, and every truncation caught by a seat's kept head."""
from ops.tamper import tamper


def test_the_quick_tamper_harness_finds_every_mutation(capsys):
    assert tamper.main(["--quick", "--seed", "11"]) == 0
    printed = capsys.readouterr().out
    result = next(line for line in printed.splitlines() if line.startswith("RESULT"))
    assert "(100.0%) of the mutations but truncation" in result
    assert "truncations caught by a kept head 7/7 (100.0%)" in result and "server errors 0" in result
