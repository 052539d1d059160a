using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;

namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>The Syscall Hook Overhead and Profiling Gaps table specs (column names are a public contract, from issue 9).</summary>
public static class SyscallHookTables
{
    public const string UnknownModuleCategory = "unknown third-party kernel module";

    public static readonly TableDefinition<SyscallHookOverheadRow> Overhead = new TableDefinitionBuilder<SyscallHookOverheadRow>(TableIds.SyscallHookOverhead, "Syscall Hook Overhead",
            "Which third-party kernel module (typically a security driver that turned on kernel syscall tracing) sits in the " +
            "system-call path, which processes and syscalls pay for it, and how much CPU it costs them.", "HiddenCost/Syscall Hook")
        .Column("Culprit Module", ColumnType.Text, r => r.CulpritModule, description: "a third-party kernel module sampled in the kernel stack inside the syscall; empty when none was")
        .Column("Vendor", ColumnType.Text, r => r.Vendor, description: "from the security-driver catalogue; empty when the module is not in it")
        .Column("Product", ColumnType.Text, r => r.Product, description: "from the security-driver catalogue; empty when unknown")
        .Column("Category", ColumnType.Text, r => r.Category, description: "from the security-driver catalogue (EDR, anti-virus …), else \"" + UnknownModuleCategory + "\"")
        .Column("Process", ColumnType.Text, r => r.Process, role: ColumnRole.ProcessName, description: "the process making the syscalls; \"Unknown\" when the thread is not known")
        .Column("PID", ColumnType.Integer, r => r.Pid, role: ColumnRole.ProcessId)
        .Column("Syscall", ColumnType.Text, r => r.Syscall, description: "the system service routine: module!Function when the kernel's PDB is on the symbol path (hiddencost --symbols, _NT_SYMBOL_PATH), else module+0xRVA")
        .Column("Syscalls", ColumnType.Integer, r => r.Syscalls, ColumnUnit.Count, description: "SysClEnter events, including syscalls that had not returned when the trace ended")
        .Column("Syscalls per Second", ColumnType.Decimal, r => r.SyscallsPerSecond, ColumnUnit.PerSecond, description: "Syscalls ÷ (Last − First); empty for a single call")
        .Column("Total Syscall Time (ms)", ColumnType.Decimal, r => r.TotalSyscallTimeMs, ColumnUnit.Milliseconds, description: "enter → exit on the same thread, over syscalls that returned")
        .Column("Mean Syscall Time (µs)", ColumnType.Decimal, r => r.MeanSyscallTimeUs, ColumnUnit.Microseconds, description: "Total Syscall Time ÷ syscalls that returned", summary: ColumnSummary.Max)
        .Column("Samples in Syscalls", ColumnType.Integer, r => r.SamplesInSyscalls, ColumnUnit.Count, description: "CPU samples of the process's threads taken inside this syscall")
        .Column("Hook CPU (ms)", ColumnType.Decimal, r => r.HookCpuMs, ColumnUnit.Milliseconds, ColumnRole.GraphValue,
            "samples inside this syscall with the culprit module anywhere in the kernel stack × sample interval")
        .Column("Hook Overhead per Syscall (µs)", ColumnType.Decimal, r => r.HookOverheadPerSyscallUs, ColumnUnit.Microseconds, description: "Hook CPU ÷ the Syscalls made while CPU samples were taken (not during profiling gaps)", summary: ColumnSummary.Max)
        .Column("Inflation (×)", ColumnType.Decimal, r => r.Inflation, ColumnUnit.Ratio,
            description: "samples in the syscall ÷ (those samples − samples in the hook): the syscall's CPU with the hook relative to without it")
        .Column("First", ColumnType.Timestamp, r => r.First, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "first enter of this syscall by this process")
        .Column("Last", ColumnType.Timestamp, r => r.Last, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "last enter or exit of this syscall by this process")
        .Column("Top Stack", ColumnType.Text, r => r.TopStack, description: "the stack sampled most often inside this syscall (with the culprit module in it, on a culprit's row), leaf first: " +
            "module!Function frames where the PDB is on the symbol path, else module+0xRVA, .NET methods by name; at most " + StackText.MaxFramesText + " frames")
        .Build(new TableView(new[] { "Culprit Module", "Process", "Syscall" }, "Hook CPU (ms)", new[] { "Hook CPU (ms)", "Syscalls" }));

    public static readonly TableDefinition<ProfilingGapRow> Gaps = new TableDefinitionBuilder<ProfilingGapRow>(TableIds.ProfilingGaps, "Profiling Gaps",
            "Spans where CPU sampling stopped or paused (more than 10× the sample interval) while other kernel events went on: " +
            "the \"profiling vanished\" symptom of another tool taking over the kernel logger.", "HiddenCost/Syscall Hook")
        .Column("Start", ColumnType.Timestamp, r => r.Start, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "the last CPU sample before the gap")
        .Column("End", ColumnType.Timestamp, r => r.End, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "the first CPU sample after the gap, or the last event when sampling never resumed")
        .Column("Duration (ms)", ColumnType.Decimal, r => r.DurationMs, ColumnUnit.Milliseconds, ColumnRole.GraphValue)
        .Column("Events During Gap", ColumnType.Integer, r => r.EventsDuringGap, ColumnUnit.Count, description: "every kernel event logged inside the gap, stacks and rundowns included (only other activity makes a gap)")
        .Column("Likely Cause", ColumnType.Text, r => r.LikelyCause)
        .Build(new TableView(new[] { "Likely Cause" }, "Duration (ms)", new[] { "Duration (ms)" }));
}
