"""Small set-ups for card and rule tests: a game with chosen hands, boards and mana."""
from __future__ import annotations

from functools import lru_cache

from workers.engine.actions import ATTACK, END, HERO_POWER, PLAY, PLAY_OPTION_1, Action
from workers.engine.carddb import load_cards
from workers.engine.cardspec import build_library
from workers.engine.entities import Card
from workers.engine.game import new_game
from workers.engine.state import NO_TARGET, GameState

FILLER = "CS2_120"  # River Crocolisk: a vanilla card to fill decks


@lru_cache(maxsize=1)
def library():
    return build_library(load_cards())


def make_game(*, hand=(), board=(), enemy_hand=(), enemy_board=(), deck=None, enemy_deck=None,
              mana=10, classes=("ROGUE", "HUNTER"), seed=1, sick=False) -> GameState:
    """Player 0 to act with `mana` mana, the given hands and boards (minions ready to attack
    unless `sick`), and decks of filler cards."""
    lib = library()
    g = new_game(lib, [[FILLER] * 30, [FILLER] * 30], list(classes), seed)
    for p, cards, minions, deck_ids in ((g.players[0], hand, board, deck),
                                        (g.players[1], enemy_hand, enemy_board, enemy_deck)):
        p.hand = [Card(g.new_uid(), lib[c]) for c in cards]
        p.deck = [Card(g.new_uid(), lib[c]) for c in (deck_ids if deck_ids is not None else [FILLER] * 20)]
        p.board = []
        for card_id in minions:
            m = g.summon(p.index, card_id, announce=False)
            m.sick = sick
        p.max_mana = p.mana = mana
    g.resolve()
    return g


def find_card(g: GameState, card_id: str) -> int:
    hand = g.player.hand
    for i, card in enumerate(hand):
        if card.cdef.id == card_id:
            return i
    raise AssertionError(f"{card_id} is not in the hand of player {g.current}")


def play(g: GameState, card_id: str, target=None, position: int = -1) -> None:
    """Play the first copy of `card_id` from the acting player's hand (legality checked)."""
    i = find_card(g, card_id)
    uid = target.uid if target is not None else NO_TARGET
    if position < 0 and g.player.hand[i].cdef.type == "MINION":
        position = len(g.player.board)
    if g.player.hand[i].cdef.type != "MINION":
        position = -1
    g.apply(Action(PLAY, i, uid, position))


def play_option(g: GameState, card_id: str, option: int, target=None, position: int = -1) -> None:
    """Play the first copy of the Choose One card `card_id` with its option 1 or 2."""
    i = find_card(g, card_id)
    uid = target.uid if target is not None else NO_TARGET
    if g.player.hand[i].cdef.type == "MINION":
        position = len(g.player.board) if position < 0 else position
    g.apply(Action(PLAY_OPTION_1 + option - 1, i, uid, position))


def attack(g: GameState, attacker, defender) -> None:
    g.apply(Action(ATTACK, attacker.uid, defender.uid))


def hero_power(g: GameState, target=None) -> None:
    g.apply(Action(HERO_POWER, -1, target.uid if target is not None else NO_TARGET))


def end_turn(g: GameState) -> None:
    g.apply(END)


def minion(g: GameState, side: int, card_id: str):
    """The first minion of `card_id` on `side`'s board."""
    for m in g.players[side].board:
        if m.cdef.id == card_id:
            return m
    raise AssertionError(f"{card_id} is not on the board of player {side}")


def covers(*card_ids: str):
    """Mark a test as the text test of these cards (read by `python -m workers.engine coverage`)."""
    def mark(fn):
        fn.covers = card_ids
        return fn
    return mark
