// The DSA-ME protocol played inside .NET with SabberStone's model (SabberStoneCore.dll).
//
// Python hands over one batch of games as a small text request and gets back one text summary:
// crossing the Python/.NET boundary per game action would cost more than the game itself, so
// everything between (players, beam search, scores, statistics) runs here.
//
// Request: one tab-separated directive per line
//   player beam|random, evaluated nn|aggro|control, depth N, width N, hero CLASS, nn w1,w2,...(109 weights),
//   deck ID,ID,..., opponent NAME CLASS aggro|control ID,ID,...,
//   override ID cost atk health (-1 = keep), maxturns N, game INDEX OPPONENT SEED
// Summary: a header line "dsame-bridge 1 seeded=0|1 overrides=N", then per game
//   G index opponent seed won own_hp enemy_hp turns hand_sum minion_dmg drawn spent available
//   E index opponent seed message          (a game that threw inside SabberStone)
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Text;
using SabberStoneCore.Config;
using SabberStoneCore.Enums;
using SabberStoneCore.Model;
using SabberStoneCore.Model.Entities;
using SabberStoneCore.Tasks.PlayerTasks;

namespace DsameBridge
{
    public delegate double Score(Game game, Controller me);

    public static class Bridge
    {
        public const string Version = "dsame-bridge 1";

        /// <summary>How many cards SabberStone's database holds (0 = it did not load).</summary>
        public static int CardCount() { return Cards.All.Count(); }

        /// <summary>Plays `games` random games and copies every state on the way: the startup
        /// check that a build can play and clone games (Mono crashes here on unpatched builds).</summary>
        public static string SelfCheck(string deckIds, string heroClass, int games)
        {
            var deck = deckIds.Split(',');
            var request = new StringBuilder();
            request.Append("player\trandom\nhero\t" + heroClass + "\ndeck\t" + deckIds + "\n");
            request.Append("opponent\tself\t" + heroClass + "\taggro\t" + string.Join(",", deck) + "\n");
            request.Append("copyeveryaction\t1\n");
            for (int g = 0; g < games; g++)
                request.Append("game\t" + g + "\t0\t" + (12345 + g) + "\n");
            return PlayBatch(request.ToString());
        }

        public static string PlayBatch(string request)
        {
            var batch = Batch.Parse(request);
            int applied = batch.ApplyOverrides();
            bool seeded = Seeding.Seed(1);
            var output = new StringBuilder();
            output.Append(Version + " seeded=" + (seeded ? 1 : 0) + " overrides=" + applied + "\n");
            foreach (var g in batch.Games)
            {
                try
                {
                    var stats = batch.PlayOne(g);
                    output.Append(string.Join("\t", new[] { "G", g.Index.ToString(), g.Opponent.ToString(),
                        g.Seed.ToString(CultureInfo.InvariantCulture), stats.Won ? "1" : "0",
                        stats.OwnHealth.ToString(), stats.EnemyHealth.ToString(), stats.Turns.ToString(),
                        stats.HandSum.ToString(), stats.MinionDamage.ToString(), stats.Drawn.ToString(),
                        stats.Spent.ToString(), stats.Available.ToString() }) + "\n");
                }
                catch (Exception exc)
                {
                    string message = (exc.GetType().Name + ": " + exc.Message).Replace('\t', ' ')
                        .Replace('\n', ' ').Replace('\r', ' ');
                    output.Append("E\t" + g.Index + "\t" + g.Opponent + "\t" +
                                  g.Seed.ToString(CultureInfo.InvariantCulture) + "\t" + message + "\n");
                }
            }
            return output.ToString();
        }
    }

    public class GameSpec
    {
        public int Index, Opponent;
        public ulong Seed;
    }

    public class OpponentSpec
    {
        public string Name, HeroClass, Strategy;
        public string[] Cards;
    }

    public class Stats
    {
        public bool Won;
        public int OwnHealth, EnemyHealth, Turns, HandSum, MinionDamage, Drawn, Spent, Available;
    }

