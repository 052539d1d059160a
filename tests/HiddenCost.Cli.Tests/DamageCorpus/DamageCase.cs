namespace HiddenCost.Cli.Tests.DamageCorpus;

/// <summary>What a damaged variant may do.</summary>
internal enum Expectation
{
    /// <summary>Damage the reader can see (structure, headers, sizes, timestamps, clocks): exit 4 with the warning, or 1 when nothing can be read.</summary>
    Seen,
    /// <summary>Damage no check can see (a payload value, a field nothing reads): 0 as well as 4 or 1.</summary>
    MaybeUnseen,
}

/// <summary>One damaged variant of a shared trace: its bytes, what was done to them, and what the run may do.</summary>
internal sealed record DamageCase(string Description, byte[] Bytes, Expectation Expect)
{
    public override string ToString() => Description;
}
