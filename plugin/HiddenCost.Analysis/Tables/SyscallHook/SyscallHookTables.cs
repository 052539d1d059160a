using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>The Syscall Hook Overhead and Profiling Gaps table specs (column names are a public contract, from issue 9).</summary>
public static class SyscallHookTables
{
    public const string UnknownModuleCategory = "unknown third-party kernel module";

    public static readonly TableSpec Overhead = new TableSpecBuilder(TableIds.SyscallHookOverhead, "Syscall Hook Overhead",
            "Which third-party kernel module (typically a security driver that turned on kernel syscall tracing) sits in the " +
            "system-call path, which processes and syscalls pay for it, and how much CPU it costs them.", "HiddenCost/Syscall Hook")
        .Column("Culprit Module", ColumnType.Text, description: "a third-party kernel module sampled in the kernel stack inside the syscall; empty when none was")
        .Column("Vendor", ColumnType.Text, description: "from the security-driver catalogue; empty when the module is not in it")
        .Column("Product", ColumnType.Text, description: "from the security-driver catalogue; empty when unknown")
        .Column("Category", ColumnType.Text, description: "from the security-driver catalogue (EDR, anti-virus …), else \"" + UnknownModuleCategory + "\"")
        .Column("Process", ColumnType.Text, role: ColumnRole.ProcessName, description: "the process making the syscalls; \"Unknown\" when the thread is not known")
        .Column("PID", ColumnType.Integer, role: ColumnRole.ProcessId)
        .Column("Syscall", ColumnType.Text, description: "the system service routine as module+0xRVA (HiddenCost reads no symbol files)")
        .Column("Syscalls", ColumnType.Integer, ColumnUnit.Count, description: "SysClEnter events, including syscalls that had not returned when the trace ended")
        .Column("Syscalls per Second", ColumnType.Decimal, ColumnUnit.PerSecond, description: "Syscalls ÷ (Last − First); empty for a single call")
        .Column("Total Syscall Time (ms)", ColumnType.Decimal, ColumnUnit.Milliseconds, description: "enter → exit on the same thread, over syscalls that returned")
        .Column("Mean Syscall Time (µs)", ColumnType.Decimal, ColumnUnit.Microseconds, description: "Total Syscall Time ÷ syscalls that returned", summary: ColumnSummary.Max)
        .Column("Samples in Syscalls", ColumnType.Integer, ColumnUnit.Count, description: "CPU samples of the process's threads taken inside this syscall")
        .Column("Hook CPU (ms)", ColumnType.Decimal, ColumnUnit.Milliseconds, ColumnRole.GraphValue,
            "samples inside this syscall with the culprit module anywhere in the kernel stack × sample interval")
        .Column("Hook Overhead per Syscall (µs)", ColumnType.Decimal, ColumnUnit.Microseconds, description: "Hook CPU ÷ the Syscalls made while CPU samples were taken (not during profiling gaps)", summary: ColumnSummary.Max)
        .Column("Inflation (×)", ColumnType.Decimal, ColumnUnit.Ratio,
            description: "samples in the syscall ÷ (those samples − samples in the hook): the syscall's CPU with the hook relative to without it")
        .Column("First", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "first enter of this syscall by this process")
        .Column("Last", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "last enter or exit of this syscall by this process")
        .Build(new TableView(new[] { "Culprit Module", "Process", "Syscall" }, "Hook CPU (ms)", new[] { "Hook CPU (ms)", "Syscalls" }));

    public static readonly TableSpec Gaps = new TableSpecBuilder(TableIds.ProfilingGaps, "Profiling Gaps",
            "Spans where CPU sampling stopped or paused (more than 10× the sample interval) while other kernel events went on: " +
            "the \"profiling vanished\" symptom of another tool taking over the kernel logger.", "HiddenCost/Syscall Hook")
        .Column("Start", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "the last CPU sample before the gap")
        .Column("End", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "the first CPU sample after the gap, or the last event when sampling never resumed")
        .Column("Duration (ms)", ColumnType.Decimal, ColumnUnit.Milliseconds, ColumnRole.GraphValue)
        .Column("Events During Gap", ColumnType.Integer, ColumnUnit.Count, description: "every kernel event logged inside the gap, stacks and rundowns included (only other activity makes a gap)")
        .Column("Likely Cause", ColumnType.Text)
        .Build(new TableView(new[] { "Likely Cause" }, "Duration (ms)", new[] { "Duration (ms)" }));
}
