using System.Runtime.InteropServices;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Kernel;

namespace HiddenCost.Analysis.Tables.CpuByFunction;

/// <summary>
/// CPU by Function: every CPU sample counted against the function of its instruction pointer (the leaf frame), per
/// process. Samples are tallied during the pass by (process, instruction pointer), so memory grows with the distinct
/// code addresses sampled, never with the samples; addresses are named only after the pass, because the CLR rundown
/// that names methods running before the trace began (MethodDCEnd) and the processes of a memory-mode trace come at
/// its end. Each address is resolved at the time of its first sample, as the other tables resolve frames.
/// </summary>
public sealed class CpuByFunctionAnalysis : ITraceAnalysis
{
    private readonly TraceSession _session;
    private readonly SampleIntervals _intervals = new();
    // One tally per (process, address), in the order first sampled (the order Complete names them in). Each process
    // finds its addresses' tallies in its own map, and consecutive samples of one process reuse it: a map keyed by
    // (process, address) hashed the process's fields for every sample (5% of an all-tables pass).
    private readonly List<AddressTally> _tallies = new();
    private readonly Dictionary<ProcessRef, Dictionary<ulong, int>> _addressesOf = new();
    private ProcessRef? _lastProcess;
    private Dictionary<ulong, int>? _lastAddresses;

    public CpuByFunctionAnalysis(TraceSession session) => _session = session;

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { CpuByFunctionTables.Definition.Spec };

    public void OnEvent(in EtwEvent e)
    {
        if (!e.IsKernel || e.Group != KernelGroups.PerfInfo) return;
        if (SampledProfile.TryDecode(e, out var s))
        {
            // Thread 0 is the idle thread: its samples are the Idle process, as in WPA.
            var process = s.ThreadId == 0 ? _session.Process(0, e.TimeNs) : _session.ProcessOfThread(s.ThreadId, e.TimeNs, e.ProcessId);
            ref var tally = ref Tally(process, s.InstructionPointer, e.TimeNs);
            tally.Samples++;
            // Samples before the trace names an interval weigh the first one it names (known only at the end).
            if (_intervals.Current is { } ns) tally.WeighedNs += ns;
            else tally.Unweighed++;
        }
        else if (ProfileInterval.Matches(e) && ProfileInterval.TryDecode(e, out var interval) && interval.Source == 0)
            _intervals.Set(e.TimeNs, interval.IntervalNs, interval.PreviousIntervalNs);
    }

    /// <summary>The tally of an address in a process (processes equal as <see cref="ProcessRef"/>s share theirs), made at its first sample.</summary>
    private ref AddressTally Tally(ProcessRef process, ulong address, long timeNs)
    {
        if (!ReferenceEquals(process, _lastProcess))
        {
            if (!_addressesOf.TryGetValue(process, out _lastAddresses)) _addressesOf[process] = _lastAddresses = new Dictionary<ulong, int>();
            _lastProcess = process;
        }
        ref int index = ref CollectionsMarshal.GetValueRefOrAddDefault(_lastAddresses!, address, out bool seen);
        if (!seen)
        {
            index = _tallies.Count;
            _tallies.Add(new AddressTally { Process = process, Address = address, FirstNs = timeNs });
        }
        return ref CollectionsMarshal.AsSpan(_tallies)[index];
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        var functions = new Dictionary<(ProcessRef Process, string Module, string Function), (long Samples, long Ns)>();
        long totalNs = 0;
        foreach (var tally in _tallies)
        {
            var process = _session.Final(tally.Process);
            var (module, function) = Name(process.Pid, tally.Address, tally.FirstNs);
            long ns = tally.WeighedNs + tally.Unweighed * _intervals.ForUnnamed;
            ref var sum = ref CollectionsMarshal.GetValueRefOrAddDefault(functions, (process, module, function), out _);
            sum = (sum.Samples + tally.Samples, sum.Ns + ns);
            totalNs += ns;
        }
        var table = CpuByFunctionTables.Definition.Table(functions
            .OrderByDescending(f => f.Value.Ns).ThenBy(f => f.Key.Process.Name, StringComparer.Ordinal).ThenBy(f => f.Key.Process.Pid)
            .ThenBy(f => f.Key.Module, StringComparer.Ordinal).ThenBy(f => f.Key.Function, StringComparer.Ordinal)
            .Select(f => new CpuByFunctionRow(
                Process: f.Key.Process.Name,
                Pid: f.Key.Process.PidCell,
                Module: f.Key.Module,
                Function: f.Key.Function,
                Samples: f.Value.Samples,
                CpuMs: f.Value.Ns / 1e6,
                SharePercent: totalNs > 0 ? 100.0 * f.Value.Ns / totalNs : 0)));
        foreach (var note in CpuByFunctionNotes.For(_tallies.Count > 0, _intervals, _session.Symbols)) table.AddNote(note);
        return new Table[] { table };
    }

    /// <summary>The module and function of a sampled address: the method for managed code, the PDB public, else module+0xRVA.</summary>
    private (string Module, string Function) Name(int pid, ulong address, long timeNs)
    {
        var frame = _session.State.ResolveFrame(pid, address, timeNs);
        if (frame.Method is { } method) return (frame.ModuleName, method.FullName);
        if (frame.Image is { } image && _session.Symbols.Name(image, address) is { } symbol)
        {
            int bang = symbol.IndexOf('!');
            return (frame.ModuleName, bang >= 0 ? symbol[(bang + 1)..] : symbol);
        }
        return (frame.ModuleName, frame.Name);
    }

    private struct AddressTally
    {
        /// <summary>The process as the first sample of the address named it.</summary>
        public ProcessRef Process;
        public ulong Address;
        public long FirstNs, Samples, WeighedNs, Unweighed;
    }
}
