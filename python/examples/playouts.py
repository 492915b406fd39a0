"""Random playouts per second through Python, to set beside `rulebook bench GAME`.

    python python/examples/playouts.py games/splut.toml 5

Each playout is one call: a copy of the start played out in the engine without the GIL.
"""

import sys
import time

import rulebook


def playouts_per_second(path: str, seconds: float) -> float:
    start = rulebook.load_game(path).new_initial_state()
    done = 0
    clock = time.perf_counter()
    while time.perf_counter() - clock < seconds:
        start.random_playout(seed=done)
        done += 1
    return done / (time.perf_counter() - clock)


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "games/splut.toml"
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    print(f"{path}: {playouts_per_second(path, seconds):,.0f} random playouts/s through Python")
