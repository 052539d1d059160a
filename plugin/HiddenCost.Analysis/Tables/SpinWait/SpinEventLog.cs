using System.Runtime.InteropServices;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// The spin-relevant events of one pass, kept compactly until the end: a sample can only be classified once its
/// stack has arrived (user parts come late, stack keys at the end) and the CLR rundown has named the methods in it
/// (MethodDCEndVerbose comes at the end). <see cref="Replay"/> then hands everything to the tracker in stream order.
/// Samples take 20 bytes each (the time as a difference from the sample before, the thread and process as one slot),
/// other events 44; both are stored in fixed-size chunks, of which only the newest few stay in memory: older ones go
/// to a temporary file (<see cref="SpillFile"/>) and are read back in order by <see cref="Replay"/>, so memory does
/// not grow with the trace. A stack that arrives for a sample already written goes to a small side table. When the
/// file cannot be created or written, chunks stay in memory and <see cref="SpillFailure"/> says why (for a note).
/// See the README (*Memory*) for why the log cannot be aggregated without changing figures.
/// </summary>
public sealed class SpinEventLog : IDisposable
{
    /// <summary>A sample's time difference that does not fit: the time is in <see cref="_farTimes"/>.</summary>
    private const int FarTime = int.MinValue;

    private readonly SpillFile _file;
    private readonly SpillableChunks<PackedSample> _samples;
    private readonly SpillableChunks<LoggedEvent> _events;
    private readonly Dictionary<(int Thread, int Process), int> _slotIndex = new();
    private readonly List<(int Thread, int Process)> _slots = new();
    private readonly Dictionary<long, long> _farTimes = new();
    // Stacks that arrived for samples already written to the file (a sample waits at most a second or so of trace
    // time for its stack, and the chunks in memory hold far more than that, so this stays small).
    private readonly Dictionary<long, int> _lateStacks = new();
    private long _lastSampleNs;

    public SpinEventLog() : this(SpinLogOptions.Default) { }

    internal SpinEventLog(SpinLogOptions options)
    {
        _file = new SpillFile(options.Directory);
        _samples = new SpillableChunks<PackedSample>(options.SampleChunkShift, options.ResidentSampleChunks, _file);
        _events = new SpillableChunks<LoggedEvent>(options.EventChunkShift, options.ResidentEventChunks, _file);
    }

    public long SampleCount => _samples.Count;
    public long EventCount => _events.Count;

    /// <summary>Why older chunks stayed in memory (the temporary file could not be created or written); null when none did.</summary>
    public string? SpillFailure => _file.Failure;

    /// <summary>Bytes written to the temporary file.</summary>
    internal long SpilledBytes => _file.Length;

    /// <summary>Stacks kept aside for samples already written.</summary>
    internal int LateStacks => _lateStacks.Count;

    /// <summary>Logs a sample; returns its index, for <see cref="SetStack"/> when its stack arrives.</summary>
    public long AddSample(long timeNs, int threadId, int process, ulong instructionPointer, int stack = 0)
    {
        long index = _samples.Count;
        long delta = timeNs - _lastSampleNs;
        // (A difference that overflowed has the wrong sign.)
        bool near = (timeNs >= _lastSampleNs) == (delta >= 0) && delta is > FarTime and <= int.MaxValue;
        if (!near) _farTimes[index] = timeNs;
        _lastSampleNs = timeNs;
        _samples.Append(new PackedSample(instructionPointer, near ? (int)delta : FarTime, Slot(threadId, process), stack));
        return index;
    }

    /// <summary>Attaches the stack that arrived for sample <paramref name="index"/> (stacks come after their samples).</summary>
    public void SetStack(long index, int stack)
    {
        if ((ulong)index >= (ulong)_samples.Count) throw new ArgumentOutOfRangeException(nameof(index));
        if (!_samples.IsResident(index))
        {
            _lateStacks[index] = stack;
            return;
        }
        ref var slot = ref _samples.ResidentAt(index);
        slot = slot with { Stack = stack };
    }

    private int Slot(int threadId, int process)
    {
        if (!_slotIndex.TryGetValue((threadId, process), out int slot))
        {
            _slotIndex[(threadId, process)] = slot = _slots.Count;
            _slots.Add((threadId, process));
        }
        return slot;
    }

    public void AddContentionStart(long timeNs, int threadId, int process, ulong lockId, ulong objectId) =>
        Add(new LoggedEvent(timeNs, lockId, objectId, threadId, process, _samples.Count, LoggedKind.ContentionStart, 0, 0));

