using System.Buffers.Binary;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>What two passes over one trace must agree on: every event, in order, with its bytes, and the trace's health.</summary>
internal readonly record struct Fingerprint(long Events, ulong Hash, long Buffers, long CompressedBuffers, long DamagedBuffers, long Warnings)
{
    /// <summary>A hash of every event's time, processor, identity and bytes, in delivery order.</summary>
    /// <param name="pauseAt">Events before which the pass sleeps a quarter second (a reader that falls behind).</param>
    /// <param name="spinPerEvent">Work the reader does on every event (<see cref="Thread.SpinWait"/> iterations).</param>
    public static Fingerprint Of(EtlReader reader, long[]? pauseAt = null, int spinPerEvent = 0)
    {
        var sink = new Sink(pauseAt, spinPerEvent);
        foreach (var e in reader.ReadEvents()) sink.OnEvent(e);
        return sink.Result(reader.Health);
    }

    /// <summary>Takes a pass's events one by one (also as a lane of <see cref="EtlReader.Dispatch"/>).</summary>
    public sealed class Sink(long[]? pauseAt = null, int spinPerEvent = 0) : IEventSink
    {
        private long _events;
        private ulong _hash = 14695981039346656037;

        public void OnEvent(in EtwEvent e)
        {
            if (pauseAt is not null && Array.IndexOf(pauseAt, _events) >= 0) Thread.Sleep(250);
            if (spinPerEvent > 0) Thread.SpinWait(spinPerEvent);
            _events++;
            _hash = Mix(_hash, (ulong)e.TimeNs);
            _hash = Mix(_hash, (ulong)(uint)e.Cpu | (ulong)(uint)e.ThreadId << 16 | (ulong)e.EventId << 48);
            _hash = Mix(_hash, (ulong)e.FileOffset);
            _hash = MixBytes(MixBytes(_hash, e.Payload), e.ExtendedData);
        }

        public Fingerprint Result(Reading.TraceHealth h) => new(_events, _hash, h.Buffers, h.CompressedBuffers, h.DamagedBuffers, h.WarningCount);
    }

    private static ulong Mix(ulong hash, ulong value) => (hash ^ value) * 1099511628211;

    private static ulong MixBytes(ulong hash, ReadOnlySpan<byte> bytes)
    {
        int i = 0;
        for (; i + 8 <= bytes.Length; i += 8) hash = Mix(hash, BinaryPrimitives.ReadUInt64LittleEndian(bytes[i..]));
        for (; i < bytes.Length; i++) hash = Mix(hash, bytes[i]);
        return Mix(hash, (ulong)bytes.Length);
    }
}
