namespace HiddenCost.Synthetic.Model;

/// <summary>
/// SplitMix64: a tiny seeded generator whose sequence is fixed by its definition, so generated traces stay
/// byte-identical across .NET versions (System.Random's seeded sequence is an implementation detail).
/// </summary>
public sealed class Prng(ulong seed)
{
    private ulong _state = seed;

    public ulong NextUInt64()
    {
        var z = _state += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    /// <summary>Uniform in [0, 1).</summary>
    public double NextDouble() => (NextUInt64() >> 11) * (1.0 / (1UL << 53));

    /// <summary>Uniform integer in [minInclusive, maxExclusive).</summary>
    public long Next(long minInclusive, long maxExclusive)
    {
        if (maxExclusive <= minInclusive) throw new ArgumentException("empty range");
        return minInclusive + (long)(NextUInt64() % (ulong)(maxExclusive - minInclusive));
    }

    /// <summary>Uniform in [low, high].</summary>
    public double Between(double low, double high) => low + (high - low) * NextDouble();

    public bool Chance(double probability) => NextDouble() < probability;
}
