namespace HiddenCost.Analysis.Common;

/// <summary>
/// A process as tables name it. Identity is (pid, start time): ids are reused within one trace, so two
/// processes with the same pid but different starts are different rows. A process not yet known when an event
/// named it (WPR's memory mode describes the processes and threads that predate the trace only in the rundown at
/// its end) is a <see cref="StandIn"/> until <see cref="Pipeline.TraceSession.Final"/> resolves it after the pass:
/// stand-ins are distinct (one per unknown thread, or per unknown process id), so nothing merges two of them, or
/// one with a known process, before the rundown has said whose they are.
/// </summary>
public sealed record ProcessRef(int Pid, long StartNs, string Name)
{
    public static readonly ProcessRef Unknown = new(-1, long.MinValue, "Unknown");

    public bool IsKnown => Pid >= 0;

    /// <summary>The PID as a table cell: empty for an unknown process (rather than −1).</summary>
    public long? PidCell => IsKnown ? Pid : null;

    /// <summary>Non-zero for a stand-in (its number in the session): a process the trace describes only later.</summary>
    public int StandIn { get; init; }

    /// <summary>Identity is (pid, start): the name is a property of that instance, not part of who it is.</summary>
    public bool Equals(ProcessRef? other) =>
        other is not null && other.Pid == Pid && other.StartNs == StartNs && other.StandIn == StandIn;

    public override int GetHashCode() => HashCode.Combine(Pid, StartNs, StandIn);

    public override string ToString() => $"{Name} ({Pid})";
}
