using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Scenarios;

/// <summary>A generated trace together with the figures a correct table must show for it.</summary>
public sealed record ScenarioTrace<TTruth>(BuiltTrace Trace, TTruth Truth)
{
    public byte[] Bytes => Trace.Bytes;

    public void Save(string path) => Trace.Save(path);
}

/// <summary>Helpers shared by the scenario builders.</summary>
internal static class ScenarioSupport
{
    public static void RequireCpus(TraceBuilder b, IReadOnlyList<int> cpus, int needed, string scenario)
    {
        if (cpus.Count < needed) throw new ArgumentException($"{scenario} needs {needed} CPUs, got {cpus.Count}");
        if (cpus.Any(c => c < 0 || c >= b.Settings.Cpus)) throw new ArgumentException($"{scenario}: CPU outside the trace's 0..{b.Settings.Cpus - 1}");
        if (cpus.Distinct().Count() != cpus.Count) throw new ArgumentException($"{scenario}: CPUs repeat");
    }

    public static TraceBuilderSettings WithCpus(TraceBuilderSettings? settings, int cpus, string logFileName) =>
        (settings ?? new TraceBuilderSettings()) with { Cpus = Math.Max(cpus, settings?.Cpus ?? 0), LogFileName = logFileName };

    /// <summary>Index of the last item whose key is at or before <paramref name="t"/> in a list sorted by key.</summary>
    public static int FindLast<T>(IReadOnlyList<T> sorted, long t, Func<T, long> key)
    {
        int lo = 0, hi = sorted.Count - 1, found = -1;
        while (lo <= hi)
        {
            var mid = (lo + hi) / 2;
            if (key(sorted[mid]) <= t)
            {
                found = mid;
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        return found;
    }
}
