// STAND-IN for SabberStoneCore.dll, for tests only: the real SabberStone cannot be built or
// fetched on the test machines. It declares exactly the types and members the bridge
// (workers/sabberstone/Bridge.cs) uses, with the names and signatures of SabberStone's real API,
// behind a toy game (minions with cost/attack/health, attacks on the enemy hero or minions,
// mana, draws, fatigue, mulligan, clones), so the bridge can be compiled and run end to end.
// Nothing here is SabberStone's code or rules; results from it say nothing about Hearthstone.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using SabberStoneCore.Config;
using SabberStoneCore.Enums;
using SabberStoneCore.Model.Entities;
using SabberStoneCore.Tasks.PlayerTasks;

namespace SabberStoneCore.Enums
{
    public enum CardClass { INVALID, DEATHKNIGHT, DRUID, HUNTER, MAGE, PALADIN, PRIEST, ROGUE, SHAMAN, WARLOCK, WARRIOR, NEUTRAL }
    public enum GameTag { ENTITY_ID, COST, ATK, HEALTH, TAUNT, LAST_CARD_PLAYED }
    public enum State { INVALID, LOADING, RUNNING, COMPLETE }
    public enum Step { INVALID, BEGIN_MULLIGAN, MAIN_READY, MAIN_ACTION, FINAL_GAMEOVER }
    public enum PlayState { INVALID, PLAYING, WINNING, LOSING, WON, LOST, TIED, DISCONNECTED, CONCEDED }
    public enum ChoiceType { INVALID, MULLIGAN, GENERAL }
}

namespace SabberStoneCore.Config
{
    public class GameConfig
    {
        public int StartPlayer { get; set; } = -1;
        public CardClass Player1HeroClass { get; set; }
        public CardClass Player2HeroClass { get; set; }
        public List<Model.Card> Player1Deck { get; set; }
        public List<Model.Card> Player2Deck { get; set; }
        public bool FillDecks { get; set; }
        public bool Shuffle { get; set; } = true;
        public bool SkipMulligan { get; set; } = true;
        public bool Logging { get; set; } = true;
        public bool History { get; set; } = true;
    }
}

namespace SabberStoneCore.Model
{
    public static class Util
    {
        public static Random Random = new Random();
    }

    public class Card
    {
        public string Id;
        public Dictionary<GameTag, int> Tags = new Dictionary<GameTag, int>();
    }

    public static class Cards
    {
        static readonly Dictionary<string, Card> ById = new Dictionary<string, Card>();

        // A toy card for any id: its stats derive from the id's characters.
        public static Card FromId(string id)
        {
            if (string.IsNullOrEmpty(id) || id.StartsWith("NOPE")) return null;
            Card card;
            if (!ById.TryGetValue(id, out card))
            {
                int h = id.Aggregate(7, (a, c) => a * 31 + c) & 0xFFFF;
                int cost = 1 + h % 6;
                card = new Card { Id = id };
                card.Tags[GameTag.COST] = cost;
                card.Tags[GameTag.ATK] = Math.Max(1, cost - (h >> 4) % 2);
                card.Tags[GameTag.HEALTH] = cost + (h >> 5) % 2;
                card.Tags[GameTag.TAUNT] = (h >> 6) % 4 == 0 ? 1 : 0;
                ById[id] = card;
            }
            return card;
        }

        public static IEnumerable<Card> All
        {
            get
            {
                // Stands in for a runtime that dies while loading the card database (tests only).
                if (Environment.GetEnvironmentVariable("STANDIN_ABORT_ON_LOAD") == "1")
                    Environment.FailFast("stand-in: simulated runtime crash while loading");
                for (int i = 0; i < 1500; i++) yield return FromId("STANDIN_" + i);
            }
        }
    }

    public class Game
    {
        public Controller Player1, Player2, CurrentPlayer;
        public State State = State.INVALID;
        public Step Step = Step.INVALID;
        public int Turn;
        public Dictionary<int, IPlayable> IdEntityDic = new Dictionary<int, IPlayable>();
        public event EventHandler<bool> RandomHappenedEvent;
        internal int NextId = 4;

