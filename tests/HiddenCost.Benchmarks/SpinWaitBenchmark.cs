using System.Diagnostics;
using System.Globalization;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Tables.SpinWait;

namespace HiddenCost.Benchmarks;

/// <summary>
/// <c>spin-wait facts [events] [repeats]</c>: N context switches and CPU samples (half each, default 10 million)
/// through the Spin-Wait analysis the way <see cref="SpinWaitAnalysis"/> feeds it: yields and Sleep(0) switches
/// straight to the tracker; samples, contentions and lock-wait switches into the deferred log; then the replay with a
/// per-stack classification cache; then the tables. Reader and decoding are left out (measured by the main benchmark).
/// <c>spin-wait trace [ms] [repeats]</c>: the same analysis end to end on a synthetic spin-contention trace of that
/// length (default 60,000 ms), beside a reader-only pass over the same file.
/// </summary>
internal static class SpinWaitBenchmark
{
    public static int Run(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : "facts";
        if (mode is not ("facts" or "trace") || args.Length > 3
            || !TryArg(args, 1, mode == "facts" ? 10_000_000 : 60_000, out long size) || !TryArg(args, 2, 3, out long repeats) || repeats < 1)
        {
            Console.Error.WriteLine("usage: spin-wait [facts [events] [repeats] | trace [milliseconds] [repeats]]");
            return 2;
        }
        Console.WriteLine($"HiddenCost Spin-Wait benchmark — {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}, {Environment.ProcessorCount} cores");
        if (mode == "facts") Facts(size, (int)repeats);
        else Trace(size, (int)repeats);
        return 0;
    }

    private static bool TryArg(string[] args, int index, long fallback, out long value)
    {
        value = fallback;
        return args.Length <= index || long.TryParse(args[index], NumberStyles.Integer, CultureInfo.InvariantCulture, out value) && value > 0;
    }

    private static void Facts(long events, int repeats)
    {
        Console.WriteLine($"{events:N0} synthetic context switches and CPU samples (half each), in memory; best of {repeats} after a warm-up run.");
        Run(Math.Min(events, 1_000_000), 7);
        Result? best = null;
        for (int r = 0; r < repeats; r++)
        {
            GC.Collect();
            var result = Run(events, (ulong)(r + 1));
            var total = result.Pass + result.Replay + result.Build;
            Console.WriteLine($"  run {r + 1}: {total.TotalSeconds:F2} s (pass {result.Pass.TotalSeconds:F2}, replay {result.Replay.TotalSeconds:F2}, " +
                              $"tables {result.Build.TotalMilliseconds:F0} ms) = {events / total.TotalSeconds / 1e6:F2} M events/s; " +
                              $"{result.Contentions:N0} contentions, {result.LockRows} lock rows, {result.ProcessRows} process rows");
            if (best is null || total < best.Pass + best.Replay + best.Build) best = result;
        }
        var bestTotal = best!.Pass + best.Replay + best.Build;
        Console.WriteLine($"best: {events / bestTotal.TotalSeconds / 1e6:F2} M events/s ({bestTotal.TotalSeconds:F2} s for {events:N0}); " +
                          $"deferred log {best.LogBytes / 1e6:F0} MB; peak working set {Process.GetCurrentProcess().PeakWorkingSet64 / 1e6:F0} MB");
    }

    private static void Trace(long milliseconds, int repeats)
    {
        var directory = Path.Combine(Path.GetTempPath(), "hiddencost-bench");
        Console.WriteLine($"end to end: synthetic spin-contention trace of {milliseconds:N0} ms (built once in {directory}); best of {repeats}.");
        var path = SpinWaitTraceBenchmark.Generate(milliseconds, directory);
        SpinWaitTraceBenchmark.Result? best = null;
        for (int r = 0; r < repeats; r++)
        {
            GC.Collect();
            var result = SpinWaitTraceBenchmark.Run(path);
            Console.WriteLine($"  run {r + 1}: reader only {result.ReaderOnly.TotalSeconds:F2} s, reader + session + Spin-Wait {result.WithAnalysis.TotalSeconds:F2} s " +
                              $"({result.Events / result.WithAnalysis.TotalSeconds / 1e6:F2} M events/s)");
            if (best is null || result.WithAnalysis < best.WithAnalysis) best = result;
        }
        Console.WriteLine($"best: {best!.Bytes / 1e6:F0} MB, {best.Events:N0} events ({best.Samples:N0} samples, {best.Switches:N0} context switches): " +
                          $"{best.WithAnalysis.TotalSeconds:F2} s = {best.Events / best.WithAnalysis.TotalSeconds / 1e6:F2} M events/s " +
                          $"(reader alone {best.Events / best.ReaderOnly.TotalSeconds / 1e6:F2} M events/s); {best.LockRows} lock rows");
    }

