using System.Diagnostics;

namespace HiddenCost.Samples;

/// <summary>Burns CPU for a given time without any system call: the "work" of a reproducer.</summary>
internal static class BusyWait
{
    public static long TicksOf(int microseconds) => microseconds * Stopwatch.Frequency / 1_000_000;

    public static void For(long ticks)
    {
        if (ticks <= 0) return;
        var end = Stopwatch.GetTimestamp() + ticks;
        while (Stopwatch.GetTimestamp() < end) { }
    }
}
