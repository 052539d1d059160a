namespace HiddenCost.Etl.Reading;

/// <summary>
/// Where the processor streams of a pass merged ahead (<see cref="MergePipeline"/>) put the buffers they have
/// finished: events of those buffers may still wait in batches the caller has not read, so a buffer goes back to
/// the pool only after the batch that was being filled when it was finished has been read. Without a batch to
/// collect into (a pass on one thread, or one being shut down) a buffer goes back at once.
/// </summary>
internal sealed class BufferRetirement(BufferLoader loader)
{
    /// <summary>The retired buffers of the batch being filled; null: give buffers back at once.</summary>
    public List<byte[]>? Into { get; set; }

    public void Retire(byte[] data)
    {
        if (Into is { } into) into.Add(data);
        else loader.Return(data);
    }

    /// <summary>Gives back what a batch collected, once its events have been read.</summary>
    public void GiveBack(List<byte[]> retired)
    {
        foreach (var data in retired) loader.Return(data);
        retired.Clear();
    }
}
