// STAND-IN for SabberStoneCore.dll, for tests only: the real SabberStone cannot be built or
// fetched on the test machines. It declares the types and members the bridge
// (workers/sabberstone/Bridge.cs) and the planner stand-in (SabberStoneBasicAIStandIn.cs) use,
// with the names and signatures of SabberStone's real API, behind a toy game: minions with
// cost/attack/health (some with a random one-damage battlecry), attacks, mana, a shuffled deck
// drawn from the top, fatigue, a mulligan, clones, and a card given to each player on its second
// turn (as Bananas or The Coin are: played, but not from the deck). Its randomness comes from the
// same two places as SabberStone's: GameConfig.RandomSeed for the game, Util.ThreadLocalRandom for
// every clone, which, as in SabberStone, is a per-thread generator created on first use from a
// shared one (the private fields globalRandom and threadRandom, under SabberStone's names).
// Cards named SPELL_* are spells without attack or health tags, for the stat-override tests only.
// Nothing here is SabberStone's code or rules; results from it say nothing about Hearthstone.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using SabberStoneCore.Config;
using SabberStoneCore.Enums;
using SabberStoneCore.Model.Entities;
using SabberStoneCore.Tasks.PlayerTasks;

namespace SabberStoneCore.Enums
{
    public enum CardClass { INVALID, DEATHKNIGHT, DRUID, HUNTER, MAGE, PALADIN, PRIEST, ROGUE, SHAMAN, WARLOCK, WARRIOR, NEUTRAL }
    public enum GameTag { ENTITY_ID, COST, ATK, HEALTH, TAUNT, LAST_CARD_PLAYED }
    public enum CardType { INVALID, GAME, PLAYER, HERO, MINION, SPELL, ENCHANTMENT, WEAPON, ITEM, TOKEN, HERO_POWER }
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
        public long? RandomSeed { get; set; }
    }
}

namespace SabberStoneCore.Model
{
    public static class Util
    {
        /// <summary>A per-thread System.Random created on first use from a shared one; seeds every
        /// clone. SetSeed replaces this thread's generator.</summary>
        public static class ThreadLocalRandom
        {
            private static Random globalRandom = new Random();
            private static readonly object globalLock = new object();
            private static ThreadLocal<Random> threadRandom = new ThreadLocal<Random>(NewRandom);

            public static Random NewRandom() { lock (globalLock) return new Random(globalRandom.Next()); }
            public static Random Instance => threadRandom.Value;
            public static void SetSeed(int seed) { threadRandom.Value = new Random(seed); }
        }
    }

    /// <summary>A small copyable generator (splitmix64) for the toy game's own randomness.</summary>
    internal sealed class ToyRandom
    {
        ulong _state;
        public ToyRandom(long seed) { _state = unchecked((ulong)seed); }
        public ToyRandom Clone() { return new ToyRandom(unchecked((long)_state)); }
        public int Next(int bound)
        {
            ulong z = unchecked(_state += 0x9E3779B97F4A7C15UL);
            z = unchecked((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL);
            z = unchecked((z ^ (z >> 27)) * 0x94D049BB133111EBUL);
            return (int)((z ^ (z >> 31)) % (ulong)bound);
        }
    }

    public class Card
    {
        public string Id { get; private set; }
        public string Name { get; private set; }
        public Dictionary<GameTag, int> Tags = new Dictionary<GameTag, int>();
        public int Cost { get; private set; }
        public int ATK { get; private set; }
        public int Health { get; private set; }
        public CardType Type { get; }
        internal bool RandomBattlecry;

        public int this[GameTag t] => Tags.TryGetValue(t, out int value) ? value : 0;

        internal Card(string id, int cost, int atk, int health, bool taunt, bool random)
        {
            Id = Name = id;
            Tags[GameTag.COST] = Cost = cost;
            Type = id.StartsWith("SPELL_") ? CardType.SPELL : CardType.MINION;
            if (Type == CardType.MINION)
            {
                Tags[GameTag.ATK] = ATK = atk;
                Tags[GameTag.HEALTH] = Health = health;
            }
            Tags[GameTag.TAUNT] = taunt ? 1 : 0;
            RandomBattlecry = random;
        }
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
                card = new Card(id, cost, Math.Max(1, cost - (h >> 4) % 2), cost + (h >> 5) % 2,
                                (h >> 6) % 4 == 0, (h >> 8) % 3 == 0);
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
        public Controller Player1 { get; private set; }
        public Controller Player2 { get; private set; }
        public Controller CurrentPlayer { get; internal set; }
        public State State { get; internal set; } = State.INVALID;
        public Step Step { get; internal set; } = Step.INVALID;
        public int Turn { get; internal set; }
        public Dictionary<int, IPlayable> IdEntityDic { get; private set; } = new Dictionary<int, IPlayable>();
        public event EventHandler<bool> RandomHappenedEvent;
        internal ToyRandom Random;
        internal int NextId = 4;
        readonly bool _shuffle;

