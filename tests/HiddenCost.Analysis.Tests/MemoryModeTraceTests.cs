using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.TraceInfo;
using HiddenCost.Analysis.Tables.TraceReadiness;
using HiddenCost.Analysis.Tables.EventCounts;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// WPR's memory mode (what `wpr -start` records unless told -filemode) keeps events in circular buffers, so by the
/// time the trace is saved the rundown at its start has been overwritten: the processes, threads and images that
/// predate the trace are described only by the DCEnd rundown at its end. Every problem table must read such a trace
/// as it reads the same machine recorded in file mode (synthetic scenario traces, written both ways).
/// </summary>
[TestClass]
public sealed class MemoryModeTraceTests
{
    private static readonly string[] ProblemTables =
    {
        "Spin-Wait Cost per Lock", "Spin-Wait by Process", "Directory Notify Buffers", "Directory Notify Victims",
        "Syscall Hook Overhead", "Profiling Gaps", "Event Log Render Cost",
    };

    private static void AssertSameTables(string name, Func<TraceBuilderSettings, BuiltTrace> generate, string table, string process)
    {
        foreach (bool lateThreads in new[] { false, true })
        {
            // Also with the scenario's threads started during the trace (a growing thread pool): known at once, but
            // in memory mode their processes are described only at the end.
            var fileMode = SyntheticTraces.Analyze(generate(new TraceBuilderSettings { ThreadsStartWithActivity = lateThreads }), name + "-file");
            var memoryMode = SyntheticTraces.Analyze(generate(new TraceBuilderSettings { RundownAtEndOnly = true, ThreadsStartWithActivity = lateThreads }), name + "-memory");
            foreach (var t in ProblemTables)
                Assert.AreEqual(Render(fileMode, t), Render(memoryMode, t), $"{name}{(lateThreads ? " (threads started in the trace)" : "")}: {t} differs between file mode and memory mode");
            var rows = memoryMode.Tables.First(x => x.Spec.Name == table);
            int processColumn = rows.Spec.Columns.ToList().FindIndex(c => c.Role == ColumnRole.ProcessName);
            Assert.IsTrue(Enumerable.Range(0, rows.RowCount).Any(r => (string?)rows.Value(r, processColumn) == process),
                $"{name}: {table} names no {process} row in memory mode");
        }
    }

    /// <summary>
    /// The table's rows and notes, a time that is the trace's end (a watch still active when recording stopped)
    /// shown as such: memory mode's rundown at the end makes that end later, and both say the same.
    /// </summary>
    private static string Render(AnalysisResult result, string table)
    {
        var t = result.Tables.First(x => x.Spec.Name == table);
        var traceEnd = result.Table(TraceInfoAnalysis.Definition).Rows[0].End;
        var times = t.Spec.Columns.Select(c => c.Type == ColumnType.Timestamp).ToArray();
        return string.Join("\n", Enumerable.Range(0, t.RowCount).Select(r => string.Join(" | ", t.Spec.Columns.Select((_, i) => t.Value(r, i))
                   .Select((cell, i) => times[i] && Equals(cell, traceEnd) ? "(trace end)" : cell))))
               + "\nnotes: " + string.Join("\n", t.Notes.Texts());
    }

    [TestMethod]
    public void Spin_wait_tables_name_the_spinning_process_and_its_locks_when_the_rundown_is_only_at_the_end() =>
        AssertSameTables("spin", s => SpinContention.Generate(null, s).Trace, "Spin-Wait Cost per Lock", "InventoryService.exe");

    [TestMethod]
    public void Directory_notify_tables_name_watchers_and_victims_when_the_rundown_is_only_at_the_end() =>
        AssertSameTables("notify", s => NotifyBufferStorm.Generate(null, s).Trace, "Directory Notify Victims", "ingest.exe");

    [TestMethod]
    public void Syscall_hook_table_is_the_same_when_the_rundown_is_only_at_the_end() =>
        AssertSameTables("syscall", s => SyscallHookStorm.Generate(null, s).Trace, "Syscall Hook Overhead", "OrderRouter.exe");

    [TestMethod]
    public void Event_log_render_table_is_the_same_when_the_rundown_is_only_at_the_end() =>
        AssertSameTables("eventlog", s => EventLogRender.Generate(null, s).Trace, "Event Log Render Cost", "WmiPrvSE.exe");
}
