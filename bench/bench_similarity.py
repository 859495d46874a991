"""Similarity report speed and its measured threshold: the report of `make grade` (tools/grading/similarity.py).

    python bench/bench_similarity.py [--n 300] [--assignment 01_metrics]

First, on every assignment with answer files (tests/similarity/ASSIGNMENT/), the two classes of
tests/test_grading_similar.py: the honest class (twenty hand-ins of independently written correct answers,
and the course's solution) and the copied class (the same, plus a student who copied hand-in 07 and one who
copied the course's solution, renaming variables and moving blank lines). Prints the top pairs of each, how
many honest pairs are above the report's threshold (the false positives) and the highest honest pair's
figures: the README quotes them.

Then a class of ``--n`` hand-ins of ``--assignment`` is built in memory: each student takes, per exercise,
one of the twenty honest answers (seeded), with the variables renamed as their own (so no two hand-ins are
the same text), and every tenth student copies the one before. Prints the seconds the report takes (reading
the answer cells, fingerprints, every pair, the CSV rows and the page) on this machine, and the load average
(other work on the cores makes it slower: the figure is printed, not asserted).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import test_grading_similar as classes  # noqa: E402  (the answer files, the classes, disguise)

similarity = classes.similarity


def describe(pair) -> str:
    return (f"{pair.a} / {pair.b}: {pair.shared} characters shared, {100 * pair.share_a:.0f}% and "
            f"{100 * pair.share_b:.0f}% of their answers, {'above' if pair.worth_a_look else 'below'} the threshold")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--assignment", default="01_metrics")
    args, _ = parser.parse_known_args()
    print(f"threshold: at least {similarity.MIN_SHARED} characters of normalised code shared and at least "
          f"{100 * similarity.MIN_SHARE:.0f}% of one student's answers (overall, or on one exercise)")
    with tempfile.TemporaryDirectory() as tmp:
        built = {}
        for assignment in classes.ASSIGNMENTS:
            built[assignment] = made = classes.Classes(assignment, Path(tmp) / assignment)
            _, _, honest = made.report(made.honest())
            _, _, copied = made.report(made.copied())
            above = [pair for pair in honest if pair.worth_a_look]
            top = max(honest, key=lambda p: (max(p.share_a, p.share_b), p.shared))
            print(f"\n{assignment}, honest class ({len(made.honest())} hand-ins and the course's solution, "
                  f"{len(honest)} pairs): {len(above)} pair(s) above the threshold")
            print(f"  most shared:       {describe(honest[0])}")
            print(f"  highest share:     {describe(top)}")
            on_one = [(e, p) for p in honest for e in p.exercises]
            longest = max(on_one, key=lambda ep: ep[1].exercises[ep[0]].length)
            long_enough = [ep for ep in on_one if ep[1].exercises[ep[0]].length >= similarity.MIN_SHARED]
            closest = max(long_enough, default=None,
                          key=lambda ep: max(ep[1].exercises[ep[0]].share_a, ep[1].exercises[ep[0]].share_b))
            for label, found in [("longest on one exercise", longest),
                                 (f"highest share on one exercise, {similarity.MIN_SHARED}+ characters", closest)]:
                if found is None:
                    print(f"  {label}: none")
                    continue
                exercise, pair = found
                shared = pair.exercises[exercise]
                print(f"  {label}: {exercise}, {pair.a} / {pair.b}: {shared.length} characters "
                      f"({100 * shared.share_a:.0f}% and {100 * shared.share_b:.0f}%)")
            print(f"{assignment}, copied class: top pairs")
            for pair in copied[:3]:
                print(f"  {describe(pair)}")

        made = built[args.assignment] if args.assignment in built else classes.Classes(args.assignment, Path(tmp) / "x")
        rng = random.Random(0)
        students = {}
        previous = None
        for n in range(args.n):
            name = f"student_{n:03d}"
            if n % 10 == 9 and previous is not None:
                code = {e: classes.disguise(s, f"c{n}") for e, s in previous.items()}
            else:
                code = {e: classes.disguise(rng.choice(sources), f"s{n}") for e, sources in made.answers.items()}
            students[name] = classes.hand_in(made.released, code)
            previous = code
        load = os.getloadavg()[0]
        start, cpu = time.perf_counter(), time.process_time()
        rows, page, pairs = made.report(students)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"\n{args.n} hand-ins of {args.assignment} and the course's solution: report in {seconds:.1f} s "
              f"wall, {cpu:.1f} s CPU ({len(pairs)} pairs; page {len(page) / 1024:.0f} KiB; "
              f"{sum(p.worth_a_look for p in pairs)} above the threshold: the class draws from only twenty answers "
              "per exercise, so many hand-ins hold the same answer by construction)")
        print(f"  load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end (on {os.cpu_count()} "
              "cores: above that, other work competes for them and the wall-clock time grows; the CPU time hardly)")


if __name__ == "__main__":
    main()
