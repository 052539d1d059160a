using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl;

/// <summary>
/// One pass whose events go to several sinks, each on a thread of its own when the pass merges ahead
/// (<see cref="EtlReader.MergeAhead"/>), else all on the caller's thread, one after another for each event. Each
/// sink gets every event in the same order either way, so what a sink computes does not depend on the threads.
/// </summary>
internal static class EventDispatch
{
    private const long ProgressEveryEvents = 1 << 16;

    /// <summary>Lane 0 runs on the caller's thread; the pass ends when every lane has read every event.</summary>
    public static void Run(EventStream.Enumerator stream, IReadOnlyList<IEventSink> lanes, IProgress<double>? progress, CancellationToken cancellation)
    {
        var pipeline = stream.Pipeline;
        if (pipeline is null || lanes.Count == 1)
        {
            RunInline(stream, lanes, progress, cancellation);
            return;
        }
        var failures = new Exception?[lanes.Count];
        var threads = new Thread[lanes.Count - 1];
        for (int i = 1; i < lanes.Count; i++)
        {
            int lane = i;
            threads[i - 1] = new Thread(() => Guarded(pipeline, failures, lane, () => RunLane(pipeline.Readers[lane], lanes[lane], null, default)))
            {
                IsBackground = true,
                Name = $"hc-lane-{lane}",
            };
            threads[i - 1].Start();
        }
        Guarded(pipeline, failures, 0, () => RunLane(pipeline.Readers[0], lanes[0], progress, cancellation));
        foreach (var thread in threads) thread.Join();
        // The first real failure: the others are the lanes it stopped.
        if (failures.FirstOrDefault(f => f is not null and not PipelineStoppedException) is { } failure)
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(failure).Throw();
    }

    private static void Guarded(MergePipeline pipeline, Exception?[] failures, int lane, Action run)
    {
        try
        {
            run();
        }
        catch (Exception e)
        {
            failures[lane] = e;
            pipeline.Stop(); // no other lane may wait for this one's share of the batches
        }
    }

    private static void RunLane(MergePipeline.Reader reader, IEventSink sink, IProgress<double>? progress, CancellationToken cancellation)
    {
        long count = 0;
        while (reader.MoveNext())
        {
            sink.OnEvent(reader.Current);
            if ((++count & (ProgressEveryEvents - 1)) == 0)
            {
                cancellation.ThrowIfCancellationRequested();
                progress?.Report(Math.Min(0.99, reader.FractionRead));
            }
        }
    }

    private static void RunInline(EventStream.Enumerator stream, IReadOnlyList<IEventSink> lanes, IProgress<double>? progress, CancellationToken cancellation)
    {
        // An array, walked as one: a foreach over the interface list allocated an enumerator for every event.
        var sinks = lanes.ToArray();
        long count = 0;
        while (stream.MoveNext())
        {
            var e = stream.Current;
            foreach (var sink in sinks) sink.OnEvent(e);
            if ((++count & (ProgressEveryEvents - 1)) == 0)
            {
                cancellation.ThrowIfCancellationRequested();
                progress?.Report(Math.Min(0.99, stream.FractionRead));
            }
        }
    }
}
