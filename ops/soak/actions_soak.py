"""Soak the legal actions: whole games of every ruleset in both dice modes, played only from `actions`.

Each move sends a random instance of an offered schema (it must be accepted: sound); now and then a command
outside every schema offered to a seat is sent first (it must be refused, appending nothing: complete). A
game must end. Prints the games, moves and probes, and each failure with its seed.

    .venv/bin/python ops/soak/actions_soak.py [--seeds 100] [--first 100] [--rounds 5]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.golden.driver import Driver  # noqa: E402
from tests.property.test_actions_properties import RULESETS, new_game, offers, refuse_outside  # noqa: E402


def soak(seed: int, ruleset: str, dice_mode: str, rounds: int) -> tuple[int, int]:
    warlog, table = new_game(ruleset, dice_mode, seed, rounds=rounds)
    rng = random.Random(seed)
    driver, probes = Driver(table, rng), 0
    for moves in range(20_000):
        views = offers(table)
        if views["A"]["status"] == "ended":
            return moves, probes
        if rng.random() < 0.15:
            probes += refuse_outside(warlog, table, views, rng)
        driver.move()
    raise AssertionError("the game did not end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--first", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    started, games, moves, probes, failed = time.time(), 0, 0, 0, 0
    for seed in range(args.first, args.first + args.seeds):
        for ruleset in RULESETS:
            for dice_mode in ("server", "table"):
                try:
                    played, refused = soak(seed, ruleset, dice_mode, args.rounds)
                except Exception:
                    failed += 1
                    print(f"FAILED {ruleset} {dice_mode} seed {seed}")
                    traceback.print_exc(limit=4)
                    continue
                games, moves, probes = games + 1, moves + played, probes + refused
    print(f"{games} games ended, {failed} failed; {moves} offered actions sent, none refused; "
          f"{probes} commands outside the offered schemas, all refused; {time.time() - started:.0f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
