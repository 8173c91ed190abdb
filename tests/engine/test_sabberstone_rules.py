"""Rules and protocol details where the built-in engine follows SabberStone, the paper's
simulator; each one moved the fidelity statistics (`make fidelity`) when it was fixed."""
from workers.engine.actions import ATTACK, END_TURN, HERO_POWER, PLAY
from workers.engine.game import new_game
from workers.protocol.evaluate import card_library, load_opponents, miracle_rogue, play_one_game
from workers.players.play import BeamSearchPlayer
from workers.players.scores import NeuralNetScore, aggro_score, state_features
from workers.players.game_counters import GameCounters
from .scenario import FILLER, attack, end_turn, make_game, minion, play

CULT_MASTER, LOOT_HOARDER, ALARM_O_BOT = "EX1_595", "EX1_096", "EX1_006"
FROST_ELEMENTAL, DEADLY_POISON = "EX1_283", "CS2_074"
SHATTERED_SUN_CLERIC = "EX1_019"  # 3 mana 3/2, Battlecry: give a friendly minion +1/+1
ABOMINATION, ACOLYTE, PYROMANCER = "EX1_097", "EX1_007", "NEW1_020"
GURUBASHI, LEPER_GNOME = "EX1_399", "EX1_029"


def test_mulligan_keeps_the_cards_costing_more_than_three_and_replaces_the_others():
    lib = card_library()
    deck = miracle_rogue()
    opponent = load_opponents()[0]
    kept_expensive = replaced_cheap = 0
    for seed in range(40):
        args = (lib, [deck, list(opponent.cards)], ["ROGUE", opponent.hero_class], seed)
        plain = new_game(*args, mulligan=False)
        opening = plain.players[0].hand[:3]  # the turn's draw comes after them
        g = new_game(*args)
        hand = {c.uid for c in g.players[0].hand}
        for card in opening:
            if card.cdef.cost > 3:
                assert card.uid in hand
                kept_expensive += 1
            elif card.uid not in hand:
                replaced_cheap += 1
        assert len(g.players[0].hand) == 4 and len(g.players[0].deck) == 26
        assert len(g.players[1].hand) == 5  # 4 cards and The Coin; its turn has not begun
    # A cheap card stays only when a replacement draws it back.
    assert kept_expensive > 10 and replaced_cheap > 60


def test_the_deck_is_drawn_from_its_top_and_a_copy_draws_the_same_cards():
    g = make_game(deck=["CS2_072", "EX1_124", FILLER])
    top = g.players[0].deck[-1]
    copy = g.copy()
    copy.rng ^= 0xFFFF  # another random stream does not change the deck order
    end_turn(g), end_turn(g)
    end_turn(copy), end_turn(copy)
    assert g.players[0].hand[-1] is top and copy.players[0].hand[-1] is top


def test_a_draw_is_not_a_random_event():
    g = make_game(deck=[FILLER] * 5)
    before = g.random_events
    g.draw(0, 2)
    assert g.random_events == before


def test_hidden_deck_order_is_an_option_of_the_planner():
    g = make_game(deck=[f for f in ("CS2_072", "EX1_124", "CS2_073", "EX1_129", FILLER, "EX1_278")])
    order = [c.uid for c in g.players[0].deck]
    knows = BeamSearchPlayer(aggro_score, seed=3).planning_root(g)
    assert [c.uid for c in knows.players[0].deck] == order
    hidden = [BeamSearchPlayer(aggro_score, seed=s, hide_deck_order=True).planning_root(g)
              for s in range(5)]
    assert any([c.uid for c in h.players[0].deck] != order for h in hidden)
    assert [c.uid for c in g.players[0].deck] == order  # the real game is untouched


def test_start_of_turn_effects_run_before_the_draw():
    # Alarm-o-Bot swaps with a minion in hand at the start of the turn: the card drawn that
    # turn is not in hand yet, so the only candidate is the minion already there.
    for seed in range(1, 9):
        g = make_game(board=[ALARM_O_BOT], hand=["CS2_118"], deck=[FILLER] * 3, seed=seed)
        end_turn(g), end_turn(g)
        assert [m.cdef.id for m in g.players[0].board] == ["CS2_118"]  # Magma Rager
        assert sorted(c.cdef.id for c in g.players[0].hand) == sorted([ALARM_O_BOT, FILLER])