        public Game(GameConfig config)
        {
            Random = new ToyRandom(config.RandomSeed ?? Util.ThreadLocalRandom.Instance.Next());
            _shuffle = config.Shuffle;
            Player1 = new Controller(this, 1, config.Player1Deck);
            Player2 = new Controller(this, 2, config.Player2Deck);
        }

        Game(Game other, bool resetRandomSeed)
        {
            // Stands in for Mono's crash on builds with the EntityData copy bug (tests only).
            if (Environment.GetEnvironmentVariable("STANDIN_ABORT_ON_CLONE") == "1")
                Environment.FailFast("stand-in: simulated runtime crash while copying a game");
            State = other.State; Step = other.Step; Turn = other.Turn; NextId = other.NextId;
            _shuffle = other._shuffle;
            Random = resetRandomSeed ? new ToyRandom(Util.ThreadLocalRandom.Instance.Next()) : other.Random.Clone();
            Player1 = other.Player1.CloneInto(this);
            Player2 = other.Player2.CloneInto(this);
            CurrentPlayer = other.CurrentPlayer == other.Player1 ? Player1 : Player2;
        }

        public Game Clone(bool logging = false, bool resetRandomSeed = true, bool history = false)
        {
            return new Game(this, resetRandomSeed);
        }

        public Controller ControllerById(int entityID) { return entityID == 2 ? Player1 : Player2; }

        internal void Register(Playable p) { IdEntityDic[p.Id] = p; }

        public void StartGame()
        {
            State = State.RUNNING;
            Player1.PlayState = Player2.PlayState = PlayState.PLAYING;
            CurrentPlayer = Player1;
            Turn = 1;
            foreach (var p in new[] { Player1, Player2 })
            {
                if (_shuffle) p.Shuffle();
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
            if ((Turn == 3 || Turn == 4) && p.HandZone.Count < 10) p.HandZone.Add(new Playable(this, Cards.FromId("STANDIN_GIFT")));
            Step = Step.MAIN_ACTION;
            CheckEnd();
        }

        /// <summary>Runs a task made on this game or on a copy of it (then rebound to this game's
        /// entities); false when it cannot be done here.</summary>
        public bool Process(PlayerTask task)
        {
            if (task.Game != this)
            {
                task.Game = this;
                task.Controller = ControllerById(task.Controller.Id);
                IPlayable source = null, target = null;
                if ((task.HasSource && !IdEntityDic.TryGetValue(task.Source.Id, out source))
                    || (task.HasTarget && !IdEntityDic.TryGetValue(task.Target.Id, out target)))
                    return false;
                task.Source = source;
                task.Target = (ICharacter)target;
            }
            bool done = task.Process();
            foreach (var p in new[] { Player1, Player2 }) p.BoardZone.RemoveAll(m => m.Health <= 0);
            CheckEnd();
            return done;
        }

        internal void OnRandomHappened(bool happened) { RandomHappenedEvent?.Invoke(this, happened); }

        internal void CheckEnd()
        {
            bool dead1 = Player1.Hero.Health <= 0, dead2 = Player2.Hero.Health <= 0;
            if (!dead1 && !dead2) return;
            Player1.PlayState = dead1 && dead2 ? PlayState.TIED : dead1 ? PlayState.LOST : PlayState.WON;
            Player2.PlayState = dead1 && dead2 ? PlayState.TIED : dead2 ? PlayState.LOST : PlayState.WON;
            State = State.COMPLETE;
            Step = Step.FINAL_GAMEOVER;
        }

        public string Hash(params GameTag[] ignore)
        {
            var sb = new StringBuilder();
            sb.Append(State).Append(Turn).Append(CurrentPlayer.PlayerId);
            foreach (var p in new[] { Player1, Player2 })
            {
                sb.Append('|').Append(p.Hero.Health).Append(',').Append(p.RemainingMana);
                sb.Append('H').Append(string.Join(",", p.HandZone.Select(c => c.Card.Id).OrderBy(x => x)));
                sb.Append('B').Append(string.Join(",", p.BoardZone.Select(m => m.Card.Id + ":" + m.Health + (m.Exhausted ? "x" : ""))));
            }
            return sb.ToString();
        }
    }
}

namespace SabberStoneCore.Model.Entities
{
    using SabberStoneCore.Model;

