"""The package's API on every game of the library: loading, actions and their ids and
texts, playing and taking back, serialising, observations, returns, bots and playouts."""

import copy
import random
import subprocess
import threading

import numpy as np
import pytest

import rulebook
from conftest import game_files

GAMES = game_files()


def test_the_library_is_all_there():
    names = {p.rsplit("/", 1)[-1] for p in GAMES}
    assert {"splut.toml", "chess.toml", "go.toml", "tictactoe.toml"} <= names
    assert len(GAMES) >= 16


@pytest.mark.parametrize("path", GAMES)
def test_every_game_loads_and_its_actions_are_ids_with_texts(path):
    game = rulebook.load_game(path)
    state = game.new_initial_state()
    assert state.current_player() == 0
    legal = state.legal_actions()
    assert legal, "the first player has an action"
    assert len(set(legal)) == len(legal), "ids are distinct"
    for action, text in state.legal_actions_with_text():
        assert state.action_to_string(action) == text
        assert state.action_to_string(0, action) == text
        assert state.string_to_action(text) == action


def perft(state, depth):
    if depth == 0 or state.is_terminal():
        return 1
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for action in state.legal_actions():
        state.apply_action(action)
        total += perft(state, depth - 1)
        state.undo_action()
    return total


@pytest.mark.parametrize("path", GAMES)
def test_playing_and_undoing_through_python_counts_the_clis_perft_at_depth_2(path, cli):
    out = subprocess.run([cli, "perft", path, "--depth", "2"], capture_output=True, text=True, check=True)
    expected = int(out.stdout.split()[-1].replace(",", ""))
    game = rulebook.load_game(path)
    assert perft(game.new_initial_state(), 2) == expected


def random_game(game, seed, limit=400):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and state.move_number() < limit:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("path", GAMES)
def test_a_state_round_trips_through_its_text(path):
    game = rulebook.load_game(path)
    for seed in range(3):
        state = random_game(game, seed, limit=60)
        again = game.deserialize_state(state.serialize())
        assert again.history() == state.history()
        assert again.history_texts() == state.history_texts()
        assert again.legal_actions() == state.legal_actions()
        assert np.array_equal(again.observation_tensor(), state.observation_tensor())
        assert str(again) == str(state)


@pytest.mark.parametrize("path", GAMES)
def test_undo_restores_every_position_on_the_way_back(path):
    game = rulebook.load_game(path)
    state = random_game(game, 7, limit=40)
    seen = []
    replay = game.new_initial_state()
    for action in state.history():
        seen.append((str(replay), replay.legal_actions()))
        replay.apply_action(action)
    for text, legal in reversed(seen):
        state.undo_action()
        assert (str(state), state.legal_actions()) == (text, legal)
    with pytest.raises(ValueError, match="no action to undo"):
        state.undo_action()


@pytest.mark.parametrize("path", GAMES)
def test_the_observation_has_the_documented_shape_and_counts_the_pieces(path):
    game = rulebook.load_game(path)
    state = random_game(game, 3, limit=30)
    shape = game.observation_tensor_shape()
    planes = game.observation_planes()
    obs = state.observation_tensor()
    assert obs.dtype == np.float32 and list(obs.shape) == shape and len(planes) == shape[0]
    board = planes.index("board")
    cells = int(obs[board].sum())
    # Every cell of the board is a named square of the text board.
    assert cells > 0 and cells <= shape[1] * shape[2]
    mover = planes.index(f"to move: {game.players[state.current_player()]}") if not state.is_terminal() else None
    if mover is not None:
        assert obs[mover].min() == 1.0
    # Pieces only on the board's cells.
    pieces = obs[:board].sum(axis=0)
    assert np.all(pieces[obs[board] == 0] == 0)


def test_the_observation_of_a_board_with_edges_shows_its_walls():
    game = rulebook.load_game(str(rulebook_root() / "games" / "quoridor.toml"))
    assert game.observation_tensor_shape()[1:] == [19, 19]
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("e3h"))
    planes = game.observation_planes()
    obs = state.observation_tensor()
    across = obs[planes.index("across")]
    # The grid of half steps: e3 is [5, 9]; the wall is the edges above e3 and f3 and
    # the point between them, on row 6.
    assert across[6, 9] == 1 and across[6, 10] == 1 and across[6, 11] == 1 and across.sum() == 3
    assert obs[planes.index("pawn of white")][1, 9] == 1
    assert obs[planes.index("board")].sum() == 19 * 19


def test_the_observation_of_tictactoe_is_its_board():
    game = rulebook.load_game(str(rulebook_root() / "games" / "tictactoe.toml"))
    state = game.new_initial_state()
    for text in ["b2", "a1", "c3"]:
        state.apply_action(state.string_to_action(text))
    planes = game.observation_planes()
    obs = state.observation_tensor()
    x = obs[planes.index(next(p for p in planes if p.endswith(" of x")))]
    o = obs[planes.index(next(p for p in planes if p.endswith(" of o")))]
    # [rank, file]: a1 is [0, 0], b2 [1, 1], c3 [2, 2].
    assert x[1, 1] == 1 and x[2, 2] == 1 and x.sum() == 2
    assert o[0, 0] == 1 and o.sum() == 1
    assert obs[planes.index("to move: o")].min() == 1


def rulebook_root():
    from conftest import ROOT

    return ROOT


