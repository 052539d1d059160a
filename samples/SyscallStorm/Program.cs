using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace HiddenCost.Samples.SyscallStorm;

/// <summary>
/// Threads that do nothing but enter the kernel: Sleep(0) (NtDelayExecution) and SwitchToThread (NtYieldExecution).
/// On a clean machine each call costs well under a microsecond; with a driver in the syscall logging path each
/// one pays the driver's cost, which the Syscall Hook Overhead table names and prices.
/// </summary>
internal static class Program
{
    private const string Usage = """
        SyscallStorm: threads calling Sleep(0) and SwitchToThread as fast as they can.

        Usage: SyscallStorm [--threads N] [--seconds S] [--mode sleep0|yield|both]
          --threads   worker threads (default: one per logical processor)
          --seconds   how long to run (default 10)
          --mode      sleep0: Sleep(0) only; yield: SwitchToThread only; both: half the threads each (default)

        Record:  wpr -start MultiProfile.wprp!SysCall -filemode   (then run this, then)   wpr -stop syscallstorm.etl
        """;

    private static int Main(string[] args) => SampleHost.Run("SyscallStorm", Usage, args,
        o => OperatingSystem.IsWindows() ? Run(o) : SampleHost.NotWindows);

    [SupportedOSPlatform("windows")]
    private static int Run(SampleOptions o)
    {
        o.RejectUnknown("threads", "seconds", "mode");
        int threads = o.Int("threads", Environment.ProcessorCount, 1, 1024);
        int seconds = o.Int("seconds", 10, 1, 3600);
        var mode = o.Choice("mode", "both", "sleep0", "yield", "both");

        Console.WriteLine($"SyscallStorm pid {Environment.ProcessId}: {threads} threads, {seconds} s, mode {mode}");
        var counts = new long[threads];
        var kinds = new string[threads];
        var stopAt = Stopwatch.GetTimestamp() + seconds * Stopwatch.Frequency;
        var workers = new Thread[threads];
        for (int i = 0; i < threads; i++)
        {
            int index = i;
            bool yield = mode == "yield" || (mode == "both" && i % 2 == 1);
            kinds[i] = yield ? "SwitchToThread" : "Sleep(0)";
            workers[i] = new Thread(() => counts[index] = yield ? YieldLoop(stopAt) : SleepLoop(stopAt))
            {
                IsBackground = true,
                Name = $"SyscallStorm {kinds[i]} #{i}",
            };
        }
        var sw = Stopwatch.StartNew();
        foreach (var t in workers) t.Start();
        foreach (var t in workers) t.Join();
        sw.Stop();

        foreach (var kind in kinds.Distinct())
        {
            var idx = Enumerable.Range(0, threads).Where(i => kinds[i] == kind).ToArray();
            long calls = idx.Sum(i => counts[i]);
            double perSecond = calls / sw.Elapsed.TotalSeconds;
            double meanUs = idx.Length * sw.Elapsed.TotalMilliseconds * 1000 / Math.Max(calls, 1);
            Console.WriteLine($"  {kind,-15} {idx.Length,4} threads  {calls,14:N0} calls  {perSecond,14:N0} calls/s  {meanUs,8:N3} µs per call per thread");
        }
        return 0;
    }

    [SupportedOSPlatform("windows")]
    private static long SleepLoop(long stopAt)
    {
        long n = 0;
        while ((n & 1023) != 0 || Stopwatch.GetTimestamp() < stopAt)
        {
            Native.Sleep(0);
            n++;
        }
        return n;
    }

    [SupportedOSPlatform("windows")]
    private static long YieldLoop(long stopAt)
    {
        long n = 0;
        while ((n & 1023) != 0 || Stopwatch.GetTimestamp() < stopAt)
        {
            Native.SwitchToThread();
            n++;
        }
        return n;
    }

    /// <summary>The Win32 calls themselves, so the trace shows kernelbase!SleepEx and SwitchToThread, not .NET wrappers.</summary>
    [SupportedOSPlatform("windows")]
    private static class Native
    {
        [DllImport("kernel32.dll", ExactSpelling = true)]
        public static extern void Sleep(uint milliseconds);

        [DllImport("kernel32.dll", ExactSpelling = true)]
        [return: MarshalAs(UnmanagedType.Bool)]
        public static extern bool SwitchToThread();
    }
}