    /// <summary>SabberStone draws its randomness from a static System.Random (Util.Random);
    /// reseeding it per game makes a game a function of its seed.</summary>
    public static class Seeding
    {
        public static bool Seed(int seed)
        {
            var util = typeof(Game).Assembly.GetType("SabberStoneCore.Model.Util");
            if (util == null) return false;
            var flags = BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
            try
            {
                var field = util.GetField("Random", flags);
                if (field != null && field.FieldType == typeof(Random))
                {
                    field.SetValue(null, new Random(seed));
                    return true;
                }
                var prop = util.GetProperty("Random", flags);
                if (prop != null && prop.CanWrite && prop.PropertyType == typeof(Random))
                {
                    prop.SetValue(null, new Random(seed), null);
                    return true;
                }
            }
            catch (Exception) { }  // a readonly static on .NET Core: games stay unseeded
            return false;
        }

        public static int Fold(ulong seed) { return (int)((seed ^ (seed >> 32)) & 0x7FFFFFFF); }
    }

    public class Batch
    {
        public string Player = "beam", HeroClass = "ROGUE", Evaluated = "nn";
        public int Depth = 13, Width = 4, MaxTurns = 100;
        public bool CopyEveryAction;
        public double[] Weights;
        public string[] Deck;
        public List<OpponentSpec> Opponents = new List<OpponentSpec>();
        public List<GameSpec> Games = new List<GameSpec>();
        public List<int[]> Overrides = new List<int[]>();
        public List<string> OverrideIds = new List<string>();

        public static Batch Parse(string request)
        {
            var b = new Batch();
            foreach (var raw in request.Split('\n'))
            {
                var line = raw.TrimEnd('\r');
                if (line.Length == 0) continue;
                var f = line.Split('\t');
                switch (f[0])
                {
                    case "player": b.Player = f[1]; break;
                    case "evaluated": b.Evaluated = f[1]; break;
                    case "depth": b.Depth = int.Parse(f[1]); break;
                    case "width": b.Width = int.Parse(f[1]); break;
                    case "maxturns": b.MaxTurns = int.Parse(f[1]); break;
                    case "hero": b.HeroClass = f[1]; break;
                    case "copyeveryaction": b.CopyEveryAction = f[1] == "1"; break;
                    case "deck": b.Deck = f[1].Split(','); break;
                    case "nn":
                        b.Weights = f[1].Split(',').Select(w => double.Parse(w, CultureInfo.InvariantCulture)).ToArray();
                        break;
                    case "opponent":
                        b.Opponents.Add(new OpponentSpec { Name = f[1], HeroClass = f[2], Strategy = f[3], Cards = f[4].Split(',') });
                        break;
                    case "override":
                        b.OverrideIds.Add(f[1]);
                        b.Overrides.Add(new[] { int.Parse(f[2]), int.Parse(f[3]), int.Parse(f[4]) });
                        break;
                    case "game":
                        b.Games.Add(new GameSpec { Index = int.Parse(f[1]), Opponent = int.Parse(f[2]),
                            Seed = ulong.Parse(f[3], CultureInfo.InvariantCulture) });
                        break;
                    default: throw new ArgumentException("unknown bridge directive " + f[0]);
                }
            }
            return b;
        }

        /// <summary>The classic stat overrides, written into the cards' tags and into the
        /// values Card caches from them (Cost, ATK, Health have private setters).</summary>
        public int ApplyOverrides()
        {
            int applied = 0;
            for (int i = 0; i < OverrideIds.Count; i++)
            {
                var card = Cards.FromId(OverrideIds[i]);
                if (card == null) continue;
                var values = Overrides[i];
                var tags = new[] { GameTag.COST, GameTag.ATK, GameTag.HEALTH };
                var cached = new[] { "Cost", "ATK", "Health" };  // Card caches these at load time
                for (int t = 0; t < 3; t++)
                {
                    if (values[t] < 0) continue;
                    card.Tags[tags[t]] = values[t];
                    var prop = typeof(Card).GetProperty(cached[t], BindingFlags.Instance | BindingFlags.Public);
                    var setter = prop != null ? prop.GetSetMethod(true) : null;
                    if (setter != null && prop.PropertyType == typeof(int)) setter.Invoke(card, new object[] { values[t] });
                }
                applied++;
            }
            return applied;
        }