def test_a_minion_frozen_on_the_turn_it_was_played_stays_frozen():
    g = make_game(hand=[FILLER, FROST_ELEMENTAL], mana=10)
    play(g, FILLER)
    fresh = g.players[0].board[-1]
    play(g, FROST_ELEMENTAL, fresh)
    assert fresh.frozen
    end_turn(g)
    assert fresh.frozen  # it could not have attacked: SabberStone keeps it frozen
    end_turn(g)
    assert not any(a.kind == ATTACK and a.index == fresh.uid for a in g.legal_actions())
    end_turn(g)
    assert not fresh.frozen  # ready and did not attack: thawed at the end of its turn


def test_death_triggers_run_before_the_dying_minions_deathrattle():
    g = make_game(board=[CULT_MASTER, LOOT_HOARDER], hand=[FILLER] * 9, deck=[FILLER] * 5)
    hoarder = minion(g, 0, LOOT_HOARDER)
    seen = []
    (draw_a_card,) = hoarder.deathrattles

    def watched(state, owner, me, position):
        seen.append(len(state.players[0].hand))
        draw_a_card(state, owner, me, position)

    hoarder.deathrattles = (watched,)
    hoarder.destroyed = True
    g.resolve()
    assert seen == [10]  # Cult Master drew first; the deathrattle's card is burnt
    assert len(g.players[0].hand) == 10 and len(g.players[0].deck) == 3


def test_options_follow_sabberstones_order():
    # A minion battlecry: targets outer, every board position inner; "any friendly minion"
    # targets in board order. END first, then cards in hand order, hero power, attacks.
    g = make_game(hand=[SHATTERED_SUN_CLERIC], board=[FILLER, "CS2_118"], mana=10)
    moves = g.legal_moves()
    assert moves[0][0] == END_TURN
    plays = [m for m in moves if m[0] == PLAY]
    board = g.players[0].board
    assert plays == [(PLAY, 0, t.uid, pos) for t in board for pos in range(3)]
    kinds = [m[0] for m in moves]
    assert kinds.index(HERO_POWER) > kinds.index(PLAY) and kinds.index(ATTACK) > kinds.index(HERO_POWER)


def test_any_character_targets_list_heroes_then_enemy_minions_then_own():
    g = make_game(hand=["EX1_283"], board=[FILLER], enemy_board=["CS2_118"], mana=10)
    targets = [m[2] for m in g.legal_moves() if m[0] == PLAY and m[3] == 0]
    own, enemy = g.players
    assert targets == [own.hero.uid, enemy.hero.uid, enemy.board[0].uid, own.board[0].uid]


def test_the_score_sees_a_weapon_only_on_its_owners_turn():
    g = make_game(hand=[DEADLY_POISON])
    g.apply(next(a for a in g.legal_actions() if a.kind == HERO_POWER))  # Wicked Knife 1/2
    assert state_features(g, 0)[2] == 1
    play(g, DEADLY_POISON)
    assert state_features(g, 0)[2] == 3
    end_turn(g)  # what a planner reads after END_TURN: the opponent's turn
    assert state_features(g, 0)[2] == 0 and state_features(g, 1)[3] == 0


def test_the_neural_net_score_is_an_integer_as_in_sabberstone():
    g = make_game(board=[FILLER])
    value = NeuralNetScore.from_file()(g, 0)
    assert value == int(value)


def test_the_game_counters_count_as_the_reference_evaluator():
    # Lethal on board: the game ends during the player's turn, whose hand still counts.
    g = make_game(board=["CS2_118", "CS2_118"], hand=[FILLER, FILLER], mana=3)
    g.players[1].hero.health = 10
    player = BeamSearchPlayer(aggro_score, seed=1)
    player.counters = counters = GameCounters(0)
    player.take_turn(g)
    assert g.done and g.winner == 0
    assert counters.hand_size_sum == counters.hand_size_start_sum == len(g.players[0].hand)
    assert counters.minion_damage == 10  # the attackers' attack, 5 each
    assert counters.cards_drawn == 1  # a turn counts at least one card drawn
    assert counters.mana_available == 3 and counters.mana_spent == g.players[0].used_mana


