using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tables.EventCounts;
using HiddenCost.Analysis.Tables.TraceReadiness;
using System.Globalization;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Etl;
using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Events of a kind the tables read whose payload their decoder cannot decode (here: system-call events with their
/// payload cut off, in a synthetic syscall storm) are counted and said where they matter: on the tables that read
/// them, in Trace Readiness, in Trace Info, and in the result's warning.
/// </summary>
[TestClass]
public sealed class UndecodableEventsTests
{
    private const string SyscallTable = "Syscall Hook Overhead";

    /// <summary>The syscall storm with the payload of every PerfInfo event of <paramref name="opcodes"/> removed.</summary>
    private static (AnalysisResult Result, long Emptied) StormWithout(params byte[] opcodes)
    {
        var (result, each) = StormWithoutEach(opcodes);
        return (result, each.Values.Sum());
    }

    /// <summary>As <see cref="StormWithout"/>, with how many events of each opcode were emptied.</summary>
    private static (AnalysisResult Result, Dictionary<byte, long> Emptied) StormWithoutEach(params byte[] opcodes) =>
        Emptied(SyscallHookStorm.Generate().Trace, KernelGroups.PerfInfo, opcodes);

    /// <summary>The trace with the payload of every kernel event of <paramref name="group"/> and <paramref name="opcodes"/> removed.</summary>
    private static (AnalysisResult Result, Dictionary<byte, long> Emptied) Emptied(BuiltTrace trace, byte group, params byte[] opcodes)
    {
        var records = EmptiedRecords(trace, group, opcodes, out var emptied);
        return (SyntheticTraces.Analyze(trace.Settings, records, "undecodable"), emptied);
    }

    /// <summary>The trace's records, the payload of every kernel event of <paramref name="group"/> and <paramref name="opcodes"/> removed.</summary>
    private static List<TraceRecord> EmptiedRecords(BuiltTrace trace, byte group, byte[] opcodes, out Dictionary<byte, long> emptied)
    {
        var counts = new Dictionary<byte, long>();
        var records = trace.Records.Select(r =>
        {
            if (r is not KernelRecord k || k.Group != group || !opcodes.Contains(k.Type)) return r;
            counts[k.Type] = counts.GetValueOrDefault(k.Type) + 1;
            return new KernelRecord
            {
                Cpu = k.Cpu, Timestamp = k.Timestamp, PointerSize = k.PointerSize, HeaderKind = k.HeaderKind,
                Group = k.Group, Type = k.Type, Version = k.Version, Payload = [],
            };
        }).ToList();
        emptied = counts;
        return records;
    }

    private static string N(long n) => n.ToString("N0", CultureInfo.InvariantCulture);

    [TestMethod]
    public void The_intact_storm_has_no_undecodable_events_synthetic()
    {
        var result = SyntheticTraces.Analyze(SyscallHookStorm.Generate().Trace, "syscall");
        Assert.IsNull(result.Warning, result.Warning);
        Assert.IsFalse(result.Tables.Any(t => t.Notes.Texts().Any(n => n.Contains("could not be decoded"))));
    }

    [TestMethod]
    public void System_call_entries_without_payload_are_counted_on_the_tables_that_read_them_synthetic()
    {
        var (result, emptied) = StormWithout(51);
        Assert.IsTrue(emptied > 1_000, $"{emptied} SysClEnter emptied");
        StringAssert.Contains(result.Warning, $"{N(emptied)} events could not be decoded (payload shorter than their layout)");
        StringAssert.Contains(result.Warning, $"PerfInfo SysClEnter {N(emptied)} (first in the buffer at offset 0x");
        Assert.IsTrue(result.Tables.All(t => t.Notes.Texts().Contains(result.Warning)), "the warning is on every table");
        CollectionAssert.Contains(result[SyscallTable].Notes.Texts().ToList(),
            $"Events of the kinds this table needs could not be decoded and are left out: SysClEnter/SysClExit {N(emptied)}. Its figures may " +
            "be low, and where it says the trace lacks these events, they were recorded but damaged.");
        Assert.IsFalse(result.Table(EventLogTables.RenderCost).Notes.Texts().Any(n => n.StartsWith("Events of the kinds", StringComparison.Ordinal)),
            "the Event Log table reads no system calls");

        var readiness = result.Table(TraceReadinessAnalysis.Definition);
        int row = readiness.Rows.ToList().FindIndex(r => r.Table == SyscallTable);
        long total = result.Table(EventCountsAnalysis.Definition).Rows
            .Where(r => r.Provider == "PerfInfo" && r.Event is "SysClEnter" or "SysClExit")
            .Sum(r => r.Count);
        StringAssert.Contains(readiness.Rows[row].Present, $"SysClEnter/SysClExit {N(total)} ({N(emptied)} undecodable)");
        StringAssert.Contains(readiness.Rows[row].Missing, $"SysClEnter: all {N(emptied)} undecodable (payload shorter than their layout)");
        Assert.AreEqual(false, readiness.Rows[row].Ready, "exits without entries time no system call");
    }

    [TestMethod]
    public void A_damaged_trace_with_undecodable_events_names_its_file_once_in_the_warning_synthetic()
    {
        var trace = SyscallHookStorm.Generate().Trace;
        var records = EmptiedRecords(trace, KernelGroups.PerfInfo, [51], out _);
        var result = SyntheticTraces.AnalyzeCut(trace.Settings, records, 100, "cut-undecodable"); // the last buffer cut short
        var path = result.TracePath;
        StringAssert.StartsWith(result.Warning, $"{path} is damaged (");
        StringAssert.Contains(result.Warning, "(Trace Info lists every warning). Of what could be read, ");
        StringAssert.Contains(result.Warning, " events could not be decoded (payload shorter than their layout)");
        Assert.AreEqual(1, result.Warning!.Split(path).Length - 1, result.Warning);
    }

    [TestMethod]
    public void A_table_whose_required_events_all_fail_to_decode_is_not_ready_synthetic()
    {
        var (result, emptied) = StormWithoutEach(51, 52);
        var readiness = result.Table(TraceReadinessAnalysis.Definition);
        int row = readiness.Rows.ToList().FindIndex(r => r.Table == SyscallTable);
        Assert.AreEqual(false, readiness.Rows[row].Ready);
        StringAssert.Contains(readiness.Rows[row].Missing, $"SysClEnter: all {N(emptied[51])} undecodable");
        StringAssert.Contains(readiness.Rows[row].Missing, $"SysClExit: all {N(emptied[52])} undecodable");
        Assert.IsFalse((readiness.Rows[row].Present)!.Contains("SysClEnter/SysClExit", StringComparison.Ordinal));
        StringAssert.Contains(result.Warning, "PerfInfo SysClEnter");
        StringAssert.Contains(result.Warning, "PerfInfo SysClExit");
    }

    [TestMethod]
    public void Undecodable_samples_are_not_counted_as_cpu_samples_and_leave_their_tables_not_ready_synthetic()
    {
        var intact = SyntheticTraces.Analyze(SyscallHookStorm.Generate().Trace, "syscall").Table(TraceReadinessAnalysis.Definition);
        var (result, emptied) = StormWithout(46);
        var readiness = result.Table(TraceReadinessAnalysis.Definition);
        int row = readiness.Rows.ToList().FindIndex(r => r.Table == SyscallTable);
        Assert.AreEqual(Convert.ToInt64(intact.Rows[row].CpuSamples) - emptied, readiness.Rows[row].CpuSamples);
        Assert.AreEqual(0L, readiness.Rows[row].CpuSamples, "every sample was emptied");
        StringAssert.Contains(readiness.Rows[row].Missing, $"SampledProfile: all {N(emptied)} undecodable");
        Assert.AreEqual(false, readiness.Rows[row].Ready);
        Assert.AreEqual(true, intact.Rows[row].Ready);
    }

    [TestMethod]
    public void A_directory_watch_table_names_the_handle_closes_it_could_not_read_synthetic()
    {
        // Cleanup and Close end a watch; the requirement catalogue lists them for the Directory Notify tables.
        var (result, emptied) = Emptied(NotifyBufferStorm.Generate().Trace, KernelGroups.FileIo, 65, 66);
        Assert.IsTrue(emptied[65] > 0 && emptied[66] > 0);
        foreach (var table in new[] { "Directory Notify Buffers", "Directory Notify Victims" })
            StringAssert.StartsWith(result[table].Notes.Texts().Single(n => n.StartsWith("Events of the kinds", StringComparison.Ordinal)),
                $"Events of the kinds this table needs could not be decoded and are left out: FileIo Cleanup/Close {N(emptied[65] + emptied[66])}.", table);
        StringAssert.Contains(result.Warning, $"FileIo Cleanup {N(emptied[65])}");
        StringAssert.Contains(result.Warning, $"FileIo Close {N(emptied[66])}");
    }

    [TestMethod]
    public void Contention_starts_cut_short_are_named_by_their_manifest_names_synthetic()
    {
        // A v2 ContentionStart cut to its first field would read as lock 0 and merge every lock into one row.
        var trace = SpinContention.Generate().Trace;
        long cut = 0;
        var records = trace.Records.Select(r =>
        {
            if (r is not ManifestRecord { Descriptor.Id: 81 } m) return r;
            cut++;
            return new ManifestRecord
            {
                Cpu = m.Cpu, Timestamp = m.Timestamp, PointerSize = m.PointerSize, ProviderId = m.ProviderId, Descriptor = m.Descriptor,
                ThreadId = m.ThreadId, ProcessId = m.ProcessId, Flags = m.Flags, EventProperty = m.EventProperty,
                ProcessorTime = m.ProcessorTime, ActivityId = m.ActivityId, ExtendedData = m.ExtendedData, Payload = m.Payload[..3],
            };
        }).ToList();
        var result = SyntheticTraces.Analyze(trace.Settings, records, "undecodable");
        Assert.IsTrue(cut > 10, $"{cut} ContentionStart cut");
        StringAssert.Contains(result.Warning, $"Microsoft-Windows-DotNETRuntime Contention/Start {N(cut)} (first in the buffer at offset 0x");
        var readiness = result.Table(TraceReadinessAnalysis.Definition);
        int row = readiness.Rows.ToList().FindIndex(r => r.Table == "Spin-Wait Cost per Lock");
        StringAssert.Contains(readiness.Rows[row].Missing, $"Contention/Start: all {N(cut)} undecodable");
        CollectionAssert.Contains(result.Table(SpinWaitTables.PerLock).Notes.Texts().ToList(),
            $"Events of the kinds this table needs could not be decoded and are left out: CLR ContentionStart/Stop {N(cut)}. Its figures may " +
            "be low, and where it says the trace lacks these events, they were recorded but damaged.");
    }
}