    public interface IPlayable { int Id { get; } int Cost { get; } Card Card { get; } }
    public interface ICharacter : IPlayable { int Health { get; } int AttackDamage { get; } }

    public class Choice
    {
        public ChoiceType ChoiceType;
        public List<int> Choices;
    }

    public class Playable : IPlayable
    {
        public int Id { get; private set; }
        public Card Card { get; private set; }
        public int Cost { get; internal set; }
        internal Playable(Game game, Card card, int id = 0)
        {
            Id = id > 0 ? id : game.NextId++;
            Card = card;
            Cost = card.Cost;
            game.Register(this);
        }
        internal virtual Playable CloneInto(Game g) { return new Playable(g, Card, Id) { Cost = Cost }; }
    }

    public class Character : Playable, ICharacter
    {
        public int Health { get; internal set; }
        public int AttackDamage { get; internal set; }
        internal Character(Game game, Card card, int id) : base(game, card, id) { }
        internal void Damage(int amount) { Health -= amount; }
    }

    public class Hero : Character
    {
        public int Armor { get; internal set; }
        public int TotalAttackDamage => AttackDamage;
        internal Hero(Game game, int id) : base(game, Cards.FromId("HERO"), id) { Health = 30; }
        internal override Playable CloneInto(Game g) { return new Hero(g, Id) { Health = Health, Armor = Armor }; }
    }

    public class Minion : Character
    {
        public bool HasTaunt { get; internal set; }
        internal bool Exhausted = true;
        internal Minion(Game game, Card card, int id) : base(game, card, id)
        {
            AttackDamage = card.ATK;
            Health = card.Health;
            HasTaunt = card[GameTag.TAUNT] == 1;
        }
        internal override Playable CloneInto(Game g)
        {
            return new Minion(g, Card, Id) { AttackDamage = AttackDamage, Health = Health, Exhausted = Exhausted, HasTaunt = HasTaunt };
        }
    }

    public class HandZone : List<IPlayable> { }
    public class DeckZone : List<IPlayable> { }
    public class BoardZone : List<Minion> { }

    public class Controller
    {
        readonly Game _game;
        int _fatigue;
        public HandZone HandZone = new HandZone();
        public DeckZone DeckZone = new DeckZone();
        public BoardZone BoardZone = new BoardZone();
        public int Id => PlayerId + 1;  // entity ids 2 and 3, as ControllerById expects
        public int PlayerId { get; }
        public Hero Hero { get; private set; }
        public Choice Choice { get; set; }
        public PlayState PlayState { get; set; }
        public int BaseMana { get; set; }
        public int UsedMana { get; set; }
        public int NumCardsDrawnThisTurn { get; set; }
        public int RemainingMana => BaseMana - UsedMana;
        public Controller Opponent => _game.Player1 == this ? _game.Player2 : _game.Player1;
        internal Game Game => _game;

        internal Controller(Game game, int playerId, List<Card> deck)
        {
            _game = game;
            PlayerId = playerId;
            Hero = new Hero(game, 100 + playerId);
            foreach (var c in deck ?? new List<Card>()) DeckZone.Add(new Playable(game, c));
        }

        internal Controller CloneInto(Game g)
        {
            var c = new Controller(g, PlayerId, null)
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
            for (int i = DeckZone.Count - 1; i > 0; i--)
            {
                int j = _game.Random.Next(i + 1);
                var t = DeckZone[i]; DeckZone[i] = DeckZone[j]; DeckZone[j] = t;
            }
        }

        internal void Draw()
        {
            if (DeckZone.Count == 0) { Hero.Damage(++_fatigue); return; }
            var card = DeckZone[0];
            DeckZone.RemoveAt(0);
            if (HandZone.Count < 10) HandZone.Add(card);
            NumCardsDrawnThisTurn++;
        }

