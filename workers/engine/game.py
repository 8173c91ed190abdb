"""Setting up a game: heroes, decks, the protocol's mulligan and The Coin."""
from __future__ import annotations

from typing import Final, Sequence

from .cardspec import CardDef
from .entities import Card, Hero, Player
from .rng import derive
from .state import GameState

# Hero card and its Basic hero power, per class.
HEROES: Final = {
    "WARRIOR": ("HERO_01", "CS2_102"), "SHAMAN": ("HERO_02", "CS2_049"),
    "ROGUE": ("HERO_03", "CS2_083b"), "PALADIN": ("HERO_04", "CS2_101"),
    "HUNTER": ("HERO_05", "DS1h_292"), "DRUID": ("HERO_06", "CS2_017"),
    "WARLOCK": ("HERO_07", "CS2_056"), "MAGE": ("HERO_08", "CS2_034"),
    "PRIEST": ("HERO_09", "CS1h_001"),
}
THE_COIN: Final = "GAME_005"
MULLIGAN_MAX_COST: Final = 3  # the protocol's mulligan, as it really ran: keep what costs more, replace the rest


def new_game(library: dict[str, CardDef], decks: Sequence[Sequence[str]],
             classes: Sequence[str], seed: int, mulligan: bool = True) -> GameState:
    """A game ready for player 0's first action; a pure function of its arguments."""
    g = GameState.fresh(library, derive(seed, 0x6A4E))
    for index, (deck, hero_class) in enumerate(zip(decks, classes)):
        hero_id, power_id = HEROES[hero_class]
        hero = Hero.new(g.new_uid(), library[hero_id], index, library[power_id])
        cards = [Card(g.new_uid(), library[card_id]) for card_id in deck]
        g.shuffle(cards)  # once, at game start; draws take the top (the list's end)
        g.players.append(Player.new(index, hero, cards))
    for p in g.players:  # "Start of Game" cards in a deck (Baku, Genn), before the opening hands
        hooks: list | None = None  # each hook once, in deck order (mostly none: no list)
        for c in p.deck:
            hook = c.cdef.script.game_start
            if hook is not None:
                if hooks is None:
                    hooks = []
                if hook not in hooks:
                    hooks.append(hook)
        if hooks is not None:
            for hook in hooks:
                hook(g, p.index)
    for index, count in ((0, 3), (1, 4)):
        _opening_hand(g, g.players[index], count, mulligan)
    g.give(1, THE_COIN)
    g.start_turn()
    return g


def _opening_hand(g: GameState, p: Player, count: int, mulligan: bool) -> None:
    """Draw `count` cards; with the mulligan, keep those costing more than 3 and replace the
    others. (The reference's rule lists the expensive cards meaning to replace them, but
    SabberStone's mulligan keeps the cards it is given: what the paper's games really did.)"""
    for _ in range(count):
        p.hand.append(p.deck.pop())
    if not mulligan:
        return
    for i, card in enumerate(p.hand):
        if card.cdef.cost <= MULLIGAN_MAX_COST:
            # SabberStone's order: the top card takes the slot, then the old card is shuffled
            # into the deck (a later replacement may draw it again).
            p.hand[i] = p.deck.pop()
            p.deck.insert(g.rand(len(p.deck) + 1), card)