def test_a_protocol_game_reports_the_evaluated_players_statistics():
    opponent = load_opponents()[1]
    g, counters = play_one_game(miracle_rogue(), opponent, 7)
    own = g.players[0]
    assert g.done
    assert sum(counters.card_plays.values()) > 0
    assert own.turns <= counters.cards_drawn  # at least one per turn
    assert counters.mana_spent <= counters.mana_available + 10 * own.turns
    assert 0 < counters.hand_size_sum <= 10 * own.turns


def test_lethal_damage_sticks_even_if_healed_before_deaths_are_processed():
    g = make_game(board=[FILLER])
    croc = minion(g, 0, FILLER)
    g.damage(None, croc, 3)
    g.heal(croc, 3)
    g.resolve()
    assert croc not in g.players[0].board


def test_the_first_dead_hero_decides_the_game():
    # The enemy hero dies in the same step as a Leper Gnome whose deathrattle would then kill
    # ours: SabberStone checks the heroes before the deathrattles run.
    g = make_game(enemy_board=[LEPER_GNOME])
    g.players[0].hero.health = 2
    g.damage(None, g.players[1].hero, 30)
    minion(g, 1, LEPER_GNOME).destroyed = True
    g.resolve()
    assert g.done and g.winner == 0


def test_death_listeners_are_chosen_before_the_deathrattles_run():
    # Abomination's deathrattle kills Cult Master, which still draws for the Crocolisk that
    # died in the same round.
    g = make_game(board=[CULT_MASTER, ABOMINATION, FILLER], deck=[FILLER] * 5)
    minion(g, 0, ABOMINATION).destroyed = True
    minion(g, 0, FILLER).destroyed = True
    hand = len(g.players[0].hand)
    g.resolve()
    assert len(g.players[0].hand) == hand + 2
    assert not g.players[0].board


def test_a_spells_deaths_come_before_after_cast_triggers():
    g = make_game(hand=["EX1_124"], board=[PYROMANCER, ACOLYTE], deck=[FILLER] * 5)
    acolyte = minion(g, 0, ACOLYTE)
    acolyte.damage = 2
    hand = len(g.players[0].hand) - 1
    play(g, "EX1_124", acolyte)
    assert len(g.players[0].hand) == hand + 1  # one draw: it was gone before the ping
    assert minion(g, 0, PYROMANCER).health == 1


def test_the_counter_blow_uses_the_attack_from_before_the_blows():
    g = make_game(board=[FILLER], enemy_board=[GURUBASHI])
    croc = minion(g, 0, FILLER)
    attack(g, croc, minion(g, 1, GURUBASHI))
    assert croc.health == 1  # hit back for 2, not the 5 it had once it was hurt


def test_snake_trap_stays_when_the_board_fills():
    g = make_game(board=[FILLER], enemy_board=[FILLER] * 5, enemy_hand=["EX1_554"])
    end_turn(g)
    play(g, "EX1_554")
    end_turn(g)
    attack(g, minion(g, 0, FILLER), g.players[1].board[0])
    assert len(g.players[1].board) == 7 and g.players[1].secrets  # not used up


def test_the_damage_statistic_reads_a_dead_attacker_without_its_auras():
    g = make_game(board=["EX1_162", FILLER, FILLER], enemy_board=["CS2_186"])  # Dire Wolf Alpha
    croc = g.players[0].board[1]
    assert croc.atk == 3  # 2 + the Alpha's 1
    counters = GameCounters(0)
    action = next(a for a in g.legal_actions() if a.kind == ATTACK and a.index == croc.uid
                  and a.target == g.players[1].board[0].uid)
    attacker = counters.before_action(g, action)
    g.apply(action)
    counters.after_action(g, action, attacker)
    assert croc not in g.players[0].board and counters.minion_damage == 2  # War Golem killed it
