using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>The two Directory Notify tables' specs (column names are a public contract, from issue 8).</summary>
public static class DirectoryNotifyTables
{
    public static readonly TableDefinition<NotifyBufferRow> Buffers = new TableDefinitionBuilder<NotifyBufferRow>(TableIds.DirectoryNotifyBuffers, "Directory Notify Buffers",
            "Who watches which directory (ReadDirectoryChangesW / FileSystemWatcher) with what buffer, and what the kernel's " +
            "allocation and zeroing of that buffer for every change batch costs.", "HiddenCost/Directory Notify")
        .Column("Process", ColumnType.Text, r => r.Process, role: ColumnRole.ProcessName, description: "the watching process")
        .Column("PID", ColumnType.Integer, r => r.Pid, role: ColumnRole.ProcessId)
        .Column("Directory", ColumnType.Text, r => r.Directory, description: "the watched directory (NT path), or its file key when no name event named it")
        .Column("Buffer (bytes)", ColumnType.Integer, r => r.BufferBytes, ColumnUnit.Bytes, description: "the notification buffer length the watcher passes", summary: ColumnSummary.Max)
        .Column("Arms", ColumnType.Integer, r => r.Arms, ColumnUnit.Count, description: "DirNotify requests issued")
        .Column("Completions", ColumnType.Integer, r => r.Completions, ColumnUnit.Count, ColumnRole.GraphValue, "requests completed with changes or overflow: each one allocates and zeroes the buffer")
        .Column("Overflows", ColumnType.Integer, r => r.Overflows, ColumnUnit.Count, description: "completions with STATUS_NOTIFY_ENUM_DIR (changes did not fit; no data returned)")
        .Column("Bytes Returned", ColumnType.Integer, r => r.BytesReturned, ColumnUnit.Bytes)
        .Column("Mean Bytes per Completion", ColumnType.Decimal, r => r.MeanBytesPerCompletion, ColumnUnit.Bytes, description: "over completions that returned data", summary: ColumnSummary.Max)
        .Column("Utilisation (%)", ColumnType.Decimal, r => r.UtilisationPercent, ColumnUnit.Percent, description: "mean bytes per completion ÷ buffer size")
        .Column("Bytes Zeroed", ColumnType.Integer, r => r.BytesZeroed, ColumnUnit.Bytes, description: "completions × buffer size: the buffers the kernel allocated in the changers' context, each zeroed where the pool allocation zeroes it (an upper bound when the pending request brought its own buffer)")
        .Column("Victim Processes", ColumnType.Text, r => r.VictimProcesses, description: "other processes that changed files in the directory while it was watched")
        .Column("Recommended Buffer (bytes)", ColumnType.Integer, r => r.RecommendedBufferBytes, ColumnUnit.Bytes, description: "empty when the buffer is already right-sized", summary: ColumnSummary.Max)
        .Column("First Arm", ColumnType.Timestamp, r => r.FirstArm, ColumnUnit.Nanoseconds, ColumnRole.StartTime)
        .Column("Last Completion", ColumnType.Timestamp, r => r.LastCompletion, ColumnUnit.Nanoseconds, description: "empty when no request completed", summary: ColumnSummary.Max)
        // Added after issue 8's columns: the row's end on the timeline must always be there, and a watcher that never
        // completed a request (an idle directory) has no Last Completion.
        .Column("Watch End", ColumnType.Timestamp, r => r.WatchEnd, ColumnUnit.Nanoseconds, ColumnRole.EndTime,
            "when the last of these watches ended: its handle's cleanup, a cancel or error, a re-arm with another buffer size, or the trace end while still watching")
        .Build(new TableView(new[] { "Process", "Directory" }, "Completions", new[] { "Bytes Zeroed" }));

    public static readonly TableDefinition<NotifyVictimRow> Victims = new TableDefinitionBuilder<NotifyVictimRow>(TableIds.DirectoryNotifyVictims, "Directory Notify Victims",
            "Processes that changed files in watched directories and so paid for the watchers' buffer zeroing.", "HiddenCost/Directory Notify")
        .Column("Process", ColumnType.Text, r => r.Process, role: ColumnRole.ProcessName)
        .Column("PID", ColumnType.Integer, r => r.Pid, role: ColumnRole.ProcessId)
        .Column("Directory", ColumnType.Text, r => r.Directory)
        .Column("File Operations", ColumnType.Integer, r => r.FileOperations, ColumnUnit.Count, ColumnRole.GraphValue, "creates + deletes + renames + writes in the directory while watched")
        .Column("Creates", ColumnType.Integer, r => r.Creates, ColumnUnit.Count)
        .Column("Deletes", ColumnType.Integer, r => r.Deletes, ColumnUnit.Count)
        .Column("Renames", ColumnType.Integer, r => r.Renames, ColumnUnit.Count)
        .Column("Demand-Zero Faults", ColumnType.Integer, r => r.DemandZeroFaults, ColumnUnit.Count, description: "the process's demand-zero page faults while the directory was watched")
        .Column("Watchers", ColumnType.Integer, r => r.Watchers, ColumnUnit.Count, description: "watchers (process, buffer) on the directory", summary: ColumnSummary.Max)
        .Column("Notify CPU (ms)", ColumnType.Decimal, r => r.NotifyCpuMs, ColumnUnit.Milliseconds, description: "the victim's kernel CPU samples with an FsRtlNotify* frame (the notify buffer filled, allocated, zeroed) while another process watched × sample interval: needs the kernel's PDB on the symbol path (hiddencost --symbols, _NT_SYMBOL_PATH), else empty")
        .Build(new TableView(new[] { "Directory", "Process" }, "File Operations", new[] { "File Operations" }));
}
