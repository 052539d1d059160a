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
        Table? Find(TableSpec spec) => tables.FirstOrDefault(t => t.Spec.Id == spec.Id);
        return new ProblemFigureSet(
            Rows(Find(TraceReadinessAnalysis.Spec), Readiness),
            Rows(Find(SyscallHookTables.Overhead), SyscallHook),
            Rows(Find(SpinWaitTables.PerLock), SpinLock),
            Rows(Find(SpinWaitTables.ByProcess), OpenMp).OfType<OpenMpFigures>().ToArray(),
            Rows(Find(DirectoryNotifyTables.Buffers), NotifyWatcher),
            Rows(Find(EventLogTables.RenderCost), EventLogClient));
    }

    private static IReadOnlyList<T> Rows<T>(Table? table, Func<Cells, T> read) =>
        table is null ? [] : Enumerable.Range(0, table.Rows.Count).Select(r => read(new Cells(table, r))).ToArray();

    private static ReadinessFigures Readiness(Cells c) => new(
        c.Text("Table"), c.Get<bool>("Ready") ?? false,
        // Optional kinds are listed in brackets: only the required ones stop a problem from being checked.
        c.Text("Missing").Split("; ", StringSplitOptions.RemoveEmptyEntries).Where(m => !m.StartsWith('[')).ToArray(),
        c.TextOrNull("Record With"));

    private static SyscallHookFigures SyscallHook(Cells c) => new(
        c.Text("Culprit Module"), c.Text("Vendor"), c.Text("Product"), c.Text("Category"), c.Text("Process"), c.Get<long>("PID"),
        c.Text("Syscall"), c.Get<long>("Syscalls") ?? 0, c.Get<long>("Samples in Syscalls") ?? 0, c.Get<double>("Hook CPU (ms)") ?? 0,
        c.Get<double>("Hook Overhead per Syscall (µs)"), c.Get<double>("Inflation (×)"), c.Get<long>("First"), c.Get<long>("Last"));

    private static SpinLockFigures SpinLock(Cells c) => new(
        c.Text("Process"), c.Get<long>("PID"), c.Get<long>("Lock ID"), c.Text("Call Site"), c.Get<long>("Contentions") ?? 0,
        c.Get<long>("Threads") ?? 0, c.Get<double>("Wait (ms)") ?? 0, c.Get<double>("Wasted Spin CPU (ms)") ?? 0,
        c.Get<double>("Spin CPU (ms)") ?? 0, c.Get<long>("First"), c.Get<long>("Last"));

    /// <summary>Only a row with the table's OpenMP hint; the runtime module and the share are the hint's own figures.</summary>
    private static OpenMpFigures? OpenMp(Cells c)
    {
        if (c.TextOrNull("Hint") is not { } hint) return null;
        var match = HintFigures().Match(hint);
        double? share = match.Success ? double.Parse(match.Groups["share"].Value, CultureInfo.InvariantCulture) : null;
        var module = match.Success ? match.Groups["module"].Value : "the OpenMP runtime";
        return new OpenMpFigures(c.Text("Process"), c.Get<long>("PID"), module, c.Get<double>("OpenMP Runtime CPU (ms)") ?? 0, share, hint);
    }

    private static NotifyWatcherFigures NotifyWatcher(Cells c) => new(
        c.Text("Process"), c.Get<long>("PID"), c.Text("Directory"), c.Get<long>("Buffer (bytes)") ?? 0, c.Get<long>("Completions") ?? 0,
        c.Get<long>("Overflows") ?? 0, c.Get<double>("Mean Bytes per Completion"), c.Get<long>("Bytes Zeroed") ?? 0, c.Text("Victim Processes"),
        c.Get<long>("Recommended Buffer (bytes)"), c.Get<long>("First Arm"), c.Get<long>("Watch End"));

    private static EventLogClientFigures EventLogClient(Cells c) => new(
        c.Text("Process"), c.Get<long>("PID"), c.TextOrNull("On Behalf Of"), c.Text("Log"), c.Get<long>("Renders") ?? 0,
        c.Get<double>("Service CPU (ms)") ?? 0, c.Get<double>("CPU per Message (ms)"), c.Get<double>("Registry Ops per Message"),
        c.TextOrNull("WMI Query"), c.Get<long>("First"), c.Get<long>("Last"));

    [GeneratedRegex(@"^(?<share>\d+(\.\d+)?)% .* spin-waiting in (?<module>[^:\s]+):", RegexOptions.CultureInvariant)]
    private static partial Regex HintFigures();

    /// <summary>One row's cells by column name.</summary>
    private readonly struct Cells(Table table, int row)
    {
        public T? Get<T>(string column) where T : struct => table.Cell(row, column) is T value ? value : null;

        public string Text(string column) => TextOrNull(column) ?? "";

        public string? TextOrNull(string column) => table.Cell(row, column) is string { Length: > 0 } s ? s : null;
    }
}
