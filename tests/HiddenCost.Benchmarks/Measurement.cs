using System.Diagnostics;

namespace HiddenCost.Benchmarks;

/// <summary>One timed pass: how many events, how long, and the most memory the process held meanwhile.</summary>
internal sealed record PassResult(long Events, TimeSpan Elapsed, long FileBytes, long BaseWorkingSet, long PeakWorkingSet, long PeakManagedHeap, long Allocated)
{
    /// <summary>Set to time passes by the process's CPU time instead of the wall clock (for machines shared with other work).</summary>
    public static bool UseCpuTime { get; set; }

    public double MegabytesPerSecond => FileBytes / 1e6 / Elapsed.TotalSeconds;
    public double EventsPerSecond => Events / Elapsed.TotalSeconds;
}

internal static class Measurement
{
    /// <summary>
    /// Runs <paramref name="pass"/> while a background thread samples the working set and managed heap every
    /// 10 ms, so the peaks belong to this pass rather than to the process's lifetime.
    /// </summary>
    public static PassResult Measure(long fileBytes, Func<long> pass, TimeSpan minimum)
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        long baseWorkingSet = Environment.WorkingSet;
        long peakWorkingSet = baseWorkingSet, peakHeap = GC.GetTotalMemory(false);
        using var stop = new ManualResetEventSlim();
        var sampler = new Thread(() =>
        {
            while (!stop.Wait(10))
            {
                peakWorkingSet = Math.Max(peakWorkingSet, Environment.WorkingSet);
                peakHeap = Math.Max(peakHeap, GC.GetTotalMemory(false));
            }
        }) { IsBackground = true };
        long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        sampler.Start();
        // Small traces take microseconds: repeat the pass until the run is long enough to time, and divide.
        var process = Process.GetCurrentProcess();
        var cpuBefore = process.TotalProcessorTime;
        var watch = Stopwatch.StartNew();
        long events = 0;
        int runs = 0;
        do
        {
            events = pass();
            runs++;
        }
        while (watch.Elapsed < minimum);
        watch.Stop();
        process.Refresh();
        var elapsed = PassResult.UseCpuTime ? process.TotalProcessorTime - cpuBefore : watch.Elapsed;
        stop.Set();
        sampler.Join();
        peakWorkingSet = Math.Max(peakWorkingSet, Environment.WorkingSet);
        long allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        return new PassResult(events, elapsed / runs, fileBytes, baseWorkingSet, peakWorkingSet, peakHeap, allocated / runs);
    }

    /// <summary>
    /// Runs the pass for at least two seconds (and twice): the JIT compiles hot methods again, optimised, only
    /// after they have run a while, so timing earlier would measure the compiler's tiers rather than the code.
    /// </summary>
    public static void WarmUp(Func<long> pass)
    {
        var watch = Stopwatch.StartNew();
        for (int runs = 0; runs < 2 || watch.Elapsed < TimeSpan.FromSeconds(2); runs++) pass();
    }

    /// <summary>The faster of two measurements of a pass, with the peaks of both.</summary>
    public static PassResult Faster(PassResult a, PassResult b) => (a.Elapsed <= b.Elapsed ? a : b) with
    {
        BaseWorkingSet = Math.Min(a.BaseWorkingSet, b.BaseWorkingSet),
        PeakWorkingSet = Math.Max(a.PeakWorkingSet, b.PeakWorkingSet),
        PeakManagedHeap = Math.Max(a.PeakManagedHeap, b.PeakManagedHeap),
    };
}
