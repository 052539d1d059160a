using HiddenCost.Analysis.Catalogs;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Kernel;

namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// Syscall Hook Overhead and Profiling Gaps on the reader's ordered stream: decodes the kernel events the
/// <see cref="SyscallHookTracker"/> needs (SysClEnter/Exit, CSwitch, SampledProfile with its stack, profile
/// intervals, kernel images, thread ends), tells it about every other kernel event for gap detection, and
/// gives it the sample stacks once the trace has defined every stack key. Threads are placed in processes
/// and stacks matched by the pass's shared <see cref="TraceSession"/>.
/// </summary>
public sealed class SyscallHookAnalysis : ITraceAnalysis
{
    /// <summary>SysClEnter events whose stacks are looked for: enough to tell whether the trace walks syscall stacks at all.</summary>
    private const int SyscallStackProbes = 1024;

    private readonly TraceSession _session;
    private readonly SyscallHookTracker _tracker;
    private readonly List<(int Sample, int Ticket)> _sampleStacks = new();
    private readonly List<int> _syscallStackProbes = new();

    public SyscallHookAnalysis(TraceSession session)
    {
        _session = session;
        _tracker = new SyscallHookTracker(CatalogueLookup, (thread, t) => session.ProcessOfThread(thread, t),
            session.Symbols.Available ? session.Symbols.KernelSymbol : null, session.Running, TopStackText);
    }

    private StackText? _stackText;

    /// <summary>A stack for the Top Stack column, named in the process its thread belonged to when it was sampled.</summary>
    private string? TopStackText(int stack, int threadId, long t)
    {
        _stackText ??= new StackText(_session.State, _session.Symbols, _session.Stacks.Store);
        int pid = _session.ProcessOfThread(threadId, t) is { IsKnown: true } process ? process.Pid : 0;
        return _stackText.Of(stack, pid, t);
    }

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { SyscallHookTables.Overhead.Spec, SyscallHookTables.Gaps.Spec };

    public void OnEvent(in EtwEvent e)
    {
        if (!e.IsKernel) return;
        long t = e.TimeNs;
        if (e.Group == KernelGroups.StackWalk)
        {
            // A stack walk event belongs to another event: it shows no activity of its own.
            _tracker.OtherEvent(t, isActivity: false);
            return;
        }
        switch (e.Group)
        {
            case KernelGroups.PerfInfo:
                OnPerfInfo(e);
                break;
            case KernelGroups.Thread when ContextSwitch.TryDecode(e, out var cs):
                _tracker.ContextSwitch(t, e.Cpu, cs.OldThreadId, cs.NewThreadId);
                break;
            case KernelGroups.Thread when e.Opcode == ThreadEvent.End && ThreadEvent.TryDecode(e, out var ended):
                _tracker.ThreadEnded(t, ended.ThreadId);
                break;
            // Names through the session's pool: every rundown repeats each image's path, which would otherwise be a new
            // string each time (the largest allocation of an all-tables pass: about 30 MB of strings per 10 million events).
            case KernelGroups.Image when ImageEvent.TryDecode(e, out var image, _session.Strings):
                if (image.ProcessId == 0)
                {
                    if (image.Opcode == ImageEvent.Unload) _tracker.KernelImageUnloaded(t, image.ImageBase, image.ImageSize, image.FileName);
                    else _tracker.KernelImage(t, image.ImageBase, image.ImageSize, image.FileName);
                }
                if (image.ProcessId != 0 || image.Opcode != ImageEvent.Unload) _tracker.OtherEvent(t, isActivity: !IsRundown(e.Group, e.Opcode));
                break;
            default:
                _tracker.OtherEvent(t, isActivity: !IsRundown(e.Group, e.Opcode));
                break;
        }
    }

    private void OnPerfInfo(in EtwEvent e)
    {
        long t = e.TimeNs;
        switch (e.Opcode)
        {
            case SystemCallEnter.Opcode when SystemCallEnter.TryDecode(e, out var enter):
                _tracker.SyscallEnter(t, e.Cpu, enter.SysCallAddress);
                if (_syscallStackProbes.Count < SyscallStackProbes && e.ThreadId >= 0) _syscallStackProbes.Add(_session.Stacks.Expect(e));
                break;
            case SystemCallExit.Opcode when SystemCallExit.TryDecode(e, out _):
                _tracker.SyscallExit(t, e.Cpu);
                break;
            case SampledProfile.Opcode when SampledProfile.TryDecode(e, out var sample):
                int handle = _tracker.Sample(t, e.Cpu, sample.ThreadId, sample.ExecutingDpc || sample.ExecutingIsr, sample.IsUserMode(e.PointerSize));
                if (handle >= 0) _sampleStacks.Add((handle, _session.Stacks.Expect(e)));
                break;
            case ProfileInterval.SetInterval or ProfileInterval.CollectionStart or ProfileInterval.CollectionEnd
                when ProfileInterval.TryDecode(e, out var interval):
                if (interval.Source == 0) _tracker.SampleInterval(t, interval.IntervalNs, interval.PreviousIntervalNs);
                _tracker.OtherEvent(t, isActivity: !IsRundown(e.Group, e.Opcode));
                break;
            default:
                _tracker.OtherEvent(t);
                break;
        }
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        // The session has completed its stacks: every stack key the trace defines is resolved by now.
        var stacks = _session.Stacks;
        foreach (var (sample, ticket) in _sampleStacks)
        {
            var stack = stacks.StackOf(ticket);
            if (stack.IsNone) continue;
            _tracker.SampleStack(sample, stacks.Store.GetFrames(stack).Kernel, stacks.Store.Canonical(stack).Value);
        }
        var (overhead, gaps) = _tracker.Build();
        if (_syscallStackProbes.Count > 0 && _syscallStackProbes.All(ticket => stacks.StackOf(ticket).IsNone))
            overhead.AddNote(SyscallHookNotes.NoSyscallStacks(_syscallStackProbes.Count));
        if (_session.Symbols.MissingNote("Syscall names and Top Stack frames") is { } missing) overhead.AddNote(TableNote.Info("symbols.missing", missing));
        return new Table[] { overhead, gaps };
    }

    /// <summary>
    /// Events that describe what already exists (rundowns at the start or end of a trace) rather than activity:
    /// a kernel logger still logging them while samples are missing says nothing about profiling.
    /// </summary>
    private static bool IsRundown(byte group, byte opcode) => group switch
    {
        KernelGroups.EventTrace or KernelGroups.SystemConfig => true,
        KernelGroups.Process or KernelGroups.Thread or KernelGroups.Image => opcode is 3 or 4, // DCStart, DCEnd
        KernelGroups.PerfInfo => opcode is ProfileInterval.CollectionStart or ProfileInterval.CollectionEnd,
        KernelGroups.FileIo => opcode is 36,                                                  // FileRundown
        KernelGroups.Registry => opcode is 24 or 25,                                          // KCBRundownBegin/End
        _ => false,
    };

    private static CulpritIdentity? CatalogueLookup(string module) =>
        SecurityDriverCatalog.TryGet(module, out var entry) ? new CulpritIdentity(entry.Vendor, entry.Product, entry.Category) : null;
}
