using System.Globalization;
using System.Text.RegularExpressions;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.DirectoryNotify;
using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Tables.TraceReadiness;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// The one place Findings reads other tables' rows: each problem table (and Trace Readiness) becomes the small typed
/// records of <see cref="ProblemFigureSet"/>. A table that is absent (a host that built only some) reads as empty.
/// </summary>
public static partial class ProblemFigures
{
    public static ProblemFigureSet From(IReadOnlyList<Table> tables)
    {
        IReadOnlyList<TRow> RowsOf<TRow>() => tables.OfType<Table<TRow>>().FirstOrDefault()?.Rows ?? [];
        return new ProblemFigureSet(
            RowsOf<TraceReadinessRow>().Select(Readiness).ToArray(),
            RowsOf<SyscallHookOverheadRow>().Select(SyscallHook).ToArray(),
            RowsOf<SpinWaitLockRow>().Select(SpinLock).ToArray(),
            RowsOf<SpinWaitProcessRow>().Select(OpenMp).OfType<OpenMpFigures>().ToArray(),
            RowsOf<NotifyBufferRow>().Select(NotifyWatcher).ToArray(),
            RowsOf<RenderCostRow>().Select(EventLogClient).ToArray());
    }

    private static ReadinessFigures Readiness(TraceReadinessRow r) => new(
        r.Table, r.Ready,
        // Optional kinds are listed in brackets: only the required ones stop a problem from being checked.
        r.Missing.Split("; ", StringSplitOptions.RemoveEmptyEntries).Where(m => !m.StartsWith('[')).ToArray(),
        NonEmpty(r.RecordWith));

    private static SyscallHookFigures SyscallHook(SyscallHookOverheadRow r) => new(
        r.CulpritModule ?? "", r.Vendor ?? "", r.Product ?? "", r.Category ?? "", r.Process, r.Pid,
        r.Syscall, r.Syscalls, r.SamplesInSyscalls, r.HookCpuMs ?? 0,
        r.HookOverheadPerSyscallUs, r.Inflation, r.First, r.Last);

    private static SpinLockFigures SpinLock(SpinWaitLockRow r) => new(
        r.Process, r.Pid, r.LockId, r.CallSite ?? "", r.Contentions,
        r.Threads, r.WaitMs, r.WastedSpinCpuMs, r.SpinCpuMs, r.First, r.Last);

    /// <summary>Only a row with the table's OpenMP hint; the runtime module and the share are the hint's own figures.</summary>
    private static OpenMpFigures? OpenMp(SpinWaitProcessRow r)
    {
        if (NonEmpty(r.Hint) is not { } hint) return null;
        var match = HintFigures().Match(hint);
        double? share = match.Success ? double.Parse(match.Groups["share"].Value, CultureInfo.InvariantCulture) : null;
        var module = match.Success ? match.Groups["module"].Value : "the OpenMP runtime";
        return new OpenMpFigures(r.Process, r.Pid, module, r.OpenMPRuntimeCpuMs, share, hint);
    }

    private static NotifyWatcherFigures NotifyWatcher(NotifyBufferRow r) => new(
        r.Process, r.Pid, r.Directory, r.BufferBytes, r.Completions,
        r.Overflows, r.MeanBytesPerCompletion, r.BytesZeroed, r.VictimProcesses,
        r.RecommendedBufferBytes, r.FirstArm, r.WatchEnd);

    private static EventLogClientFigures EventLogClient(RenderCostRow r) => new(
        r.Process, r.Pid, NonEmpty(r.OnBehalfOf), r.Log, r.Renders,
        r.ServiceCpuMs ?? 0, r.CpuPerMessageMs, r.RegistryOpsPerMessage,
        NonEmpty(r.WmiQuery), r.First, r.Last);

    /// <summary>An empty cell and an empty text say the same: nothing.</summary>
    private static string? NonEmpty(string? text) => string.IsNullOrEmpty(text) ? null : text;

    [GeneratedRegex(@"^(?<share>\d+(\.\d+)?)% .* spin-waiting in (?<module>[^:\s]+):", RegexOptions.CultureInvariant)]
    private static partial Regex HintFigures();
}
