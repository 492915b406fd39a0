"""rulebook: any board game described in a text file, played from Python.

Load a game file with its parameters, then walk its states with the names OpenSpiel
uses::

    import rulebook
    game = rulebook.load_game("games/splut.toml", players=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

Actions are integer ids, the same for the same ply in any position, process or machine
(``State.action_to_string`` and ``State.string_to_action`` turn them into the text
players write and back). ``State.random_playout`` and ``Bot.step`` run in the engine
without the GIL. docs/python.md in the repository explains every method.
"""

from ._rulebook import TERMINAL_PLAYER, Bot, Game, State, load_game

__all__ = ["TERMINAL_PLAYER", "Bot", "Game", "State", "load_game"]
