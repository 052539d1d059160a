using System.Runtime.InteropServices;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Kernel;

namespace HiddenCost.Analysis.Tables.CpuByFunction;

/// <summary>
/// CPU by Function: every CPU sample counted against the function of its instruction pointer (the leaf frame), per
/// process. Samples are tallied during the pass by (process instance, instruction pointer); an address is named at the
/// time of its first sample, as the other tables resolve frames, once nothing can change that name: when its process
/// ends (its images and methods end with it), else after the pass, because the CLR rundown that names methods running
/// before the trace began (MethodDCEnd) and the processes of a memory-mode trace come at its end. A named address's
/// tally is added to its row (process name and PID, module, function) and let go, so memory holds the addresses of
/// the processes alive, not of every process the trace has seen.
/// </summary>
public sealed class CpuByFunctionAnalysis : ITraceAnalysis
{
    private readonly TraceSession _session;
    private readonly SampleIntervals _intervals = new();
    // Each process instance's tallies by address. Consecutive samples of one process reuse its map: a map keyed by
    // (process, address) hashed the process's fields for every sample (5% of an all-tables pass).
    private readonly Dictionary<ProcessRef, Dictionary<ulong, AddressTally>> _addressesOf = new();
    private readonly Dictionary<RowKey, RowSum> _rows = new();
    private ProcessRef? _lastProcess;
    private Dictionary<ulong, AddressTally>? _lastAddresses;
    private bool _sampled;

    public CpuByFunctionAnalysis(TraceSession session) => _session = session;

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { CpuByFunctionTables.Definition.Spec };

    public void OnEvent(in EtwEvent e)
    {
        if (!e.IsKernel) return;
        if (e.Group == KernelGroups.Process)
        {
            // The session has seen the End already: the instance's images and methods have ended, so its names are final.
            if (e.Opcode == ProcessEvent.End && ProcessEvent.TryDecode(e, out var ended, _session.Strings)) NameEnded(_session.Process(ended.ProcessId, e.TimeNs));
            return;
        }
        if (e.Group != KernelGroups.PerfInfo) return;
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
            if (!_addressesOf.TryGetValue(process, out _lastAddresses)) _addressesOf[process] = _lastAddresses = new Dictionary<ulong, AddressTally>();
            _lastProcess = process;
        }
        ref var tally = ref CollectionsMarshal.GetValueRefOrAddDefault(_lastAddresses!, address, out bool seen);
        if (!seen)
        {
            tally.FirstNs = timeNs;
            _sampled = true;
        }
        return ref tally;
    }

    /// <summary>
    /// A process instance that ended: its addresses are named now (the names they would get after the pass) and added to
    /// their rows. A stand-in is never the instance an End names: it waits for the pass's end, like the living ones.
    /// </summary>
    private void NameEnded(ProcessRef process)
    {
        if (process.StandIn != 0 || !_addressesOf.Remove(process, out var addresses)) return;
        if (ReferenceEquals(process, _lastProcess)) (_lastProcess, _lastAddresses) = (null, null);
        AddToRows(process, addresses);
    }

    private void AddToRows(ProcessRef process, Dictionary<ulong, AddressTally> addresses)
    {
        var final = _session.Final(process);
        foreach (var (address, tally) in addresses)
        {
            var (module, function) = Name(final.Pid, address, tally.FirstNs);
            ref var sum = ref CollectionsMarshal.GetValueRefOrAddDefault(_rows, new RowKey(final.Name, final.PidCell, module, function), out _);
            sum.Samples += tally.Samples;
            sum.WeighedNs += tally.WeighedNs;
            sum.Unweighed += tally.Unweighed;
        }
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        foreach (var (process, addresses) in _addressesOf) AddToRows(process, addresses);
        _addressesOf.Clear();
        var rows = _rows.Select(r => (r.Key, r.Value.Samples, Ns: r.Value.WeighedNs + r.Value.Unweighed * _intervals.ForUnnamed)).ToArray();
        long totalNs = rows.Sum(r => r.Ns);
        // Rows differ in process name, PID, module or function, so this order is total: it does not depend on when
        // each row was first added to.
        var table = CpuByFunctionTables.Definition.Table(rows
            .OrderByDescending(r => r.Ns).ThenBy(r => r.Key.Process, StringComparer.Ordinal).ThenBy(r => r.Key.Pid)
            .ThenBy(r => r.Key.Module, StringComparer.Ordinal).ThenBy(r => r.Key.Function, StringComparer.Ordinal)
            .Select(r => new CpuByFunctionRow(
                Process: r.Key.Process,
                Pid: r.Key.Pid,
                Module: r.Key.Module,
                Function: r.Key.Function,
                Samples: r.Samples,
                CpuMs: r.Ns / 1e6,
                SharePercent: totalNs > 0 ? 100.0 * r.Ns / totalNs : 0)));
        foreach (var note in CpuByFunctionNotes.For(_sampled, _intervals, _session.Symbols)) table.AddNote(note);
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
        public long FirstNs, Samples, WeighedNs, Unweighed;
    }

    /// <summary>A row as the table shows it: instances of a process with one name and PID (a PID reused) share their rows.</summary>
    private readonly record struct RowKey(string Process, long? Pid, string Module, string Function);

    private struct RowSum
    {
        public long Samples, WeighedNs, Unweighed;
    }
}
