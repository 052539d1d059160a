using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// Who runs where, learned from the ordered stream: the thread on each processor (CSwitch NewThreadId) and
/// each thread's process (Thread start/rundown events). PerfInfo records carry neither, so the reader fills
/// them in from here, as WPA does.
/// </summary>
internal sealed class ThreadContext
{
    private const int MaxProcessors = 2048;
    private readonly int[] _running = new int[MaxProcessors];
    private readonly Dictionary<int, int> _processOfThread = new();
    // The running thread's process per processor, as of _learned (what the thread table had learned): every CPU
    // sample asks for it, context switches are fewer, and new threads fewer still.
    private readonly int[] _runningProcess = new int[MaxProcessors];
    private readonly long[] _runningProcessAsOf = new long[MaxProcessors];
    private long _learned;

    public ThreadContext()
    {
        Array.Fill(_running, -1);
        Array.Fill(_runningProcessAsOf, -1);
    }

    public int RunningThread(int cpu) => (uint)cpu < MaxProcessors ? _running[cpu] : -1;

    /// <summary>The process of <see cref="RunningThread"/> (-1 when either is unknown).</summary>
    public int RunningProcess(int cpu)
    {
        if ((uint)cpu >= MaxProcessors) return -1;
        if (_runningProcessAsOf[cpu] != _learned)
        {
            int thread = _running[cpu];
            _runningProcess[cpu] = thread >= 0 ? ProcessOf(thread) : -1;
            _runningProcessAsOf[cpu] = _learned;
        }
        return _runningProcess[cpu];
    }

    public int ProcessOf(int threadId) =>
        threadId == 0 ? 0 : threadId > 0 && _processOfThread.TryGetValue(threadId, out var pid) ? pid : -1;

    /// <summary>
    /// Learns from a Thread-group event after it has been delivered (<paramref name="record"/>: the whole record).
    /// The merge offers only those, checking the group before it slices the record.
    /// </summary>
    public void Observe(in RecordHeader h, ReadOnlySpan<byte> record, int cpu)
    {
        System.Diagnostics.Debug.Assert(h.Group == KernelGroups.Thread, "ThreadContext is offered Thread-group events only");
        if (h.Kind is not (RecordHeaderKind.System or RecordHeaderKind.Compact or RecordHeaderKind.PerfInfo)) return;
        var payload = record[h.PayloadOffset..h.Size];
        switch (h.Opcode)
        {
            case 36 when payload.Length >= 4 && (uint)cpu < MaxProcessors: // CSwitch: NewThreadId first
                _running[cpu] = PayloadReader.I32(payload, 0);
                _runningProcessAsOf[cpu] = -1;
                break;
            case 1 or 3 when payload.Length >= 8: // Start, DCStart: ProcessId, ThreadId
                _processOfThread[PayloadReader.I32(payload, 4)] = PayloadReader.I32(payload, 0);
                _learned++;
                break;
        }
    }
}
