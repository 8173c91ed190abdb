// The DSA-ME protocol played inside .NET by the reference evaluator's rules, on SabberStone
// (SabberStoneCore.dll) with SabberStone's own planner and scores (SabberStoneBasicAI.dll).
//
// Python hands over one batch of games as a small text request and gets back one text summary:
// crossing the Python/.NET boundary per game action would cost more than the game itself.
// The planner (OptionNode.GetSolutions) and the aggro and control scores are SabberStone's; this
// file holds only the game loop and its statistics as EvoStone2's evaluator counts them, the
// neural-net score (EvoStone2's player, which SabberStoneBasicAI does not ship) and the seeding.
//
// Request: one tab-separated directive per line
//   player beam|random, evaluated nn|aggro|control, depth N, width N, hero CLASS, history 0|1,
//   nn w1,w2,...(109 weights), deck ID,ID,..., opponent NAME CLASS aggro|control ID,ID,...,
//   override ID cost atk health (-1 = keep), maxturns N, copyeveryaction 0|1,
//   game INDEX OPPONENT GAME_SEED SEARCH_SEED
// Summary: a header line "dsame-bridge 3 seeded=1 overrides=N", then per game
//   G index opponent game_seed search_seed won tied p1_hp p2_hp num_turns game_turn hand_size
//     hand_size_start cards_drawn damage_done mana_spent mana_wasted option_score
//     p1_turns_counted searches_p1 searches_p2 card_plays(ID:n,...|-) other_plays(ID:n,...|-)
//   E index opponent game_seed search_seed message      (a game that threw inside SabberStone)
//   S index opponent game_seed search_seed reason       (a game the bridge's guard stopped)
// card_plays counts player 1's plays of its deck's own cards (the reference's card_usage);
// other_plays the cards it was given or generated during the game (The Coin, Bananas, ...).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Text;
using SabberStoneBasicAI.Nodes;
using SabberStoneBasicAI.Score;
using SabberStoneCore.Config;
using SabberStoneCore.Enums;
using SabberStoneCore.Model;
using SabberStoneCore.Model.Entities;
using SabberStoneCore.Tasks.PlayerTasks;

namespace DsameBridge
{
    public static class Bridge
    {
        public const string Version = "dsame-bridge 3";

        /// <summary>How many cards SabberStone's database holds (0 = it did not load).</summary>
        public static int CardCount() { return Cards.All.Count(); }

        /// <summary>The startup check: plays `games` random games, copying every state on the way
        /// (Mono crashes here on unpatched builds), twice with the same seeds; seeded=1 in the
        /// header only when both passes gave the same records.</summary>
        public static string SelfCheck(string deckIds, string heroClass, int games)
        {
            var request = new StringBuilder();
            request.Append("player\trandom\nhero\t" + heroClass + "\ndeck\t" + deckIds + "\n");
            request.Append("opponent\tself\t" + heroClass + "\taggro\t" + deckIds + "\n");
            request.Append("copyeveryaction\t1\n");
            for (int g = 0; g < games; g++)
                request.Append("game\t" + g + "\t0\t" + (12345 + g) + "\t" + (777 + g) + "\n");
            string first = PlayBatch(request.ToString()), second = PlayBatch(request.ToString());
            string games1 = first.Substring(first.IndexOf('\n')), games2 = second.Substring(second.IndexOf('\n'));
            string header = first.Substring(0, first.IndexOf('\n')).Replace("seeded=1", "seeded=" + (games1 == games2 ? 1 : 0));
            return header + games1;
        }

        public static string PlayBatch(string request)
        {
            var batch = Batch.Parse(request);
            var overrides = new StatOverrides(batch.OverrideIds, batch.Overrides);
            var output = new StringBuilder();
            try
            {
                output.Append(Version + " seeded=1 overrides=" + overrides.Apply() + "\n");
                foreach (var spec in batch.Games)
                {
                    try { output.Append(batch.PlayOne(spec).Line(spec) + "\n"); }
                    catch (GameStopped stop) { output.Append(spec.Failure("S", stop.Message) + "\n"); }
                    catch (Exception exc) { output.Append(spec.Failure("E", exc.GetType().Name + ": " + exc.Message) + "\n"); }
                }
            }
            finally { overrides.Restore(); }  // the card database is shared by every later batch
            return output.ToString();
        }
    }

