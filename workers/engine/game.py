"""Setting up a game: heroes, decks, the protocol's mulligan and The Coin."""
from __future__ import annotations

from typing import Sequence

from .cardspec import CardDef
from .entities import Card, Hero, Player
from .rng import derive
from .state import GameState

# Hero card and its Basic hero power, per class.
HEROES = {
    "WARRIOR": ("HERO_01", "CS2_102"), "SHAMAN": ("HERO_02", "CS2_049"),
    "ROGUE": ("HERO_03", "CS2_083b"), "PALADIN": ("HERO_04", "CS2_101"),
    "HUNTER": ("HERO_05", "DS1h_292"), "DRUID": ("HERO_06", "CS2_017"),
    "WARLOCK": ("HERO_07", "CS2_056"), "MAGE": ("HERO_08", "CS2_034"),
    "PRIEST": ("HERO_09", "CS1h_001"),
}
THE_COIN = "GAME_005"
MULLIGAN_MAX_COST = 3  # the protocol's mulligan: replace every card that costs more


def new_game(library: dict[str, CardDef], decks: Sequence[Sequence[str]],
             classes: Sequence[str], seed: int, mulligan: bool = True) -> GameState:
    """A game ready for player 0's first action; a pure function of its arguments."""
    g = GameState.__new__(GameState)
    g.library = library
    g.rng = derive(seed, 0x6A4E)
    g.next_uid = 0
    g.next_order = 0
    g.current = 0
    g.turn = 1
    g.winner = None
    g.done = False
    g.random_events = 0
    g.auras_live = False
    g.players = []
    for index, (deck, hero_class) in enumerate(zip(decks, classes)):
        hero_id, power_id = HEROES[hero_class]
        hero = Hero(g.new_uid(), library[hero_id], index, library[power_id])
        cards = [Card(g.new_uid(), library[card_id]) for card_id in deck]
        g.players.append(Player(index, hero, cards))
    for index, count in ((0, 3), (1, 4)):
        _opening_hand(g, g.players[index], count, mulligan)
    g.give(1, THE_COIN)
    for p in g.players:
        p.cards_drawn = 0  # the evaluation counts draws during play only
    g.start_turn()
    return g


def _opening_hand(g: GameState, p: Player, count: int, mulligan: bool) -> None:
    for _ in range(count):
        p.hand.append(p.deck.pop(g.rand(len(p.deck))))
    if not mulligan:
        return
    kept = [c for c in p.hand if c.cdef.cost <= MULLIGAN_MAX_COST]
    returned = [c for c in p.hand if c.cdef.cost > MULLIGAN_MAX_COST]
    # Replacements come from the deck before the returned cards go back into it.
    replacements = [p.deck.pop(g.rand(len(p.deck))) for _ in returned]
    p.hand = kept + replacements
    p.deck.extend(returned)
