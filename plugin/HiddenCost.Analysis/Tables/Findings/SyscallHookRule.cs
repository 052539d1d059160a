using static HiddenCost.Analysis.Tables.Findings.FigureText;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// One finding per culprit module in Syscall Hook Overhead, over all its victim processes and syscalls: cost is the
/// sampled CPU inside the module during syscalls; severity comes from the overhead it adds to each syscall.
/// </summary>
internal static class SyscallHookRule
{
    public const string SeeTable = "Syscall Hook Overhead";

    public static IEnumerable<Finding> Assess(IReadOnlyList<SyscallHookFigures> rows, Levels levels)
    {
        foreach (var module in rows.Where(r => r.CulpritModule.Length > 0).GroupBy(r => r.CulpritModule, StringComparer.OrdinalIgnoreCase))
        {
            var r = module.OrderByDescending(x => x.HookCpuMs).ToArray();
            double hookMs = r.Sum(x => x.HookCpuMs);
            long syscalls = r.Sum(x => x.Syscalls);
            // Each row's overhead is its hook CPU over the syscalls made while samples were taken: those syscalls add up.
            double sampledSyscalls = r.Where(x => x.OverheadPerSyscallUs > 0).Sum(x => x.HookCpuMs * 1000 / x.OverheadPerSyscallUs!.Value);
            double overheadUs = sampledSyscalls > 0 ? hookMs * 1000 / sampledSyscalls : double.NaN;
            // Inflation = samples ÷ (samples − hook samples): the samples without the hook add up as samples ÷ inflation.
            var inflated = r.Where(x => x.Inflation > 0 && x.SamplesInSyscalls > 0).ToArray();
            double? inflation = inflated.Length > 0 ? inflated.Sum(x => (double)x.SamplesInSyscalls) / inflated.Sum(x => x.SamplesInSyscalls / x.Inflation!.Value) : null;
            var first = r[0];
            var name = first.CulpritModule;
            var product = string.Join(" ", new[] { first.Vendor, first.Product }.Where(s => s.Length > 0));
            var culprit = product.Length > 0 ? $"{name} ({product}, {first.Category})" : $"{name} ({first.Category})";
            var victims = r.Select(x => Process(x.Process, x.Pid)).Distinct().ToArray();
            var syscallNames = r.Select(x => x.Syscall).Distinct().Take(3).ToArray();

            var figures = new List<Figure>
            {
                new("Hook CPU", hookMs, "ms", $"{Ms(hookMs)} of CPU inside {name} during syscalls"),
                new("Syscalls", syscalls, "", $"{Count(syscalls)} syscalls hooked"),
            };
            if (!double.IsNaN(overheadUs)) figures.Add(new("Overhead per Syscall", overheadUs, "µs", $"{Us(overheadUs)} added to each"));
            if (inflation is { } x1) figures.Add(new("Inflation", x1, "×", $"{Times(x1)} the syscall's CPU without the hook"));

            var dearer = inflation is { } x2 ? $", {Times(x2)} dearer" : "";
            var fix = product.Length > 0
                ? $"Exclude {string.Join(" and ", r.Select(x => x.Process).Distinct())} from {product}'s system-call monitoring, or update {name} to a version that does not hook every syscall"
                : $"Find who ships {name} (an unknown third-party kernel module) and update or remove it";
            var recommendation = $"{fix}: it adds {(double.IsNaN(overheadUs) ? "CPU" : Us(overheadUs))} to each of {Count(syscalls)} syscalls " +
                                 $"({string.Join(", ", syscallNames)}{dearer}), {Ms(hookMs)} of CPU in this trace.";
            yield return new Finding(Problems.SyscallHook, levels.Of(overheadUs, hookMs), culprit, string.Join(", ", victims), hookMs, false,
                figures, null, recommendation, SeeTable, r.Min(x => x.FirstNs), r.Max(x => x.LastNs));
        }
    }
}