    public sealed record Result(long Samples, long Switches, long Contentions, TimeSpan Pass, TimeSpan Replay, TimeSpan Build,
        long PeakWorkingSet, long LogBytes, int LockRows, int ProcessRows);

    public static Result Run(long events, ulong seed)
    {
        var work = new SpinWaitWorkload(seed);
        var processes = Enumerable.Range(0, SpinWaitWorkload.Processes)
            .Select(p => new ProcessRef(1000 + 4 * p, 0, $"Contoso.Service{p}.exe")).ToArray();
        var tracker = new SpinWaitTracker();
        tracker.ProfileInterval(1_000_000);
        var log = new SpinEventLog();
        var sampledSinceSwitchIn = new HashSet<int>();
        long samples = 0, switches = 0, contentions = 0, t = 0;
        int threads = SpinWaitWorkload.Processes * SpinWaitWorkload.ThreadsPerProcess;
        var open = new bool[threads];

        var clock = Stopwatch.StartNew();
        for (long i = 0; i < events; i++)
        {
            ulong r = work.Next();
            int thread = (int)(r % (ulong)threads);
            int tid = 10_000 + thread * 4, process = thread / SpinWaitWorkload.ThreadsPerProcess;
            t += 1_000_000 / 64 + (long)(r >> 58);
            if ((i & 1) == 0)
            {
                int ticket = (int)((r >> 20) % SpinWaitWorkload.Stacks);
                log.AddSample(t, tid, process, 0x7FF8_4C1B_2C40, ticket);
                sampledSinceSwitchIn.Add(tid);
                samples++;
                // Now and then a spinning thread gives up and blocks: a contention around it.
                if (work.IsSpinStack(ticket) && (r >> 40) % 16 == 0 && !open[thread])
                {
                    log.AddContentionStart(t + 1, tid, process, 0x1C4_8F2A_3D40UL + (r >> 50) % 8 * 0x60, 0x1C4_9000_1E28UL);
                    open[thread] = true;
                    contentions++;
                }
                else if (open[thread] && !work.IsSpinStack(ticket))
                {
                    log.AddContentionStop(t - 1, tid, process, 2.5e6);
                    open[thread] = false;
                }
                continue;
            }
            switches++;
            byte reason, state;
            switch ((r >> 30) % 10)
            {
                case < 4: reason = KernelWait.UserRequest; state = KernelWait.StateWaiting; break;
                case < 6: reason = KernelWait.WrYieldExecution; state = 1; break;
                case 6: reason = KernelWait.DelayExecution; state = KernelWait.StateWaiting; break;
                default: reason = 32; state = 1; break; // WrPreempted
            }
            bool ran = sampledSinceSwitchIn.Remove(tid);
            if (KernelWait.IsYield(reason) || KernelWait.IsDelay(reason)) tracker.ContextSwitch(t, processes[process], tid, reason, state);
            else if (ran && KernelWait.IsLockWait(reason, state)) log.AddSwitchOut(t, tid, process, reason, state);
        }
        var pass = clock.Elapsed;

        clock.Restart();
        var classes = new SampleClass[SpinWaitWorkload.Stacks * SpinWaitWorkload.Processes];
        var known = new bool[classes.Length];
        new SpinReplay(tracker, processes, (in LoggedSample s) =>
        {
            int key = s.Process * SpinWaitWorkload.Stacks + s.Stack;
            if (!known[key])
            {
                classes[key] = SpinClassifier.Classify(work.Stack(s.Stack), hasStack: true);
                known[key] = true;
            }
            return classes[key];
        }).Run(log);
        var replay = clock.Elapsed;

        clock.Restart();
        var (perLock, byProcess) = tracker.Build(t);
        var build = clock.Elapsed;
        long logBytes = log.SampleCount * 28 + log.EventCount * 44;
        return new Result(samples, switches, contentions, pass, replay, build, Environment.WorkingSet, logBytes,
            perLock.Rows.Count, byProcess.Rows.Count);
    }
}