        static List<Card> CardList(string[] ids)
        {
            var list = new List<Card>();
            foreach (var id in ids)
            {
                var card = Cards.FromId(id);
                if (card == null) throw new ArgumentException("SabberStone has no card " + id);
                list.Add(card);
            }
            return list;
        }

        static CardClass ParseClass(string name) { return (CardClass)Enum.Parse(typeof(CardClass), name); }

        Score ScoreOf(string strategy)
        {
            if (strategy == "aggro") return Scores.Aggro;
            if (strategy == "control") return Scores.Control;
            if (strategy == "nn")
            {
                var net = new NeuralNet(Weights);
                return net.Evaluate;
            }
            throw new ArgumentException("unknown strategy " + strategy);
        }

        public Stats PlayOne(GameSpec spec)
        {
            var opponent = Opponents[spec.Opponent];
            Seeding.Seed(Seeding.Fold(spec.Seed));
            var config = new GameConfig
            {
                StartPlayer = 1,
                Player1HeroClass = ParseClass(HeroClass),
                Player2HeroClass = ParseClass(opponent.HeroClass),
                Player1Deck = CardList(Deck),
                Player2Deck = CardList(opponent.Cards),
                FillDecks = false,
                Shuffle = true,
                SkipMulligan = false,
                Logging = false,
                History = false,
            };
            var game = new Game(config);
            game.StartGame();
            Mulligan(game, game.Player1);
            Mulligan(game, game.Player2);
            if (game.Step != Step.MAIN_ACTION) game.MainReady();

            var planRandom = new Random(Seeding.Fold(spec.Seed * 0x9E3779B97F4A7C15UL + 1));
            var players = new IPlayer[2];
            players[0] = MakePlayer(Player == "random" ? "random" : Evaluated, planRandom);
            players[1] = MakePlayer(Player == "random" ? "random" : opponent.Strategy, planRandom);

            var stats = new Stats();
            var me = game.Player1;
            while (game.State != State.COMPLETE && game.Turn <= MaxTurns)
            {
                var current = game.CurrentPlayer;
                bool mine = current == me;
                if (mine)
                {
                    stats.Turns++;
                    stats.Available += me.BaseMana;
                }
                int turn = game.Turn;
                players[mine ? 0 : 1].PlayTurn(game, stats, mine, CopyEveryAction);
                // The turn's last statistics are read before EndTurn starts the next turn.
                if (game.State != State.COMPLETE && game.Turn == turn)
                {
                    stats.Drawn += me.NumCardsDrawnThisTurn;
                    if (mine)
                    {
                        stats.HandSum += me.HandZone.Count;
                        stats.Spent += me.UsedMana;
                    }
                    game.Process(EndTurnTask.Any(game.CurrentPlayer));
                }
                else if (game.State == State.COMPLETE)
                {
                    stats.Drawn += me.NumCardsDrawnThisTurn;
                    if (mine) { stats.HandSum += me.HandZone.Count; stats.Spent += me.UsedMana; }
                }
            }
            stats.Won = me.PlayState == PlayState.WON;
            stats.OwnHealth = me.Hero.Health;
            stats.EnemyHealth = me.Opponent.Hero.Health;
            return stats;
        }

        /// <summary>The protocol's mulligan: replace every card that costs more than 3.</summary>
        static void Mulligan(Game game, Controller player)
        {
            if (player.Choice == null) return;
            var keep = player.Choice.Choices.Where(id => game.IdEntityDic[id].Cost <= 3).ToList();
            game.Process(ChooseTask.Mulligan(player, keep));
        }

        IPlayer MakePlayer(string strategy, Random random)
        {
            if (strategy == "random") return new RandomPlayer(random);
            return new BeamPlayer(ScoreOf(strategy), Depth, Width);
        }
    }

    public interface IPlayer
    {
        /// <summary>Plays actions of the current turn; may leave the final EndTurn to the caller.</summary>
        void PlayTurn(Game game, Stats stats, bool mine, bool copyEveryAction);
    }

