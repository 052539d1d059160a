namespace HiddenCost.Analysis.Common;

/// <summary>
/// A process as tables name it. Identity is (pid, start time): ids are reused within one trace, so two
/// processes with the same pid but different starts are different rows.
/// </summary>
public sealed record ProcessRef(int Pid, long StartNs, string Name)
{
    public static readonly ProcessRef Unknown = new(-1, long.MinValue, "Unknown");

    public bool IsKnown => Pid >= 0;

    /// <summary>Identity is (pid, start): the name is a property of that instance, not part of who it is.</summary>
    public bool Equals(ProcessRef? other) => other is not null && other.Pid == Pid && other.StartNs == StartNs;

    public override int GetHashCode() => HashCode.Combine(Pid, StartNs);

    public override string ToString() => $"{Name} ({Pid})";
}
