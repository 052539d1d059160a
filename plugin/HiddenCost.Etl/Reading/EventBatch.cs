namespace HiddenCost.Etl.Reading;

/// <summary>
/// A run of merged events handed from the merging thread to the reader's caller (<see cref="MergePipeline"/>),
/// with the buffers the streams finished while it filled: those go back to the pool once it has been read.
/// </summary>
internal sealed class EventBatch
{
    /// <summary>
    /// Events per batch: enough that handing a batch over (a lock and, at times, a wake-up) costs nothing per event,
    /// few enough that the batches in flight hold little (about 100 bytes of header and context an event).
    /// </summary>
    public const int Capacity = 4096;

    public readonly MergedEvent[] Events = new MergedEvent[Capacity];
    public readonly List<byte[]> Retired = new();
    public int Count;

    /// <summary>The merge's share of the file read when the batch was handed over (progress).</summary>
    public double FractionRead;

    /// <summary>The pass ends after this batch's events: normally, or with <see cref="Failure"/>.</summary>
    public bool Last;

    /// <summary>What stopped the merge (damage that ends a pass, cancellation, I/O): thrown once the events before it are read.</summary>
    public Exception? Failure;

    /// <summary>Its place in the pass, and how many readers have yet to read it (set when it is handed over).</summary>
    public long Sequence;
    public int ReadersLeft;

    public bool IsFull => Count == Capacity;

    public void Reset()
    {
        Count = 0;
        Last = false;
        Failure = null;
    }
}
