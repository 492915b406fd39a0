"""A self-play loop that trains nothing: the shape of a learner's data collection.

Two bots play each other; every position is kept as (observation, legal actions,
chosen action), and each game's returns are attached to its positions once it ends.

    python python/examples/selfplay.py games/tictactoe.toml 20
"""

import sys

import numpy as np

import rulebook


def self_play(path: str, games: int, seed: int = 0) -> list:
    game = rulebook.load_game(path)
    bots = [rulebook.Bot("mcts:iters=100", seed=seed), rulebook.Bot("greedy", seed=seed + 1)]
    samples = []
    for g in range(games):
        state = game.new_initial_state()
        positions = []
        while not state.is_terminal():
            player = state.current_player()
            # Seats swap every game, so that neither bot always moves first.
            action = bots[(player + g) % 2].step(state)
            positions.append((state.observation_tensor(), state.legal_actions(), action, player))
            state.apply_action(action)
        returns = state.returns()
        samples.extend((obs, legal, action, returns[player]) for obs, legal, action, player in positions)
    return samples


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "games/tictactoe.toml"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    samples = self_play(path, games)
    observations = np.stack([s[0] for s in samples])
    values = np.array([s[3] for s in samples])
    print(f"{len(samples)} positions from {games} games; observations {observations.shape}, "
          f"mean value {values.mean():+.3f}")
