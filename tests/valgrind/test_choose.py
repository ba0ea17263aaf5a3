#!/usr/bin/env python3
"""test_choose.py - what choose.py keeps under valgrind, on made-up tests."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import choose  # noqa: E402


def lines(*ns):
    return {("lib/a.c", n) for n in ns}


class Choose(unittest.TestCase):
    def setUp(self):
        choose.SECONDS_PER_LINE = 1.0

    def test_dear_test_with_few_new_lines_is_left_out(self):
        cov = {"cli_cheap": lines(1, 2, 3), "unit_dear": lines(1, 2, 3, 4)}
        always, kept = choose.choose(cov, {"cli_cheap": 1.0, "unit_dear": 50.0})
        self.assertEqual((always, kept), ([], ["cli_cheap"]))

    def test_a_line_a_second_is_enough(self):
        cov = {"cli_a": lines(1), "cli_b": lines(1, 2, 3)}
        always, kept = choose.choose(cov, {"cli_a": 0.5, "cli_b": 2.0})
        self.assertEqual(kept, ["cli_b"])

    def test_unmeasured_test_always_runs_and_covers_its_lines(self):
        cov = {"cli_new": lines(1, 2), "cli_old": lines(1, 2), "cli_other": lines(3)}
        always, kept = choose.choose(cov, {"cli_old": 0.1, "cli_other": 1.0})
        self.assertEqual((always, kept), (["cli_new"], ["cli_other"]))

    def test_a_test_the_others_cover_is_dropped(self):
        # cli_wide is chosen first (four new lines a second); the two
        # narrow ones then cover all of its lines, so it goes.
        cov = {"cli_wide": lines(1, 2, 3, 4), "cli_left": lines(1, 2, 5),
               "cli_right": lines(3, 4, 6)}
        costs = {"cli_wide": 1.0, "cli_left": 1.0, "cli_right": 1.0}
        always, kept = choose.choose(cov, costs)
        self.assertEqual(sorted(kept), ["cli_left", "cli_right"])


if __name__ == "__main__":
    unittest.main()
