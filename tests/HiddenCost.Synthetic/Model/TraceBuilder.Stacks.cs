using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Model;

public sealed partial class TraceBuilder
{
    private readonly Dictionary<ulong[], ulong> _kernelKeys = new(FramesComparer.Instance);
    private readonly Dictionary<ulong[], ulong> _userKeys = new(FramesComparer.Instance);
    private readonly List<(ulong Key, ulong[] Frames)> _keyDefinitions = [];

    /// <summary>
    /// Writes the stack of the event logged at <paramref name="context"/> by <paramref name="thread"/>: one tick
    /// later on the same CPU (stack walk events follow their event), plain or keyed per the settings or
    /// <paramref name="encoding"/>. Frames are leaf first; kernel frames come before user frames.
    /// </summary>
    public void StackFor(EventContext context, SyntheticThread thread, IReadOnlyList<ulong> frames, StackEncoding? encoding = null)
    {
        EnsureNotBuilt();
        _records.AddRange(StackRecords(context.Cpu, context.Timestamp, thread, frames, encoding ?? Settings.Stacks));
    }

    private IEnumerable<Etl.TraceRecord> StackRecords(int cpu, long eventTimestamp, SyntheticThread thread, IReadOnlyList<ulong> frames, StackEncoding encoding)
    {
        if (frames.Count == 0) throw new ArgumentException("empty stack");
        var kernelCount = 0;
        while (kernelCount < frames.Count && frames[kernelCount] >= KernelBoundary) kernelCount++;
        for (var i = kernelCount; i < frames.Count; i++)
            if (frames[i] >= KernelBoundary) throw new ArgumentException("kernel frames must precede user frames (leaf first)");

        var context = new EventContext(cpu, eventTimestamp + 1, Settings.PointerSize);
        var pid = (uint)thread.Process.Pid;
        var tid = (uint)thread.Tid;
        if (encoding == StackEncoding.Plain)
        {
            yield return StackWalkEvents.Stack(context, eventTimestamp, pid, tid, frames);
            yield break;
        }
        if (kernelCount > 0)
            yield return StackWalkEvents.StackKey(context, true, eventTimestamp, pid, tid, KeyFor(_kernelKeys, frames.Take(kernelCount).ToArray()));
        if (kernelCount < frames.Count)
            yield return StackWalkEvents.StackKey(context, false, eventTimestamp, pid, tid, KeyFor(_userKeys, frames.Skip(kernelCount).ToArray()));
    }

    private ulong KeyFor(Dictionary<ulong[], ulong> keys, ulong[] frames)
    {
        if (keys.TryGetValue(frames, out var key)) return key;
        key = _layout.Pool();
        keys[frames] = key;
        _keyDefinitions.Add((key, frames));
        return key;
    }

    private sealed class FramesComparer : IEqualityComparer<ulong[]>
    {
        public static readonly FramesComparer Instance = new();

        public bool Equals(ulong[]? x, ulong[]? y) => x is not null && y is not null && x.AsSpan().SequenceEqual(y);

        public int GetHashCode(ulong[] obj)
        {
            var h = new HashCode();
            foreach (var f in obj) h.Add(f);
            return h.ToHashCode();
        }
    }
}