        public Game(GameConfig config)
        {
            Player1 = new Controller(this, 1, config.Player1HeroClass, config.Player1Deck);
            Player2 = new Controller(this, 2, config.Player2HeroClass, config.Player2Deck);
        }

        Game() { }

        internal void Register(Playable p) { IdEntityDic[p.Id] = p; }

        public void StartGame()
        {
            State = State.RUNNING;
            Player1.PlayState = Player2.PlayState = PlayState.PLAYING;
            CurrentPlayer = Player1;
            Turn = 1;
            foreach (var p in new[] { Player1, Player2 })
            {
                p.Shuffle();
                for (int i = 0; i < (p == Player1 ? 3 : 4); i++) p.Draw();
                p.Choice = new Choice { ChoiceType = ChoiceType.MULLIGAN, Choices = p.HandZone.Select(c => c.Id).ToList() };
            }
            Step = Step.BEGIN_MULLIGAN;
        }

        public void MainReady()
        {
            var p = CurrentPlayer;
            Player1.NumCardsDrawnThisTurn = Player2.NumCardsDrawnThisTurn = 0;
            p.BaseMana = Math.Min(10, p.BaseMana + 1);
            p.UsedMana = 0;
            foreach (var m in p.BoardZone) m.Exhausted = false;
            p.Draw();
            Step = Step.MAIN_ACTION;
            CheckEnd();
        }

        public void Process(PlayerTask task)
        {
            var me = task.Controller.PlayerId == 1 ? Player1 : Player2;
            switch (task.PlayerTaskType)
            {
                case PlayerTaskType.CHOOSE:
                    var keep = ((ChooseTask)task).Choices;
                    var back = me.HandZone.Where(c => !keep.Contains(c.Id)).ToList();
                    foreach (var c in back) me.HandZone.Remove(c);
                    foreach (var c in back) me.Draw();
                    me.DeckZone.AddRange(back);
                    me.Shuffle();
                    me.Choice = null;
                    break;
                case PlayerTaskType.END_TURN:
                    CurrentPlayer = CurrentPlayer.Opponent;
                    Turn++;
                    MainReady();
                    break;
                case PlayerTaskType.PLAY_CARD:
                    var card = (Playable)IdEntityDic[task.SourceId];
                    me.UsedMana += card.Cost;
                    me.HandZone.Remove(card);
                    me.BoardZone.Add(new Minion(this, card));
                    break;
                case PlayerTaskType.MINION_ATTACK:
                    var attacker = (Minion)IdEntityDic[task.SourceId];
                    var target = (Playable)IdEntityDic[task.Target.Id];
                    target.Damage(attacker.AttackDamage);
                    if (target is Minion) attacker.Damage(target.AttackDamage);
                    attacker.Exhausted = true;
                    break;
            }
            foreach (var p in new[] { Player1, Player2 }) p.BoardZone.RemoveAll(m => m.Health <= 0);
            CheckEnd();
        }

        internal void OnRandom() { RandomHappenedEvent?.Invoke(this, true); }

        void CheckEnd()
        {
            bool dead1 = Player1.Hero.Health <= 0, dead2 = Player2.Hero.Health <= 0;
            if (!dead1 && !dead2) return;
            Player1.PlayState = dead1 && dead2 ? PlayState.TIED : dead1 ? PlayState.LOST : PlayState.WON;
            Player2.PlayState = dead1 && dead2 ? PlayState.TIED : dead2 ? PlayState.LOST : PlayState.WON;
            State = State.COMPLETE;
            Step = Step.FINAL_GAMEOVER;
        }

