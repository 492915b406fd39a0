"""Where the tests find the repository's games and the command-line program they are
compared with: RULEBOOK_ROOT and RULEBOOK_BIN, which the Rust test that runs this suite
sets (tests/python.rs); by hand, the repository this folder is in and its release build."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(os.environ.get("RULEBOOK_ROOT", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> str:
    path = os.environ.get("RULEBOOK_BIN", str(ROOT / "target" / "release" / "rulebook"))
    if not os.path.exists(path):
        pytest.fail(f"no rulebook program at {path}: build it (cargo build --release) or set RULEBOOK_BIN")
    return path


def game_files() -> list:
    return sorted(str(p) for p in (ROOT / "games").glob("*.toml"))