def test_returns_name_the_winner_of_a_won_game():
    game = rulebook.load_game(str(rulebook_root() / "games" / "tictactoe.toml"))
    state = game.new_initial_state()
    for text in ["a1", "a2", "b1", "b2", "c1"]:
        assert state.returns() == [0.0, 0.0]
        state.apply_action(state.string_to_action(text))
    assert state.is_terminal()
    assert state.current_player() == rulebook.TERMINAL_PLAYER
    assert state.returns() == [1.0, -1.0] and state.winners() == ["x"]
    assert state.legal_actions() == []
    with pytest.raises(ValueError, match="game is over"):
        state.apply_action(0)


def test_a_bad_action_or_text_says_why():
    game = rulebook.load_game(str(rulebook_root() / "games" / "tictactoe.toml"))
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="not legal in this position"):
        state.apply_action(10**30)
    with pytest.raises(ValueError, match="closest"):
        state.string_to_action("a4")
    with pytest.raises(OverflowError):
        state.apply_action(-1)


def test_a_bad_file_or_parameter_says_where_and_what(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[game]\nname = "x"\nplayers = [\n')
    with pytest.raises(ValueError, match=r"bad\.toml:\d+:\d+"):
        rulebook.load_game(str(bad))
    with pytest.raises(ValueError, match="size"):
        rulebook.load_game(str(rulebook_root() / "games" / "hex.toml"), size=99)
    with pytest.raises(ValueError, match="colour"):
        rulebook.load_game(str(rulebook_root() / "games" / "hex.toml"), colour=3)
    with pytest.raises(TypeError):
        rulebook.load_game(str(rulebook_root() / "games" / "hex.toml"), size=[3])


def test_parameters_are_loaded_with_the_values_given():
    game = rulebook.load_game(str(rulebook_root() / "games" / "splut.toml"), players=4)
    assert game.num_players() == 4 and game.params()["players"] == 4
    small = rulebook.load_game(str(rulebook_root() / "games" / "bounce.toml"), size=4)
    assert small.observation_tensor_shape()[1:] == [4, 4]
    # A parameter with a scale is typed and read in its unit: komi in points.
    go = rulebook.load_game(str(rulebook_root() / "games" / "go.toml"), komi=6.5)
    assert go.params()["komi"] == 6.5
    assert rulebook.load_game(str(rulebook_root() / "games" / "go.toml")).params()["komi"] == 7.5
    with pytest.raises(ValueError, match="at most 1 decimal"):
        rulebook.load_game(str(rulebook_root() / "games" / "go.toml"), komi=6.55)


@pytest.mark.parametrize("spec", ["random", "greedy", "alphabeta:depth=2", "mcts:iters=50"])
def test_every_bot_returns_a_legal_action(spec):
    game = rulebook.load_game(str(rulebook_root() / "games" / "splut.toml"))
    state = random_game(game, 11, limit=20)
    bot = rulebook.Bot(spec, seed=5)
    action = bot.step(state)
    assert action in state.legal_actions()
    assert rulebook.Bot(spec, seed=5).step(state) == action, "a seeded bot is deterministic"


def test_a_bad_bot_spec_says_which_bots_exist():
    with pytest.raises(ValueError, match="mcts"):
        rulebook.Bot("genius")


def test_random_playouts_end_games_leave_the_state_and_repeat_with_their_seed():
    game = rulebook.load_game(str(rulebook_root() / "games" / "splut.toml"))
    state = game.new_initial_state()
    before = str(state)
    results = [tuple(state.random_playout(seed=s)) for s in range(40)]
    assert str(state) == before and state.history() == []
    assert set(results) <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert len(set(results)) > 1
    assert results == [tuple(state.random_playout(seed=s)) for s in range(40)]
    assert state.random_playout(seed=1, max_plies=3) == [0.0, 0.0]


def test_a_thinking_bot_lets_other_python_threads_run():
    game = rulebook.load_game(str(rulebook_root() / "games" / "splut.toml"))
    state = game.new_initial_state()
    done = threading.Event()
    counted = [0]

    def think():
        rulebook.Bot("mcts:iters=20000", seed=1).step(state)
        done.set()

    thread = threading.Thread(target=think)
    thread.start()
    while not done.is_set():
        counted[0] += 1
    thread.join()
    # With the GIL held through the search, this loop could not have run while it did.
    assert counted[0] > 10_000


def test_states_copy_apart():
    game = rulebook.load_game(str(rulebook_root() / "games" / "tictactoe.toml"))
    state = game.new_initial_state()
    for other in [state.clone(), copy.copy(state), copy.deepcopy(state)]:
        other.apply_action(other.legal_actions()[0])
        assert state.history() == [] and len(other.history()) == 1


def test_the_self_play_example_runs():
    import importlib.util

    path = rulebook_root() / "python" / "examples" / "selfplay.py"
    spec = importlib.util.spec_from_file_location("selfplay", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    samples = example.self_play(str(rulebook_root() / "games" / "tictactoe.toml"), 4)
    assert samples and all(value in (-1.0, 0.0, 1.0) for *_, value in samples)


@pytest.mark.parametrize("path", GAMES)
def test_a_random_game_played_through_python_replays_in_the_cli(path, cli, tmp_path):
    game = rulebook.load_game(path)
    state = random_game(game, 5, limit=120)
    saved = tmp_path / "game.txt"
    saved.write_text(state.serialize())
    out = subprocess.run([cli, "replay", str(saved), "--game", path], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    # The CLI's last board is the state's own.
    assert str(state).strip() in out.stdout
