// STAND-IN for SabberStoneBasicAI.dll, for tests only (compiled against the SabberStoneCore
// stand-in). It has the names and signatures of the real assembly's planner and scores that the
// bridge calls (OptionNode.GetSolutions, IScore, Score, AggroScore, ControlScore) over a plain
// toy search and toy formulas written for these tests: nothing here is SabberStone's code, and
// its choices say nothing about how SabberStone's player decides.
using System;
using System.Collections.Generic;
using System.Linq;
using SabberStoneCore.Enums;
using SabberStoneCore.Model;
using SabberStoneCore.Model.Entities;
using SabberStoneCore.Tasks.PlayerTasks;
using SabberStoneBasicAI.Score;

namespace SabberStoneBasicAI.Score
{
    public interface IScore
    {
        Controller Controller { get; set; }
        Func<List<IPlayable>, List<int>> MulliganRule();
        int Rate();
    }

    public abstract class Score : IScore
    {
        public Controller Controller { get; set; }
        public int HeroHp => Controller.Hero.Health;
        public int OpHeroHp => Controller.Opponent.Hero.Health;
        public int HeroAtk => Controller.Hero.TotalAttackDamage;
        public int OpHeroAtk => Controller.Opponent.Hero.TotalAttackDamage;
        public int HandTotCost => Controller.HandZone.Sum(c => c.Cost);
        public int HandCnt => Controller.HandZone.Count;
        public int OpHandCnt => Controller.Opponent.HandZone.Count;
        public int DeckCnt => Controller.DeckZone.Count;
        public int OpDeckCnt => Controller.Opponent.DeckZone.Count;
        public BoardZone BoardZone => Controller.BoardZone;
        public BoardZone OpBoardZone => Controller.Opponent.BoardZone;
        public int MinionTotAtk => BoardZone.Sum(m => m.AttackDamage);
        public int OpMinionTotAtk => OpBoardZone.Sum(m => m.AttackDamage);
        public int MinionTotHealth => BoardZone.Sum(m => m.Health);
        public int OpMinionTotHealth => OpBoardZone.Sum(m => m.Health);
        public int MinionTotHealthTaunt => BoardZone.Where(m => m.HasTaunt).Sum(m => m.Health);
        public int OpMinionTotHealthTaunt => OpBoardZone.Where(m => m.HasTaunt).Sum(m => m.Health);

        public virtual int Rate() { return 0; }
        public virtual Func<List<IPlayable>, List<int>> MulliganRule() { return cards => new List<int>(); }
    }

    // Toy formulas: face damage first (aggro), board first (control).
    public class AggroScore : Score
    {
        public override int Rate() { return 100 * (HeroHp - OpHeroHp) + MinionTotAtk; }
        public override Func<List<IPlayable>, List<int>> MulliganRule()
        {
            return cards => cards.Where(c => c.Cost > 3).Select(c => c.Id).ToList();
        }
    }

    public class ControlScore : Score
    {
        public override int Rate() { return 20 * (BoardZone.Count - OpBoardZone.Count) + HeroHp - OpHeroHp + MinionTotHealth; }
        public override Func<List<IPlayable>, List<int>> MulliganRule()
        {
            return cards => cards.Where(c => c.Cost > 3).Select(c => c.Id).ToList();
        }
    }
}

namespace SabberStoneBasicAI.Nodes
{
    /// <summary>A state reached by one task from its parent, on its own copy of the game.</summary>
    public class OptionNode
    {
        readonly OptionNode _parent;
        readonly Game _game;
        readonly int _playerId;

        public PlayerTask PlayerTask { get; }
        public int Score { get; private set; }
        public bool IsRunning => _game.State == State.RUNNING;
        public bool IsEndTurn => _game.CurrentPlayer.Id != _playerId;
        public bool IsRoot => PlayerTask == null;

        public OptionNode(OptionNode parent, Game game, int playerId, PlayerTask playerTask, IScore scoring)
        {
            _parent = parent;
            _game = game.Clone();
            _playerId = playerId;
            PlayerTask = playerTask;
            if (playerTask == null) return;
            _game.Process(playerTask);
            scoring.Controller = _game.ControllerById(playerId);
            Score = scoring.Rate();
        }

        public void PlayerTasks(ref List<PlayerTask> list)
        {
            if (_parent == null) return;
            _parent.PlayerTasks(ref list);
            list.Add(PlayerTask);
        }

        /// <summary>Toy beam search: expand every kept node; nodes that end the turn or the game
        /// are solutions, the best `maxWidth` of the rest are expanded next.</summary>
        public static List<OptionNode> GetSolutions(Game game, int playerId, IScore scoring, int maxDepth, int maxWidth)
        {
            var frontier = new List<OptionNode> { new OptionNode(null, game, playerId, null, scoring) };
            var solutions = new List<OptionNode>();
            for (int depth = 0; depth < maxDepth && frontier.Count > 0; depth++)
            {
                var children = frontier.SelectMany(node => node._game.ControllerById(playerId).Options()
                    .Select(task => new OptionNode(node, node._game, playerId, task, scoring))).ToList();
                solutions.AddRange(children.Where(c => c.IsEndTurn || !c.IsRunning));
                frontier = children.Where(c => !c.IsEndTurn && c.IsRunning)
                    .OrderByDescending(c => c.Score).Take(maxWidth).ToList();
            }
            return solutions;
        }
    }
}
