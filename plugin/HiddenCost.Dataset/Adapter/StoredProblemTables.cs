using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.DirectoryNotify;
using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Tables.TraceReadiness;
using HiddenCost.Dataset.Query;
using HiddenCost.Dataset.Schema;
using HiddenCost.Dataset.Storage;

namespace HiddenCost.Dataset.Adapter;

/// <summary>
/// The tables Findings reads (Trace Readiness and the problem tables), rebuilt for one trace from the dataset's rows
/// of it, as the analysis built them: every member of these rows is a column (the row records say so), stored
/// losslessly (INT64, DOUBLE, UTF-8, BOOLEAN), so <c>ProblemFigures.From</c> and <c>FindingsEvaluator.Assess</c> read
/// the same figures from them as from the trace. This is how `compare` judges a dataset side: the Findings table's
/// own rows are not enough (below-threshold findings, which show a fixed problem's figures after the fix, are not rows,
/// and Evidence holds the figures only as rounded text).
/// </summary>
public static class StoredProblemTables
{
    /// <exception cref="DatasetException">A stored row lacks a figure its table always has (a file of another HiddenCost version).</exception>
    /// <exception cref="DuckDB.NET.Data.DuckDBException">The files cannot be read.</exception>
    public static IReadOnlyList<Table> Read(DatasetQuery query, string traceId) =>
    [
        Read(query, traceId, TraceReadinessAnalysis.Definition, c => new TraceReadinessRow(
            Table: c.Text("Table"), Ready: c.Bool("Ready"), Present: c.Text("Present"), Missing: c.Text("Missing"),
            CpuSamples: c.Long("CPU Samples"), Stacks: c.Long("Stacks"), EventsLost: c.Long("Events Lost"), BuffersLost: c.Long("Buffers Lost"),
            Profile: c.Text("Profile"), RecordWith: c.Text("Record With"))),
        Read(query, traceId, SyscallHookTables.Overhead, c => new SyscallHookOverheadRow(
            CulpritModule: c.TextOrNull("Culprit Module"), Vendor: c.TextOrNull("Vendor"), Product: c.TextOrNull("Product"),
            Category: c.TextOrNull("Category"), Process: c.Text("Process"), Pid: c.LongOrNull("PID"), Syscall: c.Text("Syscall"),
            Syscalls: c.Long("Syscalls"), SyscallsPerSecond: c.DoubleOrNull("Syscalls per Second"),
            TotalSyscallTimeMs: c.DoubleOrNull("Total Syscall Time (ms)"), MeanSyscallTimeUs: c.DoubleOrNull("Mean Syscall Time (µs)"),
            SamplesInSyscalls: c.Long("Samples in Syscalls"), HookCpuMs: c.DoubleOrNull("Hook CPU (ms)"),
            HookOverheadPerSyscallUs: c.DoubleOrNull("Hook Overhead per Syscall (µs)"), Inflation: c.DoubleOrNull("Inflation (×)"),
            First: c.Long("First"), Last: c.Long("Last"), TopStack: c.TextOrNull("Top Stack"))),
        Read(query, traceId, SpinWaitTables.PerLock, c => new SpinWaitLockRow(
            Process: c.Text("Process"), Pid: c.LongOrNull("PID"), LockId: c.LongOrNull("Lock ID"), Object: c.LongOrNull("Object"),
            CallSite: c.TextOrNull("Call Site"), Contentions: c.Long("Contentions"), Threads: c.Long("Threads"), WaitMs: c.Double("Wait (ms)"),
            WastedSpinCpuMs: c.Double("Wasted Spin CPU (ms)"), SuccessfulSpinCpuMs: c.Double("Successful Spin CPU (ms)"),
            SpinCpuMs: c.Double("Spin CPU (ms)"), SpinSharePercent: c.DoubleOrNull("Spin Share (%)"), LongestSpinMs: c.Double("Longest Spin (ms)"),
            First: c.Long("First"), Last: c.Long("Last"))),
        Read(query, traceId, SpinWaitTables.ByProcess, c => new SpinWaitProcessRow(
            Process: c.Text("Process"), Pid: c.LongOrNull("PID"), Threads: c.Long("Threads"), LockSpinCpuMs: c.Double("Lock Spin CPU (ms)"),
            Yields: c.Long("Yields"), YieldsPerSecond: c.DoubleOrNull("Yields per Second"), DelaySwitches: c.Long("Delay Switches"),
            OpenMPRuntimeCpuMs: c.Double("OpenMP Runtime CPU (ms)"), Hint: c.TextOrNull("Hint"))),
        Read(query, traceId, DirectoryNotifyTables.Buffers, c => new NotifyBufferRow(
            Process: c.Text("Process"), Pid: c.LongOrNull("PID"), Directory: c.Text("Directory"), BufferBytes: c.Long("Buffer (bytes)"),
            Arms: c.Long("Arms"), Completions: c.Long("Completions"), Overflows: c.Long("Overflows"), BytesReturned: c.Long("Bytes Returned"),
            MeanBytesPerCompletion: c.DoubleOrNull("Mean Bytes per Completion"), UtilisationPercent: c.DoubleOrNull("Utilisation (%)"),
            BytesZeroed: c.Long("Bytes Zeroed"), VictimProcesses: c.Text("Victim Processes"),
            RecommendedBufferBytes: c.LongOrNull("Recommended Buffer (bytes)"), FirstArm: c.Long("First Arm"),
            LastCompletion: c.LongOrNull("Last Completion"), WatchEnd: c.Long("Watch End"))),
        Read(query, traceId, EventLogTables.RenderCost, c => new RenderCostRow(
            Process: c.Text("Process"), Pid: c.LongOrNull("PID"), OnBehalfOf: c.TextOrNull("On Behalf Of"), OnBehalfOfPid: c.LongOrNull("On Behalf Of PID"),
            Log: c.Text("Log"), Renders: c.Long("Renders"), Queries: c.Long("Queries"), ServiceCpuMs: c.DoubleOrNull("Service CPU (ms)"),
            CpuPerMessageMs: c.DoubleOrNull("CPU per Message (ms)"), RegistryOps: c.LongOrNull("Registry Ops"),
            RegistryOpsPerMessage: c.DoubleOrNull("Registry Ops per Message"), EvtxReadMb: c.DoubleOrNull("Evtx Read (MB)"),
            MessagesPerSecond: c.DoubleOrNull("Messages per Second"), WmiQuery: c.TextOrNull("WMI Query"), First: c.Long("First"), Last: c.Long("Last"))),
    ];

