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

    public Enumerator GetEnumerator() => _reader.StartPass(_cancellation);

    /// <summary>The pass: the merge on the caller's thread, or ahead of it on a thread of its own (<see cref="EtlReader.MergeAhead"/>).</summary>
    public sealed class Enumerator : IDisposable
    {
        private readonly Merger _merger;
        private readonly MergePipeline? _pipeline;
        private readonly MergePipeline.Reader? _ahead;

        internal Enumerator(Merger merger, MergePipeline? pipeline)
        {
            _merger = merger;
            _pipeline = pipeline;
            _ahead = pipeline?.Readers[0];
        }

        public bool MoveNext() => _ahead is null ? _merger.MoveNext() : _ahead.MoveNext();

        /// <summary>The share of the trace's buffers read so far, 0 to 1: only grows (for progress).</summary>
        public double FractionRead => _ahead is null ? _merger.FractionRead : _ahead.FractionRead;

        /// <summary>Bytes of buffer data the pass holds now: 0 once it is over or disposed.</summary>
        internal long BytesHeld => _merger.BytesHeld;

        /// <summary>The merge running ahead, when it does (its readers are the lanes of <see cref="EtlReader.Dispatch"/>).</summary>
        internal MergePipeline? Pipeline => _pipeline;

        /// <summary>Whether the merge runs ahead on a thread of its own in this pass.</summary>
        internal bool MergesAhead => _ahead is not null;

        /// <summary>The current event; its spans are valid until the next <see cref="MoveNext"/>.</summary>
        public EtwEvent Current => _ahead is null ? _merger.Current : _ahead.Current;

        /// <summary>Called by <c>foreach</c> on exit: a loop left early gives its buffers back at once.</summary>
        public void Dispose()
        {
            _pipeline?.Dispose(); // first: the merging thread stops before the merger it uses goes
            _merger.Dispose();
        }
    }
}
