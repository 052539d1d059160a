using System.Diagnostics;
using System.Runtime.Versioning;

namespace HiddenCost.Samples.SpinContention;

/// <summary>
/// Threads fighting over one lock: each holds it for --hold-us of CPU work, then works --think-us outside it.
/// Monitor (C# lock) spins before it blocks and raises CLR ContentionStart/Stop; SpinLock only spins. The
/// Spin-Wait Cost per Lock table shows, per lock, how much CPU went into spinning and whether it paid off.
/// </summary>
internal static class Program
{
    private const string Usage = """
        SpinContention: Monitor and SpinLock contention with configurable hold and think times.

        Usage: SpinContention [--threads N] [--seconds S] [--hold-us H] [--think-us T] [--lock monitor|spinlock|both]
          --threads   contending threads (default: one per logical processor)
          --seconds   how long each lock kind runs (default 10)
          --hold-us   CPU work inside the lock, microseconds (default 50)
          --think-us  CPU work outside the lock, microseconds (default 10)
          --lock      monitor: C# lock; spinlock: System.Threading.SpinLock; both: one after the other (default)

        Record:  wpr -start MultiProfile.wprp!SpinWait -filemode   (then run this, then)   wpr -stop spincontention.etl
        """;

    private static int Main(string[] args) => SampleHost.Run("SpinContention", Usage, args,
        o => OperatingSystem.IsWindows() ? Run(o) : SampleHost.NotWindows);

    [SupportedOSPlatform("windows")]
    private static int Run(SampleOptions o)
    {
        o.RejectUnknown("threads", "seconds", "hold-us", "think-us", "lock");
        int threads = o.Int("threads", Environment.ProcessorCount, 2, 1024);
        int seconds = o.Int("seconds", 10, 1, 3600);
        long hold = BusyWait.TicksOf(o.Int("hold-us", 50, 0, 1_000_000));
        long think = BusyWait.TicksOf(o.Int("think-us", 10, 0, 1_000_000));
        var kind = o.Choice("lock", "both", "monitor", "spinlock", "both");

        Console.WriteLine($"SpinContention pid {Environment.ProcessId}: {threads} threads, hold {o.Text("hold-us", "50")} µs, think {o.Text("think-us", "10")} µs");
        if (kind is "monitor" or "both") RunMonitor(threads, seconds, hold, think);
        if (kind is "spinlock" or "both") RunSpinLock(threads, seconds, hold, think);
        return 0;
    }

    private static void RunMonitor(int threads, int seconds, long hold, long think)
    {
        var gate = new object();
        long contentionsBefore = Monitor.LockContentionCount;
        var (acquisitions, elapsed) = Contend(threads, seconds, () =>
        {
            lock (gate) BusyWait.For(hold);
            BusyWait.For(think);
        });
        Report("Monitor (lock)", acquisitions, elapsed, Monitor.LockContentionCount - contentionsBefore);
    }

    private static void RunSpinLock(int threads, int seconds, long hold, long think)
    {
        var spin = new SpinLock(enableThreadOwnerTracking: false);
        var (acquisitions, elapsed) = Contend(threads, seconds, () =>
        {
            bool taken = false;
            try
            {
                spin.Enter(ref taken);
                BusyWait.For(hold);
            }
            finally
            {
                if (taken) spin.Exit(useMemoryBarrier: false);
            }
            BusyWait.For(think);
        });
        Report("SpinLock", acquisitions, elapsed, null);
    }

    private static (long Acquisitions, TimeSpan Elapsed) Contend(int threads, int seconds, Action once)
    {
        long total = 0;
        var stopAt = Stopwatch.GetTimestamp() + seconds * Stopwatch.Frequency;
        var sw = Stopwatch.StartNew();
        var workers = Enumerable.Range(0, threads).Select(i => new Thread(() =>
        {
            long n = 0;
            while (Stopwatch.GetTimestamp() < stopAt)
            {
                once();
                n++;
            }
            Interlocked.Add(ref total, n);
        }) { IsBackground = true, Name = $"SpinContention #{i}" }).ToArray();
        foreach (var t in workers) t.Start();
        foreach (var t in workers) t.Join();
        return (total, sw.Elapsed);
    }

    private static void Report(string kind, long acquisitions, TimeSpan elapsed, long? contentions)
    {
        var c = contentions is { } n ? $"  {n,12:N0} contentions (CLR ContentionStart events)" : "  (SpinLock raises no contention events)";
        Console.WriteLine($"  {kind,-15} {acquisitions,14:N0} acquisitions  {acquisitions / elapsed.TotalSeconds,12:N0} per second{c}");
    }
}
