"""Small set-ups for card and rule tests: a game with chosen hands, boards and mana."""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache, wraps

from workers.engine import state
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


def hand_ids(g: GameState, side: int = 0) -> list[str]:
    return [c.cdef.id for c in g.players[side].hand]


def board_ids(g: GameState, side: int = 0) -> list[str]:
    return [m.cdef.id for m in g.players[side].board]


def stats(m) -> tuple[int, int]:
    return (m.atk, m.health)


def can_play(g: GameState, card_id: str) -> bool:
    """Whether the acting player may play a copy of `card_id` now."""
    return any(a.kind == PLAY and g.player.hand[a.index].cdef.id == card_id
               for a in g.legal_actions())


def attack_targets(g: GameState, attacker) -> set[int]:
    return {a.target for a in g.legal_actions() if a.kind == ATTACK and a.index == attacker.uid}


def covers(*card_ids: str):
    """Mark a test as the text test of these cards (read by `python -m workers.engine coverage`).
    The mark is checked: the test fails unless each card enters play in it."""
    def mark(fn):
        @wraps(fn)
        def checked(*args, **kwargs):
            with cards_entering_play() as seen:
                result = fn(*args, **kwargs)
            # A parametrized test covers, in each case, the card named by its parameters.
            named = [c for c in card_ids if c in kwargs.values()]
            missing = [c for c in named or card_ids if c not in seen]
            assert not missing, f"{fn.__name__} is marked @covers{missing} but never puts them into play"
            return result
        checked.covers = card_ids
        return checked
    return mark


def _played_from_hand(g, hand_index, target=NO_TARGET, position=-1, option=0):
    """The card played and, for a Choose One play, the option card whose effect it runs."""
    cdef = g.players[g.current].hand[hand_index].cdef
    return (cdef, cdef.script.choose_one[option - 1]) if option else (cdef,)


# GameState methods through which a card enters play, and the cards each call brings in (read
# before the call, as playing a card takes it out of the hand).
_ENTRY_POINTS = {
    "play_card": _played_from_hand,
    "summon": lambda g, owner, cdef, *_, **__: (cdef,),
    "equip": lambda g, owner, weapon, *_, **__: (weapon if isinstance(weapon, str) else weapon.cdef,),
    "transform": lambda g, minion, card_id, *_, **__: (card_id,),
    "use_hero_power": lambda g, *_, **__: (g.players[g.current].hero.power,),
}


@contextmanager
def cards_entering_play():
    """The ids of the cards that enter play while the block runs: played from a hand (with the
    chosen option of a Choose One card), summoned (a scenario's board included), equipped,
    transformed into, used as a hero power, a hero of a game that starts a turn, or a Start of
    Game card in its deck."""
    seen: set[str] = set()

    def record(card) -> None:
        seen.add(card if isinstance(card, str) else card.id)

    def watch(g, method: str, args: tuple) -> None:
        if method == "start_turn":
            for p in g.players:
                record(p.hero.cdef)
                for card in p.deck + p.hand:  # Start of Game cards: their text ran at game start
                    if card.cdef.script.game_start is not None:
                        record(card.cdef)
            return
        for card in _ENTRY_POINTS[method](g, *args):
            record(card)

    previous = state.set_entry_watcher(watch)
    try:
        yield seen
    finally:
        state.set_entry_watcher(previous)
