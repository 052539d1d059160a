namespace HiddenCost.Etl.Reading;

/// <summary>
/// A tournament (loser) tree over the merge's streams, keyed by (timestamp, processor): the smallest key wins, and
/// after the winner's key changes one replay from its leaf to the root — a comparison per level, three for eight
/// processors — finds the next winner. A binary heap would compare up to twice as often per level and move
/// stream references (each move a GC write barrier) for every event of a merge whose processors take turns.
/// </summary>
internal sealed class LoserTree
{
    private readonly long[] _time;
    private readonly int[] _tie;
    private readonly int[] _loser; // _loser[node]: the stream that lost the match at that internal node (1..leaves-1)
    private readonly int _leaves;
    private int _live;

    /// <param name="count">Streams, numbered 0..count−1; every one starts exhausted until <see cref="Start"/> names its key.</param>
    public LoserTree(int count)
    {
        _leaves = (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)Math.Max(count, 1));
        _time = new long[_leaves];
        _tie = new int[_leaves];
        _loser = new int[_leaves];
        Array.Fill(_time, long.MaxValue);
        Array.Fill(_tie, int.MaxValue);
    }

    /// <summary>The stream with the smallest key; meaningful while <see cref="HasWinner"/>.</summary>
    public int Winner { get; private set; }

    /// <summary>Whether any stream still has an event.</summary>
    public bool HasWinner => _live > 0;

    /// <summary>Gives stream <paramref name="stream"/> its first key; call <see cref="Build"/> once all have one.</summary>
    /// <param name="tie">Breaks equal timestamps (lower first): the processor number, unique per stream.</param>
    public void Start(int stream, long time, int tie)
    {
        _time[stream] = time;
        _tie[stream] = tie;
        _live++;
    }

    /// <summary>Plays every match once.</summary>
    public void Build()
    {
        var winners = new int[2 * _leaves];
        for (int leaf = 0; leaf < _leaves; leaf++) winners[_leaves + leaf] = leaf;
        for (int node = _leaves - 1; node >= 1; node--)
        {
            int a = winners[2 * node], b = winners[2 * node + 1];
            (winners[node], _loser[node]) = Less(b, a) ? (b, a) : (a, b);
        }
        Winner = winners[1];
    }

    /// <summary>The winner's next key: replays its matches up to the root.</summary>
    public void Replace(long time)
    {
        _time[Winner] = time;
        Replay();
    }

    /// <summary>The winner has no more events.</summary>
    public void Remove()
    {
        _time[Winner] = long.MaxValue;
        _tie[Winner] = int.MaxValue;
        _live--;
        Replay();
    }

    /// <summary>Every stream exhausted (the pass is over).</summary>
    public void Clear() => _live = 0;

    private void Replay()
    {
        int winner = Winner;
        for (int node = (winner + _leaves) >> 1; node >= 1; node >>= 1)
        {
            int other = _loser[node];
            if (Less(other, winner))
            {
                _loser[node] = winner;
                winner = other;
            }
        }
        Winner = winner;
    }

    // Ties on timestamp go to the lower processor; an exhausted stream (int.MaxValue) loses to every live one, even
    // one whose (corrupt) timestamp is long.MaxValue.
    private bool Less(int a, int b) => _time[a] < _time[b] || (_time[a] == _time[b] && _tie[a] < _tie[b]);
}