        public List<PlayerTask> Options(bool skipPrePhase = true)
        {
            var result = new List<PlayerTask>();
            if (this != _game.CurrentPlayer || _game.Step != Step.MAIN_ACTION) return result;
            result.Add(EndTurnTask.Any(this));
            foreach (var c in HandZone)
                if (c.Cost <= RemainingMana && BoardZone.Count < 7)
                    result.Add(new PlayCardTask(this, c));
            var taunts = Opponent.BoardZone.Where(m => m.HasTaunt).Cast<ICharacter>().ToList();
            var targets = taunts.Count > 0 ? taunts
                : Opponent.BoardZone.Cast<ICharacter>().Concat(new[] { (ICharacter)Opponent.Hero }).ToList();
            foreach (var m in BoardZone)
                if (!m.Exhausted && m.AttackDamage > 0)
                    foreach (var t in targets)
                        result.Add(new MinionAttackTask(this, m, t));
            return result;
        }
    }
}

namespace SabberStoneCore.Tasks.PlayerTasks
{
    using SabberStoneCore.Model;

    public enum PlayerTaskType { CHOOSE, CONCEDE, END_TURN, HERO_ATTACK, HERO_POWER, MINION_ATTACK, PLAY_CARD }

    public abstract class PlayerTask
    {
        public PlayerTaskType PlayerTaskType { get; set; }
        public Game Game { get; set; }
        public Controller Controller { get; set; }
        public IPlayable Source { get; set; }
        public ICharacter Target { get; set; }
        public bool HasSource => Source != null;
        public bool HasTarget => Target != null;

        protected PlayerTask(PlayerTaskType type, Controller controller, IPlayable source, ICharacter target)
        {
            PlayerTaskType = type; Game = controller.Game; Controller = controller; Source = source; Target = target;
        }

        public abstract bool Process();
    }

    public class EndTurnTask : PlayerTask
    {
        EndTurnTask(Controller c) : base(PlayerTaskType.END_TURN, c, null, null) { }
        public static EndTurnTask Any(Controller controller) { return new EndTurnTask(controller); }

        public override bool Process()
        {
            Game.CurrentPlayer = Game.CurrentPlayer.Opponent;
            Game.Turn++;
            Game.MainReady();
            return true;
        }
    }

    public class ChooseTask : PlayerTask
    {
        public List<int> Choices { get; set; }
        ChooseTask(Controller c, List<int> choices) : base(PlayerTaskType.CHOOSE, c, null, null) { Choices = choices; }
        public static ChooseTask Mulligan(Controller controller, List<int> choices) { return new ChooseTask(controller, choices); }

        // The listed cards are kept; every other one is replaced, then shuffled back.
        public override bool Process()
        {
            var me = Controller;
            var back = me.HandZone.Where(c => !Choices.Contains(c.Id)).ToList();
            foreach (var c in back) me.HandZone.Remove(c);
            foreach (var c in back) me.Draw();
            me.DeckZone.AddRange(back);
            me.Shuffle();
            me.NumCardsDrawnThisTurn = 0;
            me.Choice = null;
            return true;
        }
    }

    public class PlayCardTask : PlayerTask
    {
        internal PlayCardTask(Controller c, IPlayable card) : base(PlayerTaskType.PLAY_CARD, c, card, null) { }

        public override bool Process()
        {
            var me = Controller;
            if (!me.HandZone.Contains(Source) || Source.Cost > me.RemainingMana || me.BoardZone.Count >= 7) return false;
            me.UsedMana += Source.Cost;
            me.HandZone.Remove(Source);
            me.BoardZone.Add(new Minion(Game, Source.Card, Source.Id));
            if (Source.Card.RandomBattlecry)  // one damage to a random enemy character
            {
                var enemies = me.Opponent.BoardZone.Cast<Character>().Concat(new Character[] { me.Opponent.Hero }).ToList();
                enemies[Game.Random.Next(enemies.Count)].Damage(1);
                Game.OnRandomHappened(true);
            }
            return true;
        }
    }

    public class MinionAttackTask : PlayerTask
    {
        internal MinionAttackTask(Controller c, Minion attacker, ICharacter target)
            : base(PlayerTaskType.MINION_ATTACK, c, attacker, target) { }

        public override bool Process()
        {
            var attacker = Source as Minion;
            var target = Target as Character;
            if (attacker == null || target == null || attacker.Exhausted || !Controller.BoardZone.Contains(attacker)) return false;
            target.Damage(attacker.AttackDamage);
            if (target is Minion) attacker.Damage(target.AttackDamage);
            attacker.Exhausted = true;
            return true;
        }
    }
}