    static class Acting
    {
        /// <summary>Processes one task on the real game, counting own minion-attack damage.</summary>
        public static void Apply(Game game, PlayerTask task, Stats stats, bool mine)
        {
            int before = 0;
            ICharacter target = null;
            if (mine && task.PlayerTaskType == PlayerTaskType.MINION_ATTACK && task.Target != null)
            {
                target = (ICharacter)game.IdEntityDic[task.Target.Id];
                before = Health(target);
            }
            game.Process(task);
            if (target != null)
                stats.MinionDamage += Math.Max(0, before - Health(target));
        }

        static int Health(ICharacter c)
        {
            var hero = c as Hero;
            return c.Health + (hero != null ? hero.Armor : 0);
        }
    }

    public class RandomPlayer : IPlayer
    {
        readonly Random _random;
        public RandomPlayer(Random random) { _random = random; }

        public void PlayTurn(Game game, Stats stats, bool mine, bool copyEveryAction)
        {
            var me = game.CurrentPlayer;
            int turn = game.Turn;
            while (game.State != State.COMPLETE && game.Turn == turn)
            {
                var options = me.Options();
                var task = options[_random.Next(options.Count)];
                if (task.PlayerTaskType == PlayerTaskType.END_TURN) return;
                if (copyEveryAction) game.Clone();
                Acting.Apply(game, task, stats, mine);
            }
        }
    }

    /// <summary>The protocol's end-of-turn beam search over SabberStone clones.</summary>
    public class BeamPlayer : IPlayer
    {
        readonly Score _score;
        readonly int _depth, _width;
        static readonly GameTag[] HashIgnore = { GameTag.LAST_CARD_PLAYED, GameTag.ENTITY_ID };

        public BeamPlayer(Score score, int depth, int width) { _score = score; _depth = depth; _width = width; }

        List<PlayerTask> Plan(Game game)
        {
            var me = game.CurrentPlayer.PlayerId;
            var seen = new HashSet<string> { game.Hash(HashIgnore) };
            var beam = new List<KeyValuePair<Game, List<PlayerTask>>> {
                new KeyValuePair<Game, List<PlayerTask>>(game, new List<PlayerTask>()) };
            List<PlayerTask> bestLine = null;
            double bestValue = double.NegativeInfinity;
            for (int d = 0; d < _depth; d++)
            {
                var children = new List<Tuple<double, int, Game, List<PlayerTask>>>();
                foreach (var node in beam)
                {
                    foreach (var task in node.Key.CurrentPlayer.Options())
                    {
                        var child = node.Key.Clone();
                        child.Process(task);
                        var key = child.Hash(HashIgnore);
                        if (!seen.Add(key)) continue;
                        var owner = child.Player1.PlayerId == me ? child.Player1 : child.Player2;
                        double value = _score(child, owner);
                        var line = new List<PlayerTask>(node.Value) { task };
                        bool ends = task.PlayerTaskType == PlayerTaskType.END_TURN
                                    || child.State == State.COMPLETE || child.CurrentPlayer.PlayerId != me;
                        if (ends)
                        {
                            if (bestLine == null || value > bestValue) { bestLine = line; bestValue = value; }
                        }
                        else children.Add(Tuple.Create(value, children.Count, child, line));
                    }
                }
                if (children.Count == 0) break;
                beam = children.OrderBy(c => -c.Item1).ThenBy(c => c.Item2).Take(_width)
                    .Select(c => new KeyValuePair<Game, List<PlayerTask>>(c.Item3, c.Item4)).ToList();
            }
            return bestLine ?? new List<PlayerTask>();
        }

        public void PlayTurn(Game game, Stats stats, bool mine, bool copyEveryAction)
        {
            var me = game.CurrentPlayer;
            int turn = game.Turn;
            bool random = false;
            EventHandler<bool> onRandom = (sender, happened) => { if (happened) random = true; };
            game.RandomHappenedEvent += onRandom;
            try
            {
                while (game.State != State.COMPLETE && game.Turn == turn)
                {
                    var line = Plan(game);
                    if (line.Count == 0 || line[0].PlayerTaskType == PlayerTaskType.END_TURN) return;
                    foreach (var task in line)
                    {
                        if (task.PlayerTaskType == PlayerTaskType.END_TURN) return;
                        random = false;
                        Acting.Apply(game, task, stats, mine);
                        // Turn over, randomness, or a pending choice: plan again from here.
                        if (game.State == State.COMPLETE || game.Turn != turn || random || me.Choice != null) break;
                    }
                }
            }
            finally { game.RandomHappenedEvent -= onRandom; }
        }
    }

