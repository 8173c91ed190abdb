"""Cards whose SabberStone script (what the paper's games played) differs from their text or
from what their own test file checks: the engine plays SabberStone's version."""
from ..scenario import attack, covers, end_turn, make_game, minion, play

CROC, YETI, WISP = "CS2_120", "CS2_182", "CS2_231"  # 2/3, 4/5, 1/1
KOBOLD, COBRA = "CS2_142", "EX1_170"  # Spell Damage +1; 2/3 Poisonous


@covers("EX1_145")
def test_preparation_makes_the_next_spell_three_cheaper():
    g = make_game(hand=["EX1_145", "CS2_076"], mana=10)  # Assassinate costs 5
    play(g, "EX1_145")
    assert g.cost_of(0, g.player.hand[0]) == 2


@covers("EX1_132")
def test_eye_for_an_eye_adds_its_owners_spell_damage():
    g = make_game(hand=["EX1_132"], board=[KOBOLD], enemy_board=[CROC], classes=("PALADIN", "HUNTER"))
    play(g, "EX1_132")
    end_turn(g)
    attack(g, minion(g, 1, CROC), g.players[0].hero)
    assert g.players[1].hero.health == 27  # 2 + 1


@covers("EX1_126")
def test_betrayal_deals_the_damage_as_the_spell_so_poison_does_not_kill():
    g = make_game(hand=["EX1_126"], enemy_board=[YETI, COBRA, YETI])
    play(g, "EX1_126", minion(g, 1, COBRA))
    assert [m.cdef.id for m in g.players[1].board] == [YETI, COBRA, YETI]
    assert all(m.health == 3 for m in g.players[1].board if m.cdef.id == YETI)


@covers("EX1_085")
def test_mind_control_tech_with_a_full_board_destroys_the_minion_where_it_stands():
    g = make_game(hand=["EX1_085"], board=[WISP] * 6, enemy_board=["EX1_029"] * 4)  # Leper Gnomes
    play(g, "EX1_085")  # the board is full with it: the stolen minion dies on its old side
    assert len(g.players[1].board) == 3 and len(g.players[0].board) == 7
    assert g.players[0].hero.health == 28  # so its deathrattle is the opponent's


@covers("EX1_188")
def test_barrens_stablehand_summons_its_beast_at_the_right_end():
    g = make_game(hand=["EX1_188"], board=[CROC])
    play(g, "EX1_188", position=0)
    board = g.players[0].board
    assert board[0].cdef.id == "EX1_188" and board[1].cdef.id == CROC and board[2].race == "BEAST"