    public void AddContentionStop(long timeNs, int threadId, int process, double? durationNs) =>
        Add(new LoggedEvent(timeNs, (ulong)BitConverter.DoubleToInt64Bits(durationNs ?? double.NaN), 0, threadId, process, _samples.Count,
            LoggedKind.ContentionStop, 0, 0));

    public void AddSwitchOut(long timeNs, int threadId, int process, byte waitReason, byte state) =>
        Add(new LoggedEvent(timeNs, 0, 0, threadId, process, _samples.Count, LoggedKind.SwitchOut, waitReason, state));

    /// <summary>Calls the visitor for every logged event, in the order they were logged.</summary>
    public void Replay(ISpinEventVisitor visitor)
    {
        var samples = _samples.OpenReader();
        var events = _events.OpenReader();
        long e = 0, timeNs = 0, sampleCount = _samples.Count, eventCount = _events.Count;
        for (long s = 0; s <= sampleCount; s++)
        {
            // Events logged before sample s came before it in the stream.
            while (e < eventCount && events.At(e).SamplesBefore <= s) visitor.Event(events.At(e++));
            if (s == sampleCount) break;
            ref readonly var packed = ref samples.At(s);
            timeNs = packed.TimeDelta == FarTime ? _farTimes[s] : timeNs + packed.TimeDelta;
            var (thread, process) = _slots[packed.Slot];
            int stack = _lateStacks.Count > 0 && _lateStacks.TryGetValue(s, out int late) ? late : packed.Stack;
            visitor.Sample(new LoggedSample(timeNs, packed.InstructionPointer, thread, process, stack));
        }
    }

    private void Add(in LoggedEvent ev) => _events.Append(ev);

    /// <summary>Closes (and so deletes) the temporary file; the log cannot be replayed after.</summary>
    public void Dispose() => _file.Dispose();
}

/// <summary>
/// How the log (and the tracker's unplaced runs, <see cref="UnplacedRuns"/>) keep their chunks: 2^shift items each,
/// how many of the newest stay in memory, and where the temporary files go (the system's temporary folder when null).
/// Tests make the chunks tiny to write almost everything.
/// </summary>
internal sealed record SpinLogOptions(int SampleChunkShift, int EventChunkShift, int ResidentSampleChunks, int ResidentEventChunks, string? Directory = null,
    int RunChunkShift = 14, int ResidentRunChunks = 1)
{
    /// <summary>
    /// 65,536 samples a chunk (1.3 MB; two in memory), 32,768 other events (1.4 MB; one): about 4 MB in memory at most,
    /// holding the last 65,536 samples or more, while a sample waits for its stack about a second of trace time;
    /// 16,384 unplaced runs a chunk (0.8 MB; one).
    /// </summary>
    public static SpinLogOptions Default { get; } = new(16, 15, 2, 1);
}

/// <summary>Receives the log's events in stream order.</summary>
public interface ISpinEventVisitor
{
    void Sample(in LoggedSample sample);
    void Event(in LoggedEvent ev);
}

public enum LoggedKind : byte
{
    ContentionStart,
    ContentionStop,
    SwitchOut,
}

/// <summary>A logged sample as stored: its time as the difference from the sample before, its (thread, process) as a slot.</summary>
[StructLayout(LayoutKind.Sequential, Pack = 4)]
internal readonly record struct PackedSample(ulong InstructionPointer, int TimeDelta, int Slot, int Stack);

/// <summary>
/// A CPU sample: its thread, process (an index the analysis assigns), instruction pointer and stack (an id in the
/// pass's stack store, or a key of the caller's own; 0 while none has arrived).
/// </summary>
[StructLayout(LayoutKind.Sequential, Pack = 4)]
public readonly record struct LoggedSample(long TimeNs, ulong InstructionPointer, int ThreadId, int Process, int Stack);

/// <summary>
/// A contention event or a context switch. <see cref="A"/>/<see cref="B"/> hold LockID/AssociatedObjectID for a
/// start and the DurationNs bits (NaN: none) for a stop; <see cref="SamplesBefore"/> places it among the samples.
/// </summary>
[StructLayout(LayoutKind.Sequential, Pack = 4)]
public readonly record struct LoggedEvent(long TimeNs, ulong A, ulong B, int ThreadId, int Process, long SamplesBefore,
    LoggedKind Kind, byte WaitReason, byte State)
{
    public double? DurationNs => double.IsNaN(BitConverter.Int64BitsToDouble((long)A)) ? null : BitConverter.Int64BitsToDouble((long)A);
}