    public static class Scores
    {
        static int TauntHealth(Controller c) { return c.BoardZone.Where(m => m.HasTaunt).Sum(m => m.Health); }

        static double? Terminal(Controller me)
        {
            if (me.PlayState == PlayState.WON) return double.PositiveInfinity;
            if (me.PlayState == PlayState.LOST || me.PlayState == PlayState.LOSING) return double.NegativeInfinity;
            return null;
        }

        public static double Aggro(Game game, Controller me)
        {
            var end = Terminal(me);
            if (end.HasValue) return end.Value;
            var op = me.Opponent;
            double score = (op.BoardZone.Count == 0 && me.BoardZone.Count > 0) ? 1000 : 0;
            score -= 1000 * TauntHealth(op);
            score += me.BoardZone.Sum(m => m.AttackDamage);
            score += 1000 * (me.Hero.Health - op.Hero.Health);
            return score;
        }

        public static double Control(Game game, Controller me)
        {
            var end = Terminal(me);
            if (end.HasValue) return end.Value;
            var op = me.Opponent;
            double score = (op.BoardZone.Count == 0 && me.BoardZone.Count > 0) ? 1000 : 0;
            score += 50 * (me.BoardZone.Count - op.BoardZone.Count);
            score += 25 * (TauntHealth(me) - TauntHealth(op));
            score += me.BoardZone.Sum(m => m.AttackDamage);
            score += 10 * (me.Hero.Health - op.Hero.Health);
            return score;
        }

        /// <summary>The 15 raw features of the neural-net player (player_strategy_nn.json order).</summary>
        public static double[] Features(Controller me)
        {
            var op = me.Opponent;
            return new double[] {
                me.Hero.Health, op.Hero.Health, me.Hero.AttackDamage, op.Hero.AttackDamage,
                me.HandZone.Sum(c => c.Cost), me.HandZone.Count, op.HandZone.Count,
                me.DeckZone.Count, op.DeckZone.Count,
                me.BoardZone.Sum(m => m.AttackDamage), op.BoardZone.Sum(m => m.AttackDamage),
                me.BoardZone.Sum(m => m.Health), op.BoardZone.Sum(m => m.Health),
                TauntHealth(me), TauntHealth(op),
            };
        }
    }

    /// <summary>MLP [15, 5, 4, 1], tanh after every layer; weights flat as in the JSON file.</summary>
    public class NeuralNet
    {
        static readonly int[] Sizes = { 15, 5, 4, 1 };
        readonly double[] _w;

        public NeuralNet(double[] weights)
        {
            if (weights == null || weights.Length != 109)
                throw new ArgumentException("the neural-net score needs 109 weights");
            _w = weights;
        }

        public double Forward(double[] x)
        {
            int offset = 0, biasOffset = 0;
            for (int l = 0; l + 1 < Sizes.Length; l++) biasOffset += Sizes[l] * Sizes[l + 1];
            var values = x;
            for (int l = 0; l + 1 < Sizes.Length; l++)
            {
                int nIn = Sizes[l], nOut = Sizes[l + 1];
                var next = new double[nOut];
                for (int j = 0; j < nOut; j++)
                {
                    double s = _w[biasOffset + j];
                    for (int i = 0; i < nIn; i++) s += _w[offset + i * nOut + j] * values[i];
                    next[j] = Math.Tanh(s);
                }
                offset += nIn * nOut;
                biasOffset += nOut;
                values = next;
            }
            return values[0];
        }

        public double Evaluate(Game game, Controller me)
        {
            if (me.PlayState == PlayState.WON) return double.PositiveInfinity;
            if (me.PlayState == PlayState.LOST || me.PlayState == PlayState.LOSING) return double.NegativeInfinity;
            return Forward(Scores.Features(me)) * 1e6;
        }
    }
}
