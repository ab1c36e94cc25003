"""A slow, obviously correct solver for tests: plain minimax over ``Game.legal_actions``.

No pruning, no ordering, no bit tricks: every legal move is tried by stepping a copy of the
game, and a game's value is read from ``Game.winner`` and ``Game.payoffs``. A dictionary
remembers positions already solved, keyed by everything the rest of the game depends on.
"""

from __future__ import annotations

import ddz


def _side(game: ddz.Game, seat: int) -> int:
    return 0 if seat == game.landlord else 1


def _key(game: ddz.Game, score: bool) -> tuple[object, ...]:
    key: tuple[object, ...] = (
        tuple(hand.mask for hand in game.hands),
        None if game.table is None else game.table.code,
        game.table_player,
        game.current_player,
        game.direction,
    )
    if score:
        landlord_moves = sum(
            1
            for record in game.history
            if record.phase == "play"
            and record.player == game.landlord
            and not record.action.is_pass  # type: ignore[union-attr]
        )
        farmer_moved = any(
            len(cards)
            for seat, cards in enumerate(game.observation(0).played)
            if seat != game.landlord
        )
        key += (game.multiplier, min(landlord_moves, 2), farmer_moved)
    return key


def landlord_outcome(
    game: ddz.Game, memo: dict[tuple[object, ...], int], *, score: bool = False
) -> int:
    """The landlord's result under best play by both sides: +1 / -1 (win/loss), or with
    ``score`` the landlord's payoff (the payoff of the landlord's seat)."""
    if game.is_over:
        assert game.winner is not None
        if score:
            return game.payoffs()[game.landlord]  # type: ignore[index]
        return 1 if _side(game, game.winner) == 0 else -1
    key = _key(game, score)
    if key in memo:
        return memo[key]
    seat = game.current_player
    assert seat is not None
    outcomes = []
    for move in game.legal_actions():
        game.push(move)  # a legal action: push need not check it
        outcomes.append(landlord_outcome(game, memo, score=score))
        game.undo()
    value = max(outcomes) if _side(game, seat) == 0 else min(outcomes)
    memo[key] = value
    return value


def value_for_side_to_act(game: ddz.Game, *, score: bool = False) -> int:
    """The side to act's result: +1 / -1, or (score) the payoff of the seat to act."""
    outcome = landlord_outcome(game.copy(), {}, score=score)
    if game.current_player != game.landlord:
        outcome = -outcome // (game.rules.players - 1) if score else -outcome
    return outcome


def play_line(game: ddz.Game, line: list[ddz.Move]) -> ddz.Game:
    """``game`` after a solver's line (its principal variation), each move checked to be
    among the legal actions where it is played."""
    walk = game.copy()
    for move in line:
        assert move in walk.legal_actions(), (game.hands, game.table, line)
        walk.step(move)
    return walk
