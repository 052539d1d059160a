namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// The buffer size to recommend to a watcher. Only buffers above 64 KiB are considered (64 KiB is also the
/// most a network share honours), only when they never overflowed (shrinking would make overflows likely),
/// and only with completions to learn from. The recommendation is the largest batch ever returned, doubled
/// for headroom, rounded up to a power of two, at least 4 KiB (one page) and at most 64 KiB — and never smaller
/// than the largest batch: a watcher that was once handed more than 64 KiB in one completion gets none, since
/// the capped size would overflow on such a batch.
/// </summary>
public static class BufferRecommendation
{
    public const long MaximumRecommended = 64 * 1024;
    public const long MinimumRecommended = 4 * 1024;

    public static long? For(long bufferBytes, long completions, long overflows, long largestBatchBytes)
    {
        if (bufferBytes <= MaximumRecommended || overflows > 0 || completions == 0) return null;
        long wanted = Math.Max(MinimumRecommended, 2 * largestBatchBytes);
        long size = MinimumRecommended;
        while (size < wanted && size < MaximumRecommended) size *= 2;
        return size < bufferBytes && size >= largestBatchBytes ? size : null;
    }
}