        public Game Clone(bool logging = false)
        {
            // Stands in for Mono's crash on builds with the EntityData copy bug (tests only).
            if (Environment.GetEnvironmentVariable("STANDIN_ABORT_ON_CLONE") == "1")
                Environment.FailFast("stand-in: simulated runtime crash while copying a game");
            var g = new Game { State = State, Step = Step, Turn = Turn, NextId = NextId };
            g.Player1 = Player1.CloneInto(g);
            g.Player2 = Player2.CloneInto(g);
            g.CurrentPlayer = CurrentPlayer == Player1 ? g.Player1 : g.Player2;
            return g;
        }

        public string Hash(params GameTag[] ignore)
        {
            var sb = new StringBuilder();
            sb.Append(State).Append(Turn).Append(CurrentPlayer.PlayerId);
            foreach (var p in new[] { Player1, Player2 })
            {
                sb.Append('|').Append(p.Hero.Health).Append(',').Append(p.RemainingMana);
                sb.Append('H').Append(string.Join(",", p.HandZone.Select(c => ((Playable)c).CardId).OrderBy(x => x)));
                sb.Append('B').Append(string.Join(",", p.BoardZone.Select(m => m.CardId + ":" + m.Health + (m.Exhausted ? "x" : ""))));
            }
            return sb.ToString();
        }
    }
}

namespace SabberStoneCore.Model.Entities
{
    using SabberStoneCore.Model;

    public interface IPlayable { int Id { get; } int Cost { get; } }
    public interface ICharacter { int Id { get; } int Health { get; } }

    public class Choice
    {
        public ChoiceType ChoiceType;
        public List<int> Choices;
    }

    public class Playable : IPlayable, ICharacter
    {
        public int Id { get; internal set; }
        public string CardId;
        public int Cost { get; internal set; }
        public int AttackDamage { get; internal set; }
        public int Health { get; internal set; }
        internal Playable(Game game, string cardId, int cost, int atk, int health, int id = 0)
        {
            Id = id > 0 ? id : game.NextId++;
            CardId = cardId; Cost = cost; AttackDamage = atk; Health = health;
            game.Register(this);
        }
        internal virtual void Damage(int amount) { Health -= amount; }
        internal virtual Playable CloneInto(Game g) { return new Playable(g, CardId, Cost, AttackDamage, Health, Id); }
    }

    public class Hero : Playable
    {
        public int Armor { get; internal set; }
        internal Hero(Game game, int id) : base(game, "HERO", 0, 0, 30, id) { }
        internal override Playable CloneInto(Game g) { return new Hero(g, Id) { Health = Health, Armor = Armor }; }
    }

    public class Minion : Playable
    {
        public bool HasTaunt { get; internal set; }
        internal bool Exhausted = true;
        internal Minion(Game game, Playable card) : base(game, card.CardId, card.Cost, card.AttackDamage, card.Health, card.Id)
        {
            HasTaunt = Cards.FromId(card.CardId).Tags[GameTag.TAUNT] == 1;
        }
        internal override Playable CloneInto(Game g)
        {
            return new Minion(g, new Playable(g, CardId, Cost, AttackDamage, Health, Id)) { Exhausted = Exhausted, HasTaunt = HasTaunt };
        }
    }

    public class HandZone : List<IPlayable> { }
    public class DeckZone : List<IPlayable> { }
    public class BoardZone : List<Minion> { }

    public class Controller
    {
        readonly Game _game;
        int _fatigue;
        public int PlayerId { get; }
        public Hero Hero { get; private set; }
        public HandZone HandZone { get; private set; } = new HandZone();
        public DeckZone DeckZone { get; private set; } = new DeckZone();
        public BoardZone BoardZone { get; private set; } = new BoardZone();
        public Choice Choice { get; set; }
        public PlayState PlayState { get; set; }
        public int BaseMana { get; set; }
        public int UsedMana { get; set; }
        public int NumCardsDrawnThisTurn { get; set; }
        public int RemainingMana => BaseMana - UsedMana;
        public Controller Opponent => _game.Player1 == this ? _game.Player2 : _game.Player1;