    public class GameSpec
    {
        public int Index, Opponent, SearchSeed;
        public long GameSeed;

        /// <summary>The summary line of a game that did not finish: E (threw) or S (stopped).</summary>
        public string Failure(string kind, string message)
        {
            message = message.Replace('\t', ' ').Replace('\n', ' ').Replace('\r', ' ');
            return kind + "\t" + Index + "\t" + Opponent + "\t" + GameSeed + "\t" + SearchSeed + "\t" + message;
        }
    }

    /// <summary>A game the bridge's guard stopped (no limit in the reference evaluator): reported
    /// as stopped, never as a result.</summary>
    public class GameStopped : Exception
    {
        public GameStopped(string reason) : base(reason) { }
    }

    public class OpponentSpec
    {
        public string Name, HeroClass, Strategy;
        public string[] Cards;
    }

    /// <summary>One game's statistics, each counted where the reference evaluator counts it.</summary>
    public class GameStats
    {
        public bool Won, Tied;
        public int P1Health, P2Health, NumTurns, GameTurn, HandSize, HandSizeStart, CardsDrawn, Damage,
                   ManaSpent, ManaWasted, TurnsCounted, SearchesP1, SearchesP2;
        public long OptionScore;  // a long, as the reference sums it
        public SortedDictionary<string, int> CardPlays = new SortedDictionary<string, int>(StringComparer.Ordinal);
        public SortedDictionary<string, int> OtherPlays = new SortedDictionary<string, int>(StringComparer.Ordinal);

        public void CountPlay(string cardId, ICollection<string> deck)
        {
            var plays = deck.Contains(cardId) ? CardPlays : OtherPlays;
            int count;
            plays.TryGetValue(cardId, out count);
            plays[cardId] = count + 1;
        }

        static string Plays(SortedDictionary<string, int> plays)
        {
            return plays.Count > 0 ? string.Join(",", plays.Select(p => p.Key + ":" + p.Value)) : "-";
        }

        public string Line(GameSpec spec)
        {
            var fields = new object[] { "G", spec.Index, spec.Opponent, spec.GameSeed, spec.SearchSeed,
                Won ? 1 : 0, Tied ? 1 : 0, P1Health, P2Health, NumTurns, GameTurn, HandSize, HandSizeStart,
                CardsDrawn, Damage, ManaSpent, ManaWasted, OptionScore, TurnsCounted, SearchesP1, SearchesP2,
                Plays(CardPlays), Plays(OtherPlays) };
            return string.Join("\t", fields.Select(f => Convert.ToString(f, CultureInfo.InvariantCulture)));
        }
    }

    /// <summary>The classic stat overrides, written into the cards' tags and into the values Card
    /// caches from them (Cost, ATK, Health have private setters), and put back after the batch.
    /// As the reference evaluator does: a tag the card lacks (a spell's attack or health) is
    /// written all the same, and the cached attack and health are set only on minions.</summary>
    public class StatOverrides
    {
        static readonly GameTag[] Tags = { GameTag.COST, GameTag.ATK, GameTag.HEALTH };
        static readonly string[] Cached = { "Cost", "ATK", "Health" };
        readonly List<string> _ids;
        readonly List<int[]> _values;
        // card, stat, the tag's old value (null: the card had no such tag), the cached old value
        readonly List<Tuple<Card, int, int?, int>> _saved = new List<Tuple<Card, int, int?, int>>();

        public StatOverrides(List<string> ids, List<int[]> values) { _ids = ids; _values = values; }

        public int Apply()
        {
            int applied = 0;
            for (int i = 0; i < _ids.Count; i++)
            {
                var card = Cards.FromId(_ids[i]);
                if (card == null) throw new ArgumentException("SabberStone has no card " + _ids[i] + " to override");
                for (int t = 0; t < 3; t++)
                {
                    if (_values[i][t] < 0) continue;
                    int old;
                    bool had = card.Tags.TryGetValue(Tags[t], out old);
                    _saved.Add(Tuple.Create(card, t, had ? old : (int?)null, GetCached(card, t)));
                    card.Tags[Tags[t]] = _values[i][t];
                    if (CachesStat(card, t)) SetCached(card, t, _values[i][t]);
                }
                applied++;
            }
            return applied;
        }

