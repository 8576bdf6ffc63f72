"""A straightforward Python walk of the whole 3x3 game tree, for comparison with
`cargo bench -p ttt-solver` (benchmark a). Run: python3 crates/ttt-solver/benches/python_tree.py
"""

import time

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def walk(board, mark, ply, counts):
    """Visits this node and every game below it; counts[0] is nodes."""
    counts[0] += 1
    for square in range(9):
        if board[square] != ".":
            continue
        board[square] = mark
        if any(all(board[i] == mark for i in line) for line in LINES if square in line):
            counts[0] += 1
            counts[1 if mark == "x" else 2] += 1
        elif ply + 1 == 9:
            counts[0] += 1
            counts[3] += 1
        else:
            walk(board, "o" if mark == "x" else "x", ply + 1, counts)
        board[square] = "."


def main():
    best = None
    for _ in range(5):
        counts = [0, 0, 0, 0]
        start = time.perf_counter()
        walk(["."] * 9, "x", 0, counts)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    nodes, x_wins, o_wins, draws = counts
    assert (nodes, x_wins, o_wins, draws) == (549_946, 131_184, 77_904, 46_080), counts
    print(f"nodes {nodes:,}, games {x_wins + o_wins + draws:,} "
          f"(X {x_wins:,}, O {o_wins:,}, draws {draws:,})")
    print(f"best of 5: {best * 1000:.0f} ms")


if __name__ == "__main__":
    main()
