using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>The two Spin-Wait tables' specs (column names are a public contract, from issue 10).</summary>
public static class SpinWaitTables
{
    public const string Category = "HiddenCost/Spin-Wait";

    public static readonly TableDefinition<SpinWaitLockRow> PerLock = new TableDefinitionBuilder<SpinWaitLockRow>(TableIds.SpinWaitCostPerLock, "Spin-Wait Cost per Lock",
            "Which lock burns CPU spinning, for which threads, and whether the spinning paid off: spin that ended in a " +
            "block anyway (wasted) versus spin that acquired the lock (successful), beside the time spent blocked.", Category)
        .Column("Process", ColumnType.Text, r => r.Process, role: ColumnRole.ProcessName)
        .Column("PID", ColumnType.Integer, r => r.Pid, role: ColumnRole.ProcessId)
        .Column("Lock ID", ColumnType.Integer, r => r.LockId, description: "the CLR LockID (.NET 7+ ContentionStart v2); empty when the runtime does not say", format: "hex")
        .Column("Object", ColumnType.Integer, r => r.Object, description: "address of the locked object at the first contention (AssociatedObjectID); objects move in GC", format: "hex")
        .Column("Call Site", ColumnType.Text, r => r.CallSite, description: "the nearest managed (or, with symbols, native) caller of the spin code; '(unattributed)' when no stack named it")
        .Column("Contentions", ColumnType.Integer, r => r.Contentions, ColumnUnit.Count, description: "ContentionStart events: acquisitions that spun and then had to block")
        .Column("Threads", ColumnType.Integer, r => r.Threads, ColumnUnit.Count, description: "threads that contended for or spun on the lock")
        .Column("Wait (ms)", ColumnType.Decimal, r => r.WaitMs, ColumnUnit.Milliseconds, description: "time in contention: ContentionStop DurationNs, else Start→Stop on the thread (blocked, and any spin after a wake-up, which Spin CPU counts too)")
        .Column("Wasted Spin CPU (ms)", ColumnType.Decimal, r => r.WastedSpinCpuMs, ColumnUnit.Milliseconds, description: "sampled CPU of spins that ended in a block (a ContentionStart or a lock wait) anyway")
        .Column("Successful Spin CPU (ms)", ColumnType.Decimal, r => r.SuccessfulSpinCpuMs, ColumnUnit.Milliseconds, description: "sampled CPU of spins after which the thread ran on: the lock was acquired")
        .Column("Spin CPU (ms)", ColumnType.Decimal, r => r.SpinCpuMs, ColumnUnit.Milliseconds, ColumnRole.GraphValue, "wasted + successful spin CPU")
        .Column("Spin Share (%)", ColumnType.Decimal, r => r.SpinSharePercent, ColumnUnit.Percent, description: "spin CPU ÷ (spin CPU + wait)")
        .Column("Longest Spin (ms)", ColumnType.Decimal, r => r.LongestSpinMs, ColumnUnit.Milliseconds, description: "the longest single run of spin samples on one thread", summary: ColumnSummary.Max)
        .Column("First", ColumnType.Timestamp, r => r.First, ColumnUnit.Nanoseconds, ColumnRole.StartTime)
        .Column("Last", ColumnType.Timestamp, r => r.Last, ColumnUnit.Nanoseconds, ColumnRole.EndTime)
        .Build(new TableView(new[] { "Process", "Lock ID", "Call Site" }, "Spin CPU (ms)", new[] { "Spin CPU (ms)" }));

    public static readonly TableDefinition<SpinWaitProcessRow> ByProcess = new TableDefinitionBuilder<SpinWaitProcessRow>(TableIds.SpinWaitByProcess, "Spin-Wait by Process",
            "Per process: CPU spun on locks, SwitchToThread/Sleep(0)-style yield storms, and CPU spent spin-waiting in an " +
            "OpenMP runtime, with the setting that stops it.", Category)
        .Column("Process", ColumnType.Text, r => r.Process, role: ColumnRole.ProcessName)
        .Column("PID", ColumnType.Integer, r => r.Pid, role: ColumnRole.ProcessId)
        .Column("Threads", ColumnType.Integer, r => r.Threads, ColumnUnit.Count, description: "threads that spun, contended, yielded, delayed or ran OpenMP runtime code")
        .Column("Lock Spin CPU (ms)", ColumnType.Decimal, r => r.LockSpinCpuMs, ColumnUnit.Milliseconds, ColumnRole.GraphValue, "the process's spin CPU in Spin-Wait Cost per Lock")
        .Column("Yields", ColumnType.Integer, r => r.Yields, ColumnUnit.Count, description: "context switches out with wait reason WrYieldExecution (SwitchToThread, Thread.Yield), whatever the old thread state")
        .Column("Yields per Second", ColumnType.Decimal, r => r.YieldsPerSecond, ColumnUnit.PerSecond, description: "over the span from the first to the last yield")
        .Column("Delay Switches", ColumnType.Integer, r => r.DelaySwitches, ColumnUnit.Count, description: "Sleep(0)-style switches: wait reason DelayExecution by a thread that stayed ready (a Sleep that really waits is not counted)")
        .Column("OpenMP Runtime CPU (ms)", ColumnType.Decimal, r => r.OpenMPRuntimeCpuMs, ColumnUnit.Milliseconds, description: "sampled CPU in libiomp5md.dll, libomp*.dll or vcomp*.dll")
        .Column("Hint", ColumnType.Text, r => r.Hint, description: "what to change when OpenMP threads spin-wait a large share of the process's CPU")
        .Build(new TableView(new[] { "Process" }, "Lock Spin CPU (ms)", new[] { "Lock Spin CPU (ms)" }));
}
