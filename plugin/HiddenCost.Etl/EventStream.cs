using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl;

/// <summary>The ordered events of a trace, for <c>foreach</c>. Each enumeration reads the file afresh.</summary>
public readonly struct EventStream
{
    private readonly EtlReader _reader;
    private readonly CancellationToken _cancellation;

    internal EventStream(EtlReader reader, CancellationToken cancellation)
    {
        _reader = reader;
        _cancellation = cancellation;
    }

    public Enumerator GetEnumerator() => new(_reader.StartMerge(_cancellation));

    public sealed class Enumerator : IDisposable
    {
        private readonly Merger _merger;

        internal Enumerator(Merger merger) => _merger = merger;

        public bool MoveNext() => _merger.MoveNext();

        /// <summary>The share of the trace's buffers read so far, 0 to 1: only grows (for progress).</summary>
        public double FractionRead => _merger.FractionRead;

        /// <summary>Bytes of buffer data the pass holds now: 0 once it is over or disposed.</summary>
        internal long BytesHeld => _merger.BytesHeld;

        /// <summary>The current event; its spans are valid until the next <see cref="MoveNext"/>.</summary>
        public EtwEvent Current => _merger.Current;

        /// <summary>Called by <c>foreach</c> on exit: a loop left early gives its buffers back at once.</summary>
        public void Dispose() => _merger.Dispose();
    }
}
