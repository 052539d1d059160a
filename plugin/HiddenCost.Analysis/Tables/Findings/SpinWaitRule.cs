using static HiddenCost.Analysis.Tables.Findings.FigureText;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// Spin-wait findings: per lock (Spin-Wait Cost per Lock), the spin that ended in a block anyway — CPU that bought
/// nothing — judged by its share of the lock's spinning; per process (Spin-Wait by Process), OpenMP workers
/// spin-waiting, judged by their share of the process's CPU.
/// </summary>
internal static class SpinWaitRule
{
    public const string PerLockTable = "Spin-Wait Cost per Lock";
    public const string ByProcessTable = "Spin-Wait by Process";

    public static IEnumerable<Finding> Assess(IReadOnlyList<SpinLockFigures> locks, IReadOnlyList<OpenMpFigures> openMp, Levels lockLevels, Levels openMpLevels)
    {
        foreach (var l in locks)
        {
            double share = l.SpinMs > 0 ? l.WastedSpinMs / l.SpinMs * 100 : double.NaN;
            var lockId = l.LockId is { } id ? $" (Lock ID {Hex(id)})" : "";
            var culprit = $"{l.CallSite} in {l.Process}{lockId}";
            var figures = new List<Figure>
            {
                new("Wasted Spin CPU", l.WastedSpinMs, "ms", $"{Ms(l.WastedSpinMs)} of spinning that ended in a block anyway"),
                new("Spin CPU", l.SpinMs, "ms", $"{Ms(l.SpinMs)} spun in all"),
            };
            if (!double.IsNaN(share)) figures.Add(new("Wasted Share", share, "%", $"{Percent(share)} of the spinning wasted"));
            figures.Add(new("Contentions", l.Contentions, "", $"{Count(l.Contentions)} contentions"));
            figures.Add(new("Wait", l.WaitMs, "ms", $"{Ms(l.WaitMs)} blocked"));
            var recommendation =
                $"Shorten the work done while holding the lock at {l.CallSite}{lockId} in {l.Process}, or split it (per-key locks, a concurrent " +
                $"collection): {Ms(l.WastedSpinMs)} of its {Ms(l.SpinMs)} spinning ended in a block anyway over {Count(l.Contentions)} contentions, " +
                $"so the spin did not pay.";
            yield return new Finding(Problems.SpinWait, lockLevels.Of(share, l.WastedSpinMs), culprit,
                $"{Process(l.Process, l.Pid)}: {Count(l.Threads)} threads", l.WastedSpinMs, false, figures, null, recommendation, PerLockTable, l.FirstNs, l.LastNs);
        }
        foreach (var p in openMp)
        {
            double share = p.SharePercent ?? double.NaN;
            var figures = new List<Figure> { new("OpenMP Runtime CPU", p.OpenMpCpuMs, "ms", $"{Ms(p.OpenMpCpuMs)} in {p.Module}") };
            if (p.SharePercent is { } s) figures.Add(new("Share of Process CPU", s, "%", $"{Fixed(s, 0)}% of {p.Process}'s CPU"));
            var recommendation = $"{p.Process}: {p.Hint} ({Ms(p.OpenMpCpuMs)} of CPU in {p.Module}).";
            yield return new Finding(Problems.SpinWait, openMpLevels.Of(share, p.OpenMpCpuMs), $"{p.Module} in {p.Process}",
                Process(p.Process, p.Pid), p.OpenMpCpuMs, false, figures, null, recommendation, ByProcessTable, null, null);
        }
    }
}