    /// <summary>
    /// The trace's rows of one table, in the order the files hold them (the order the analysis sorted them, as DuckDB
    /// keeps a scan's order without ORDER BY).
    /// </summary>
    private static Table<TRow> Read<TRow>(DatasetQuery query, string traceId, TableDefinition<TRow> definition, Func<StoredCells, TRow> row)
    {
        var table = DatasetSchema.ForModel(definition.Spec.Id);
        var columns = table.Columns.Where(c => c.SourceName is not null).ToArray();
        var result = query.Run($"SELECT {string.Join(", ", columns.Select(c => PartWriter.Quote(c.Name)))} FROM {PartWriter.Quote(table.Name)} WHERE trace_id = $trace_id",
            new Dictionary<string, object> { ["trace_id"] = traceId });
        var index = columns.Select((c, i) => (c.SourceName!, i)).ToDictionary(p => p.Item1, p => p.i, StringComparer.Ordinal);
        return definition.Table(result.Rows.Select(cells => row(new StoredCells(table.Name, index, cells))));
    }

    /// <summary>One stored row's cells by the model's column names. A null where the model's row has no null is refused.</summary>
    private readonly struct StoredCells(string table, IReadOnlyDictionary<string, int> index, object?[] cells)
    {
        private object? Cell(string column) => cells[index[column]];

        private T Required<T>(string column) where T : notnull =>
            Cell(column) is T value ? value
                : throw new DatasetException($"{table}: a row has no {column}, which every row of this table has (written by another HiddenCost version?): extract the trace again");

        public string Text(string column) => Cell(column) as string ?? ""; // an empty text and no text say the same
        public string? TextOrNull(string column) => Cell(column) as string;
        public long Long(string column) => Required<long>(column);
        public long? LongOrNull(string column) => Cell(column) as long?;
        public double Double(string column) => Required<double>(column);
        public double? DoubleOrNull(string column) => Cell(column) as double?;
        public bool Bool(string column) => Required<bool>(column);
    }
}