        public void Restore()
        {
            for (int i = _saved.Count - 1; i >= 0; i--)
            {
                Card card = _saved[i].Item1;
                int t = _saved[i].Item2;
                if (_saved[i].Item3.HasValue) card.Tags[Tags[t]] = _saved[i].Item3.Value;
                else card.Tags.Remove(Tags[t]);
                if (CachesStat(card, t)) SetCached(card, t, _saved[i].Item4);
            }
            _saved.Clear();
        }

        static bool CachesStat(Card card, int t) { return t == 0 || card.Type == CardType.MINION; }

        static PropertyInfo CachedProperty(int t)
        {
            var prop = typeof(Card).GetProperty(Cached[t], BindingFlags.Instance | BindingFlags.Public);
            return prop != null && prop.PropertyType == typeof(int) ? prop : null;
        }

        static int GetCached(Card card, int t)
        {
            var prop = CachedProperty(t);
            return prop != null ? (int)prop.GetValue(card) : 0;
        }

        static void SetCached(Card card, int t, int value)
        {
            var setter = CachedProperty(t)?.GetSetMethod(true);
            if (setter != null) setter.Invoke(card, new object[] { value });
        }
    }

    public class Batch
    {
        public string Player = "beam", HeroClass = "ROGUE", Evaluated = "nn";
        public int Depth = 13, Width = 4, MaxTurns = 200;
        public bool CopyEveryAction, History = true;
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
                    case "history": b.History = f[1] == "1"; break;
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
                            // seeds travel as unsigned text; RandomSeed is a long, the search seed an int
                            GameSeed = unchecked((long)ulong.Parse(f[3], CultureInfo.InvariantCulture)),
                            SearchSeed = int.Parse(f[4], CultureInfo.InvariantCulture) });
                        break;
                    default: throw new ArgumentException("unknown bridge directive " + f[0]);
                }
            }
            return b;
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

        IScore ScoreOf(string strategy)
        {
            if (strategy == "aggro") return new AggroScore();
            if (strategy == "control") return new ControlScore();
            if (strategy == "nn") return new NeuralNetScore(Weights);
            throw new ArgumentException("unknown strategy " + strategy);
        }

        IPlanner PlannerOf(string strategy, GameSpec spec, bool copyEveryAction)
        {
            if (Player == "random") return new RandomPlanner(new Random(spec.SearchSeed), copyEveryAction);
            return new ReferencePlanner(ScoreOf(strategy), Depth, Width);
        }

        // Guards against a hang that real decks never reach (fatigue ends games; a turn ends
        // after a few plans): the game is then reported as stopped instead of running forever.
        const int MaxPlansPerTurn = 500;

        static void CheckProgress(int plansThisTurn)
        {
            if (plansThisTurn >= MaxPlansPerTurn)
                throw new GameStopped("a player planned " + MaxPlansPerTurn + " times in one turn");
        }

        /// <summary>Seeds the generator the planner's clones draw their randomness from (Game.Clone
        /// seeds each clone from this thread's Util.ThreadLocalRandom; the game itself draws from
        /// GameConfig.RandomSeed), as the reference records mean `search_seed`: SabberStone's shared
        /// generator becomes new Random(search_seed) and the thread's generator is created from it
        /// on first use, new Random(shared.Next()). SetSeed(new Random(seed).Next()) is exactly that
        /// thread generator; SetSeed(seed) would be one step off.</summary>
        public static void SeedPlanner(int searchSeed)
        {
            Util.ThreadLocalRandom.SetSeed(new Random(searchSeed).Next());
        }

        /// <summary>One game as EvoStone2's GameEvaluator plays it: player 1 (the evaluated deck)
        /// starts; each player's turn is planned, executed, and planned again after a random event
        /// or a pending choice.</summary>
        public GameStats PlayOne(GameSpec spec)
        {
            var opponent = Opponents[spec.Opponent];
            SeedPlanner(spec.SearchSeed);
            var game = new Game(new GameConfig
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
                History = History,
                RandomSeed = spec.GameSeed,
            });
            bool randomHappened = false;
            game.RandomHappenedEvent += (sender, happened) => randomHappened = happened;
            var planners = new[] { PlannerOf(Evaluated, spec, CopyEveryAction), PlannerOf(opponent.Strategy, spec, CopyEveryAction) };

            game.StartGame();
            // Both players decide before either mulligan is applied, as the reference does.
            var keep1 = planners[0].Keep(game, game.Player1);
            var keep2 = planners[1].Keep(game, game.Player2);
            game.Process(ChooseTask.Mulligan(game.Player1, keep1));
            game.Process(ChooseTask.Mulligan(game.Player2, keep2));
            game.MainReady();

            var stats = new GameStats();
            var me = game.Player1;
            var deckIds = new HashSet<string>(Deck);
            while (game.State != State.COMPLETE)
            {
                if (game.Turn > MaxTurns)
                    throw new GameStopped("game still running after " + MaxTurns + " turns");
                if (game.State == State.RUNNING && game.CurrentPlayer == me)
                    stats.HandSizeStart += me.HandZone.Count;
                int drawn = 1;  // the most cards drawn this turn, read before each action
                int searchesBefore = stats.SearchesP1;
                while (game.State == State.RUNNING && game.CurrentPlayer == me)
                {
                    CheckProgress(stats.SearchesP1 - searchesBefore);
                    var plan = planners[0].Plan(game, me);
                    stats.SearchesP1++;
                    if (plan.Score != int.MaxValue && plan.Score != int.MinValue)
                        stats.OptionScore = unchecked(stats.OptionScore + plan.Score);
                    foreach (var task in plan.Tasks)
                    {
                        int drawnBefore = task.Controller.NumCardsDrawnThisTurn;
                        if (!game.Process(task)) break;
                        drawn = Math.Max(drawn, drawnBefore);
                        if (task.PlayerTaskType == PlayerTaskType.PLAY_CARD)
                            stats.CountPlay(task.Source.Card.Id, deckIds);
                        if (task.PlayerTaskType == PlayerTaskType.MINION_ATTACK)
                            stats.Damage += ((ICharacter)task.Source).AttackDamage;
                        if (game.CurrentPlayer.Choice != null || randomHappened)
                        {
                            randomHappened = false;
                            break;
                        }
                    }
                    stats.ManaSpent += me.UsedMana;
                    stats.ManaWasted += me.BaseMana - me.UsedMana;
                }
                stats.CardsDrawn += drawn;
                stats.HandSize += me.HandZone.Count;
                stats.TurnsCounted++;
                searchesBefore = stats.SearchesP2;
                while (game.State == State.RUNNING && game.CurrentPlayer == me.Opponent)
                {
                    CheckProgress(stats.SearchesP2 - searchesBefore);
                    var plan = planners[1].Plan(game, me.Opponent);
                    stats.SearchesP2++;
                    foreach (var task in plan.Tasks)
                    {
                        game.Process(task);
                        if (game.CurrentPlayer.Choice != null || randomHappened)
                        {
                            randomHappened = false;
                            break;
                        }
                    }
                }
            }
            stats.NumTurns = (1 + game.Turn) / 2;
            stats.GameTurn = game.Turn;
            stats.Won = me.PlayState == PlayState.WON;
            stats.Tied = me.PlayState == PlayState.TIED;
            stats.P1Health = me.Hero.Health;
            stats.P2Health = me.Opponent.Hero.Health;
            return stats;
        }
    }

    /// <summary>What a player executes next: a line of tasks and the score of where it ends.</summary>
    public class TurnPlan
    {
        public List<PlayerTask> Tasks = new List<PlayerTask>();
        public int Score;
    }

    public interface IPlanner
    {
        /// <summary>The entity ids of the opening-hand cards to keep (ChooseTask.Mulligan's list).</summary>
        List<int> Keep(Game game, Controller player);
        TurnPlan Plan(Game game, Controller player);
    }

    /// <summary>SabberStone's beam search with a score: the best end-of-turn solution (the first
    /// of equal scores), its tasks from the root.</summary>
    public class ReferencePlanner : IPlanner
    {
        readonly IScore _score;
        readonly int _depth, _width;

        public ReferencePlanner(IScore score, int depth, int width) { _score = score; _depth = depth; _width = width; }

        public List<int> Keep(Game game, Controller player)
        {
            return _score.MulliganRule().Invoke(player.Choice.Choices.Select(id => game.IdEntityDic[id]).ToList());
        }

        public TurnPlan Plan(Game game, Controller player)
        {
            var solutions = OptionNode.GetSolutions(game, player.Id, _score, _depth, _width);
            var best = solutions.OrderByDescending(node => node.Score).First();
            var plan = new TurnPlan { Score = best.Score };
            best.PlayerTasks(ref plan.Tasks);
            return plan;
        }
    }

    /// <summary>Uniformly random legal play, one task per plan; optionally copies the game before
    /// every action (the startup check's test of Game.Clone).</summary>
    public class RandomPlanner : IPlanner
    {
        readonly Random _random;
        readonly bool _copyEveryAction;

        public RandomPlanner(Random random, bool copyEveryAction) { _random = random; _copyEveryAction = copyEveryAction; }

        // The protocol's mulligan for every player: keep the cards costing more than 3.
        public List<int> Keep(Game game, Controller player)
        {
            return player.Choice.Choices.Where(id => game.IdEntityDic[id].Cost > 3).ToList();
        }

        public TurnPlan Plan(Game game, Controller player)
        {
            var options = player.Options();
            if (_copyEveryAction) game.Clone();
            return new TurnPlan { Tasks = { options[_random.Next(options.Count)] } };
        }
    }

    /// <summary>EvoStone2's neural-net player: an MLP [15, 5, 4, 1] with tanh after every layer
    /// over 15 state features, scaled by 1e6 and truncated to int; a dead hero scores the extremes.
    /// Weights flat as in player_strategy_nn.json: every layer's weights (input-major), then every
    /// layer's biases.</summary>
    public class NeuralNetScore : Score
    {
        static readonly int[] Sizes = { 15, 5, 4, 1 };
        readonly double[] _w;

        public NeuralNetScore(double[] weights)
        {
            if (weights == null || weights.Length != 109)
                throw new ArgumentException("the neural-net score needs 109 weights");
            _w = weights;
        }

        public override int Rate()
        {
            if (OpHeroHp < 1) return int.MaxValue;
            if (HeroHp < 1) return int.MinValue;
            var features = new double[] {
                HeroHp, OpHeroHp, HeroAtk, OpHeroAtk, HandTotCost, HandCnt, OpHandCnt, DeckCnt, OpDeckCnt,
                MinionTotAtk, OpMinionTotAtk, MinionTotHealth, OpMinionTotHealth,
                MinionTotHealthTaunt, OpMinionTotHealthTaunt };
            return (int)(Forward(features) * 1e6);
        }

        public override Func<List<IPlayable>, List<int>> MulliganRule()
        {
            return cards => cards.Where(c => c.Cost > 3).Select(c => c.Id).ToList();
        }

        double Forward(double[] values)
        {
            int weightAt = 0, biasAt = 0;
            for (int l = 0; l + 1 < Sizes.Length; l++) biasAt += Sizes[l] * Sizes[l + 1];
            for (int l = 0; l + 1 < Sizes.Length; l++)
            {
                int nIn = Sizes[l], nOut = Sizes[l + 1];
                var next = new double[nOut];
                for (int j = 0; j < nOut; j++) next[j] = _w[biasAt + j];
                for (int i = 0; i < nIn; i++)
                    for (int j = 0; j < nOut; j++) next[j] += values[i] * _w[weightAt + i * nOut + j];
                for (int j = 0; j < nOut; j++) next[j] = Math.Tanh(next[j]);
                weightAt += nIn * nOut;
                biasAt += nOut;
                values = next;
            }
            return values[0];
        }
    }
}