        internal Controller(Game game, int playerId, CardClass heroClass, List<Card> deck)
        {
            _game = game;
            PlayerId = playerId;
            Hero = new Hero(game, playerId + 1);
            foreach (var c in deck ?? new List<Card>())
                DeckZone.Add(new Playable(game, c.Id, c.Tags[GameTag.COST], c.Tags[GameTag.ATK], c.Tags[GameTag.HEALTH]));
        }

        internal Controller CloneInto(Game g)
        {
            var c = new Controller(g, PlayerId, CardClass.INVALID, null)
            {
                Choice = Choice, PlayState = PlayState, BaseMana = BaseMana, UsedMana = UsedMana,
                NumCardsDrawnThisTurn = NumCardsDrawnThisTurn, _fatigue = _fatigue,
            };
            c.Hero = (Hero)Hero.CloneInto(g);
            foreach (Playable p in HandZone) c.HandZone.Add(p.CloneInto(g));
            foreach (Playable p in DeckZone) c.DeckZone.Add(p.CloneInto(g));
            foreach (var m in BoardZone) c.BoardZone.Add((Minion)m.CloneInto(g));
            return c;
        }

        internal void Shuffle()
        {
            var items = DeckZone.OrderBy(_ => Util.Random.Next()).ToList();
            DeckZone.Clear();
            DeckZone.AddRange(items);
        }

        internal void Draw()
        {
            if (DeckZone.Count == 0) { Hero.Damage(++_fatigue); return; }
            int i = Util.Random.Next(DeckZone.Count);  // a random draw, like a shuffled deck
            var card = DeckZone[i];
            DeckZone.RemoveAt(i);
            if (HandZone.Count < 10) HandZone.Add(card);
            NumCardsDrawnThisTurn++;
            if (_game.Step == Step.MAIN_ACTION) _game.OnRandom();
        }

        public List<PlayerTask> Options(bool playCards = true)
        {
            var result = new List<PlayerTask>();
            if (this != _game.CurrentPlayer || _game.Step != Step.MAIN_ACTION) return result;
            result.Add(EndTurnTask.Any(this));
            foreach (var c in HandZone)
                if (c.Cost <= RemainingMana && BoardZone.Count < 7)
                    result.Add(new PlayerTask(PlayerTaskType.PLAY_CARD, this, c.Id, null));
            var taunts = Opponent.BoardZone.Where(m => m.HasTaunt).Cast<ICharacter>().ToList();
            var targets = taunts.Count > 0 ? taunts
                : Opponent.BoardZone.Cast<ICharacter>().Concat(new[] { (ICharacter)Opponent.Hero }).ToList();
            foreach (var m in BoardZone)
                if (!m.Exhausted && m.AttackDamage > 0)
                    foreach (var t in targets)
                        result.Add(new PlayerTask(PlayerTaskType.MINION_ATTACK, this, m.Id, t));
            return result;
        }
    }
}

namespace SabberStoneCore.Tasks.PlayerTasks
{
    public enum PlayerTaskType { CHOOSE, CONCEDE, END_TURN, HERO_ATTACK, HERO_POWER, MINION_ATTACK, PLAY_CARD }

    public class PlayerTask
    {
        public PlayerTaskType PlayerTaskType { get; set; }
        public Controller Controller { get; set; }
        public ICharacter Target { get; set; }
        internal int SourceId;
        internal PlayerTask(PlayerTaskType type, Controller controller, int sourceId, ICharacter target)
        {
            PlayerTaskType = type; Controller = controller; SourceId = sourceId; Target = target;
        }
    }

    public class EndTurnTask : PlayerTask
    {
        EndTurnTask(Controller c) : base(PlayerTaskType.END_TURN, c, 0, null) { }
        public static EndTurnTask Any(Controller controller) { return new EndTurnTask(controller); }
    }

    public class ChooseTask : PlayerTask
    {
        public List<int> Choices { get; set; }
        ChooseTask(Controller c, List<int> choices) : base(PlayerTaskType.CHOOSE, c, 0, null) { Choices = choices; }
        public static ChooseTask Mulligan(Controller controller, List<int> choices) { return new ChooseTask(controller, choices); }
    }
}
