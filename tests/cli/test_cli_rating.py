"""A person's rating (issue 51): the store survives a restart, a corrupt file gets a clear
error and a fresh store with the old file kept, a game against rated levels moves the
rating and shows the change, and ``tavern rating`` shows the history."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.cli import app
from tavern_dice.cli.levels import rate_game
from tavern_dice.cli.options import BotSpec, Seat
from tavern_dice.cli.rating_store import FILE_NAME, RatingStore, default_path
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.play.ratings import MU, SIGMA, Rating, level_rating, placing
from tavern_dice.play.runner import play_liars_dice


def test_the_store_is_in_the_directory_the_environment_names(_own_data_dir: Path) -> None:
    assert default_path() == _own_data_dir / FILE_NAME


def test_the_store_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "deep" / FILE_NAME
    store = RatingStore(path)
    assert store.current("Ann") == Rating(MU, SIGMA)
    store.record("Ann", "liars-dice", 4, "mags, mags, mags", 2, Rating(MU, SIGMA),
                 Rating(1540.5, 300.0))
    again = RatingStore(path)
    assert again.current("Ann") == Rating(1540.5, 300.0)
    [game] = again.history("Ann")
    assert (game.place, game.players, round(game.change, 1)) == (2, 4, 40.5)
    assert again.names() == ["Ann"] and again.history("Bo") == []


def test_a_corrupt_file_gets_a_clear_error_a_fresh_store_and_is_kept(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    garbage = b"this is not a database, it is a shopping list\n" * 50
    path.write_bytes(garbage)
    said: list[str] = []
    store = RatingStore.open(path, warn=said.append)
    [message] = said
    assert "cannot be read as a rating store" in message
    assert "a fresh rating store was started" in message
    kept = [p for p in tmp_path.iterdir() if p.name.startswith(f"{FILE_NAME}.corrupt-")]
    assert len(kept) == 1 and kept[0].read_bytes() == garbage
    assert str(kept[0]) in message
    assert store.history("Ann") == [] and store.current("Ann") == Rating(MU, SIGMA)


def test_another_programs_database_is_not_taken_for_a_store(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE rated_games (who TEXT)")
    said: list[str] = []
    RatingStore.open(path, warn=said.append)
    assert "is not a tavern-dice rating store" in said[0]
    assert len(list(tmp_path.glob(f"{FILE_NAME}.corrupt-*"))) == 1


def _finished(kinds: list[str | None], seed: int) -> tuple[LiarsDiceGame, list[Seat]]:
    """A finished game: ``None`` seats are the people (played here by ``mags`` bots)."""
    seats = [Seat(f"P{i}", None) if k is None else Seat(f"B{i}", BotSpec(k))
             for i, k in enumerate(kinds)]
    game = LiarsDiceGame([s.name for s in seats], dice=SeededDice(seed))
    play_liars_dice(game, [make_liars_dice_bot(k or "mags", seed=i) for i, k in enumerate(kinds)])
    return game, seats


def _shown(game: LiarsDiceGame, seats: list[Seat]) -> str:
    console = Console(width=200, record=True)
    rate_game(console, game, seats)
    return console.export_text()


def test_a_game_against_rated_levels_moves_the_rating_and_shows_the_change() -> None:
    game, seats = _finished([None, "pip", "tobb"], seed=3)
    text = _shown(game, seats)
    found = re.search(r"Rating of P0: (\d+) \(([+-]\d+)\) after finishing (\d)\w\w of 3", text)
    assert found is not None, text
    [entry] = RatingStore.open().history("P0")
    assert int(found.group(1)) == round(entry.after.mu)
    assert int(found.group(2)) == round(entry.after.mu - MU)
    assert entry.place == placing(game.log).index(0) + 1
    if entry.place == 1:
        assert entry.after.mu > MU
    if entry.place == 3:
        assert entry.after.mu < MU
    assert entry.opponents == "pip, tobb" and entry.after.sigma < SIGMA
    # The next game starts from that rating.
    game, seats = _finished([None, "pip", "tobb"], seed=4)
    _shown(game, seats)
    second = RatingStore.open().history("P0")[1]
    assert second.before == entry.after


def test_a_game_with_a_bot_that_is_not_a_rated_level_is_not_rated() -> None:
    assert level_rating("strong") is None
    game, seats = _finished([None, "pip", "strong"], seed=3)
    assert _shown(game, seats) == ""
    assert RatingStore.open().names() == []


def test_tavern_rating_shows_the_history_and_a_plot() -> None:
    runner = CliRunner()
    empty = runner.invoke(app, ["rating"])
    assert empty.exit_code == 0 and "No rated games yet" in empty.output
    store = RatingStore.open()
    before = Rating(MU, SIGMA)
    for i, mu in enumerate([1560.0, 1610.0, 1580.0]):
        store.record("Ann", "liars-dice", 4, "mags, mags, mags", 1 + i, before, Rating(mu, 300))
        before = Rating(mu, 300)
    result = runner.invoke(app, ["rating", "--plot"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Ann's rated games" in result.output
    assert re.search(r"│ 3 │ .+│ 3 of 4 │ +1580 │ +-30 │", result.output), result.output
    assert "Rating of Ann: 1580 (95 %: 992-2168) after 3 rated games." in result.output
    assert "  1610 │" in result.output and "  1500 │●" in result.output


def test_tavern_levels_lists_every_level_with_its_measured_rating() -> None:
    result = CliRunner().invoke(app, ["levels"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for kind in ("pip", "tobb", "bess", "mags", "aldous", "vell"):
        rated = level_rating(kind)
        assert rated is not None
        low, high = rated.rating.interval
        assert re.search(rf"│ {kind} +│ .+ │ {rated.mu:.0f} +│ {low:.0f}-{high:.0f} ",
                         result.output), kind
    for kind in ("nell", "brannoc", "sabine"):
        assert f"│ {kind} " in result.output
