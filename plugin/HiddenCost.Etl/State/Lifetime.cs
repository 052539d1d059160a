namespace HiddenCost.Etl.State;

/// <summary>Time bounds used by the state: "before the trace" and "after the trace" for rundown-only knowledge.</summary>
public static class Lifetime
{
    /// <summary>Start of something that already existed when the trace began (known from a DCStart/DCEnd rundown).</summary>
    public const long BeforeTrace = long.MinValue;

    /// <summary>End of something still alive when the trace ended.</summary>
    public const long AfterTrace = long.MaxValue;

    public static bool Contains(long start, long end, long timeNs) => timeNs >= start && timeNs < end;
}
