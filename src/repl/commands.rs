//! The REPL's commands, with the help `help` and `help CMD` print.

/// One command: its name, how it is typed and what it does.
pub struct Command {
    pub name: &'static str,
    pub usage: &'static str,
    /// A few words for the list `help` prints.
    pub summary: &'static str,
    pub help: &'static str,
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "moves",
        summary: "the legal plies, numbered",
        usage: "moves",
        help: "Lists the legal plies, numbered, in natural order (a2 before a10); type a number to play that ply (it says which ply that was). Long lists are grouped by where the plies start.",
    },
    Command {
        name: "board",
        summary: "draw the position",
        usage: "board",
        help: "Draws the position again.",
    },
    Command {
        name: "undo",
        summary: "take back your last ply (and the bots' answers)",
        usage: "undo",
        help: "Takes back the last ply, and the bots' plies after your last one, so you are to move again; says which plies it took back.",
    },
    Command {
        name: "redo",
        summary: "play again what undo took back",
        usage: "redo",
        help: "Plays again what `undo` took back (until a new ply is played); says which plies it played again.",
    },
    Command {
        name: "hint",
        summary: "a suggested ply, from the MCTS bot",
        usage: "hint",
        help: "Asks the MCTS bot (1,000 playouts) for a ply, with how many of the playouts went through it (the search's confidence: below 50 it says it is not sure) and how often you won in those. On a terminal a line shows how long it has thought; Ctrl-C stops it with what it has.",
    },
    Command {
        name: "bot",
        summary: "let the greedy bot play this ply",
        usage: "bot",
        help: "Lets the greedy bot play this ply for you.",
    },
    Command {
        name: "seat",
        summary: "give a seat to a person or a bot",
        usage: "seat NAME human|BOTSPEC",
        help: "Gives a seat to a person or a bot, e.g. `seat blue mcts:ms=1000`.",
    },
    Command {
        name: "history",
        summary: "the plies so far",
        usage: "history",
        help: "Lists the plies played so far, by turn.",
    },
    Command {
        name: "save",
        summary: "write the game as a transcript",
        usage: "save FILE",
        help: "Writes the game as a transcript; `rulebook replay FILE` checks it and `rulebook play --load FILE` resumes it.",
    },
    Command {
        name: "pgn",
        summary: "write the game as a PGN record",
        usage: "pgn FILE",
        help: "Writes the game so far as a PGN record: the seven tags, the plies in the game's short notation with move numbers, the result (`*` while it goes on). For a game of two players whose file gives a short notation (`short`); `rulebook replay GAME.txt --pgn FILE` writes one from a transcript.",
    },
    Command {
        name: "fen",
        summary: "the position on one line",
        usage: "fen",
        help: "Prints the position as the game file's `[position_text]` writes it (FEN, for a game that declares it), the text `--position` reads back.",
    },
    Command {
        name: "svg",
        summary: "write a picture of the position",
        usage: "svg FILE",
        help: "Writes a picture of the position as SVG (a web browser shows it), the cells the last ply changed marked; see docs/pictures.md.",
    },
    Command {
        name: "load",
        summary: "resume a saved transcript",
        usage: "load FILE",
        help: "Replaces this game with the one in a transcript, at the position it reached, with its seats as saved (it says who plays each); if this game has unsaved plies, offers to save it first.",
    },
    Command {
        name: "rules",
        summary: "the rules text",
        usage: "rules",
        help: "Prints the game file's rules text.",
    },
    Command {
        name: "new",
        summary: "a new game, same settings",
        usage: "new",
        help: "Starts a new game with the same game, parameters and seats (it says who plays each; `seat` changes one); if this game has unsaved plies, offers to save it first.",
    },
    Command {
        name: "resign",
        summary: "give up this game",
        usage: "resign",
        help: "The player to move gives up, once they answer `y` to the question it asks: the game ends and the others share the win.",
    },
    Command {
        name: "help",
        summary: "this list, or more on one command",
        usage: "help [COMMAND]",
        help: "Lists the commands, or explains one.",
    },
    Command {
        name: "quit",
        summary: "leave (offers to save first)",
        usage: "quit",
        help: "Leaves; if the game has changed since it was last saved, offers to save it first.",
    },
];

/// The command with this name.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The text of `help`.
pub fn overview() -> String {
    let mut s = String::from(
        "Type a ply as `moves` lists it (case and spaces do not matter) or its number.\n\
         While a bot thinks, Ctrl-C stops it: it plays its best ply so far, then the bots wait \
         for an empty line.\nCommands:\n",
    );
    let width = COMMANDS.iter().map(|c| c.usage.len()).max().unwrap_or(0);
    for c in COMMANDS {
        s.push_str(&format!("  {:<width$}  {}\n", c.usage, c.summary));
    }
    s.push_str("`help COMMAND` says more about one.\n");
    s
}
