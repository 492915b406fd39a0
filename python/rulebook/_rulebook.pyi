"""Type stubs of the native module (the engine's bindings)."""

from typing import Optional, Union

import numpy as np
import numpy.typing as npt

TERMINAL_PLAYER: int
"""What ``State.current_player()`` gives once the game is over (-4, as in OpenSpiel)."""

def load_game(path: str, **params: Union[int, float, bool, str]) -> Game:
    """Loads the game file at ``path`` with parameters (``size=6``, ``players=4``,
    ``komi=6.5`` for a parameter with a scale).

    Raises ValueError with the file, line and column of what does not load, and what
    was expected there, or naming the parameter that the game does not declare.
    """

class Game:
    """A loaded game file."""

    @property
    def name(self) -> str: ...
    @property
    def players(self) -> list[str]:
        """The players' names, by player number."""
    @property
    def rules(self) -> str:
        """The rules as the game file tells them."""
    def num_players(self) -> int: ...
    def params(self) -> dict[str, Union[int, float, bool]]:
        """Every parameter of the game and the value it was loaded with (a float, in the
        unit people type, for a parameter with a scale: ``7.5``)."""
    def max_game_length(self) -> Optional[int]:
        """The game file's ply cap, or None."""
    def new_initial_state(self) -> State: ...
    def deserialize_state(self, text: str) -> State:
        """The state that ``State.serialize()`` wrote (a transcript, as ``rulebook play``
        saves). ValueError names the first line that does not fit."""
    def observation_tensor_shape(self) -> list[int]:
        """``[planes, ranks, files]``: the shape of ``State.observation_tensor()``."""
    def observation_planes(self) -> list[str]:
        """What each plane of the observation holds, in order."""

class State:
    """A position of a game and the plies that led to it."""

    def current_player(self) -> int:
        """The player to move, by number; ``TERMINAL_PLAYER`` once the game is over."""
    def is_terminal(self) -> bool: ...
    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        """The legal actions' ids, in the engine's order; empty once the game is over or
        for a player who is not to move."""
    def legal_actions_with_text(self) -> list[tuple[int, str]]:
        """The legal actions with the text players write for each (``b1-a1``)."""
    def action_to_string(self, first: int, second: Optional[int] = None) -> str:
        """The text of a legal action: ``action_to_string(action)`` or, as OpenSpiel
        writes it, ``action_to_string(player, action)``."""
    def string_to_action(self, text: str) -> int:
        """The id of the legal ply written ``text``; ValueError with the closest legal
        plies when there is none."""
    def apply_action(self, action: int) -> None:
        """Plays a legal action; ValueError for one that is not legal here."""
    def undo_action(self, player: Optional[int] = None, action: Optional[int] = None) -> None:
        """Takes the last action back; with OpenSpiel's arguments, checks they name it."""
    def history(self) -> list[int]:
        """The actions played from the start."""
    def history_texts(self) -> list[str]: ...
    def move_number(self) -> int:
        """Plies played from the start."""
    def returns(self) -> list[float]:
        """Per player: 1 for a winner, -1 for a loser; 0 for all at a draw and before
        the end."""
    def player_return(self, player: int) -> float: ...
    def winners(self) -> list[str]:
        """The winners' names; empty before the end and at a draw."""
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The position as planes over the board, shape ``Game.observation_tensor_shape()``
        (the same for every player: the games are of perfect information)."""
    def observation_string(self, player: Optional[int] = None) -> str:
        """The board as the command line shows it."""
    def random_playout(self, seed: int = 0, max_plies: Optional[int] = None) -> list[float]:
        """Plays random plies from a copy of this state to the end (or for ``max_plies``)
        in the engine, without the GIL, and gives the returns; the state does not change."""
    def serialize(self) -> str:
        """The state as a transcript of its plies (``Game.deserialize_state`` reads it)."""
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: object) -> State: ...

class Bot:
    """A built-in bot: ``random``, ``greedy``, ``alphabeta:depth=3``, ``mcts:iters=500``
    (the specs of ``rulebook play --seat``)."""

    def __init__(self, spec: str, seed: int = 0) -> None: ...
    @property
    def spec(self) -> str: ...
    def step(self, state: State) -> int:
        """The action the bot chooses in ``state``, thinking without the GIL; ValueError
        once the game is over."""
