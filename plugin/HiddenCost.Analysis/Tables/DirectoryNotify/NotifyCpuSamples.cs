using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Stacks;
using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// Notify CPU from kernel CPU samples: with a symbol path, every kernel-mode sample taken while some watch is active
/// is kept (its stack ticket, process, watch period and weight); once the stacks are complete, a sample whose kernel
/// stack holds an <c>FsRtlNotify*</c> frame (FsRtlNotifyFilterReportChange, FsRtlNotifyFullReportChange, …: the
/// kernel filling, allocating and zeroing the watchers' notify buffers, memset/RtlZeroMemory/ExAllocatePool2 under
/// them) is the victim's notify-buffer work. Without a symbol path, or when the kernel's PDB does not load, nothing
/// is kept or said: the column stays empty, as it always was.
/// </summary>
internal sealed class NotifyCpuSamples(TraceSession session, DirectoryNotifyTracker tracker)
{
    private const string NotifyFunctionPrefix = "FsRtlNotify";

    private readonly SampleIntervals _intervals = new();
    private readonly List<(int Ticket, ProcessRef Process, long Period, long WeightNs)> _samples = new();
    private readonly Dictionary<int, bool> _inNotifyPath = new();

    public void OnPerfInfo(in EtwEvent e)
    {
        if (!session.Symbols.Available) return;
        if (SampledProfile.TryDecode(e, out var s))
        {
            if (s.ThreadId <= 0 || s.IsUserMode(e.PointerSize) || tracker.WatchPeriod is not { } period) return;
            _samples.Add((session.Stacks.Expect(e), session.ProcessOfThread(s.ThreadId, e.TimeNs, e.ProcessId), period, _intervals.Current ?? 0));
        }
        else if (ProfileInterval.TryDecode(e, out var interval) && interval.Source == 0 && interval.NewInterval > 0)
            _intervals.Set(e.TimeNs, interval.IntervalNs, interval.PreviousIntervalNs);
    }

    /// <summary>Gives the tracker the notify-path CPU (call before it builds its tables); false when it cannot be known.</summary>
    public bool Complete()
    {
        if (!KernelNamesResolve()) return false;
        tracker.NotifyCpu(null, 0, 0); // the column is known, even with no sample in the path
        var stacks = session.Stacks;
        foreach (var (ticket, process, period, weight) in _samples)
        {
            var stack = stacks.Store.Canonical(stacks.StackOf(ticket));
            if (stack.IsNone || !InNotifyPath(stack)) continue;
            tracker.NotifyCpu(process, period, weight > 0 ? weight : _intervals.ForUnnamed);
        }
        return true;
    }

    /// <summary>True when the kernel's PDB loads: only then can a sample be told to be in the notify path or not.</summary>
    private bool KernelNamesResolve()
    {
        if (!session.Symbols.Available) return false;
        session.Symbols.KernelSymbol("ntoskrnl.exe", 0); // asks for the kernel's PDB once
        return session.Symbols.Statuses.Any(s => s.State == PdbState.Loaded && string.Equals(s.ImageFileName, "ntoskrnl.exe", StringComparison.OrdinalIgnoreCase));
    }

    private bool InNotifyPath(StackId stack)
    {
        if (_inNotifyPath.TryGetValue(stack.Value, out bool known)) return known;
        bool found = false;
        foreach (ulong address in session.Stacks.Store.GetFrames(stack).Kernel)
        {
            if (session.State.FindImage(0, address, 0) is not { } image || session.Symbols.Name(image, address) is not { } name) continue;
            if (name.AsSpan(name.IndexOf('!') + 1).StartsWith(NotifyFunctionPrefix, StringComparison.Ordinal))
            {
                found = true;
                break;
            }
        }
        return _inNotifyPath[stack.Value] = found;
    }
}
