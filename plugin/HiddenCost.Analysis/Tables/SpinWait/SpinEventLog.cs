using System.Runtime.InteropServices;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// The spin-relevant events of one pass, kept compactly until the end: a sample can only be classified once its
/// stack has arrived (user parts come late, stack keys at the end) and the CLR rundown has named the methods in it
/// (MethodDCEndVerbose comes at the end). <see cref="Replay"/> then hands everything to the tracker in stream order.
/// Samples take 20 bytes each (the time as a difference from the sample before, the thread and process as one slot),
/// other events 44; both are stored in fixed-size chunks so the log never copies. The log still grows with the
/// samples: see the README (*Memory*) for why it cannot be aggregated without changing figures.
/// </summary>
public sealed class SpinEventLog
{
    private const int ChunkSize = 1 << 16;

    /// <summary>A sample's time difference that does not fit: the time is in <see cref="_farTimes"/>.</summary>
    private const int FarTime = int.MinValue;

    private readonly List<PackedSample[]> _samples = new();
    private readonly List<LoggedEvent[]> _events = new();
    private readonly Dictionary<(int Thread, int Process), int> _slotIndex = new();
    private readonly List<(int Thread, int Process)> _slots = new();
    private readonly Dictionary<long, long> _farTimes = new();
    private long _sampleCount, _eventCount, _lastSampleNs;

    public long SampleCount => _sampleCount;
    public long EventCount => _eventCount;

    /// <summary>Logs a sample; returns its index, for <see cref="SetStack"/> when its stack arrives.</summary>
    public long AddSample(long timeNs, int threadId, int process, ulong instructionPointer, int stack = 0)
    {
        long delta = timeNs - _lastSampleNs;
        // (A difference that overflowed has the wrong sign.)
        bool near = (timeNs >= _lastSampleNs) == (delta >= 0) && delta is > FarTime and <= int.MaxValue;
        if (!near) _farTimes[_sampleCount] = timeNs;
        _lastSampleNs = timeNs;
        Append(_samples, ref _sampleCount, new PackedSample(instructionPointer, near ? (int)delta : FarTime, Slot(threadId, process), stack));
        return _sampleCount - 1;
    }

    /// <summary>Attaches the stack that arrived for sample <paramref name="index"/> (stacks come after their samples).</summary>
    public void SetStack(long index, int stack)
    {
        if ((ulong)index >= (ulong)_sampleCount) throw new ArgumentOutOfRangeException(nameof(index));
        ref var slot = ref _samples[(int)(index >> 16)][(int)(index & (ChunkSize - 1))];
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
        Add(new LoggedEvent(timeNs, lockId, objectId, threadId, process, _sampleCount, LoggedKind.ContentionStart, 0, 0));

    public void AddContentionStop(long timeNs, int threadId, int process, double? durationNs) =>
        Add(new LoggedEvent(timeNs, (ulong)BitConverter.DoubleToInt64Bits(durationNs ?? double.NaN), 0, threadId, process, _sampleCount,
            LoggedKind.ContentionStop, 0, 0));

    public void AddSwitchOut(long timeNs, int threadId, int process, byte waitReason, byte state) =>
        Add(new LoggedEvent(timeNs, 0, 0, threadId, process, _sampleCount, LoggedKind.SwitchOut, waitReason, state));

    /// <summary>Calls the visitor for every logged event, in the order they were logged.</summary>
    public void Replay(ISpinEventVisitor visitor)
    {
        long e = 0, timeNs = 0;
        for (long s = 0; s <= _sampleCount; s++)
        {
            // Events logged before sample s came before it in the stream.
            while (e < _eventCount && At(_events, e).SamplesBefore <= s) visitor.Event(At(_events, e++));
            if (s == _sampleCount) break;
            ref readonly var packed = ref At(_samples, s);
            timeNs = packed.TimeDelta == FarTime ? _farTimes[s] : timeNs + packed.TimeDelta;
            var (thread, process) = _slots[packed.Slot];
            visitor.Sample(new LoggedSample(timeNs, packed.InstructionPointer, thread, process, packed.Stack));
        }
    }

    private void Add(in LoggedEvent ev) => Append(_events, ref _eventCount, ev);

    private static void Append<T>(List<T[]> chunks, ref long count, in T item)
    {
        int offset = (int)(count & (ChunkSize - 1));
        if (offset == 0) chunks.Add(new T[ChunkSize]);
        chunks[^1][offset] = item;
        count++;
    }

    private static ref readonly T At<T>(List<T[]> chunks, long index) => ref chunks[(int)(index >> 16)][(int)(index & (ChunkSize - 1))];
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
