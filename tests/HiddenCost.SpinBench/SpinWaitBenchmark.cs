using System.Diagnostics;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Tables.SpinWait;

namespace HiddenCost.SpinBench;

/// <summary>
/// Runs N context switches and CPU samples (half each) through the Spin-Wait analysis the way
/// <see cref="SpinWaitAnalysis"/> does: yields and delays straight to the tracker, samples, contentions and
/// lock-wait switches into the deferred log, then the replay with a per-stack classification cache, then the
/// tables. Decoding and the reader are not included (the reader has its own benchmark).
/// </summary>
internal static class SpinWaitBenchmark
{
    public sealed record Result(long Samples, long Switches, long Contentions, TimeSpan Pass, TimeSpan Replay, TimeSpan Build,
        long PeakWorkingSet, long LogBytes, int LockRows, int ProcessRows);

    public static Result Run(long events, ulong seed)
    {
        var work = new SyntheticWorkload(seed);
        var processes = Enumerable.Range(0, SyntheticWorkload.Processes)
            .Select(p => new ProcessRef(1000 + 4 * p, 0, $"Contoso.Service{p}.exe")).ToArray();
        var tracker = new SpinWaitTracker();
        tracker.ProfileInterval(1_000_000);
        var log = new SpinEventLog();
        var sampledSinceSwitchIn = new HashSet<int>();
        long samples = 0, switches = 0, contentions = 0, t = 0;
        int threads = SyntheticWorkload.Processes * SyntheticWorkload.ThreadsPerProcess;
        var open = new bool[threads];

        var clock = Stopwatch.StartNew();
        for (long i = 0; i < events; i++)
        {
            ulong r = work.Next();
            int thread = (int)(r % (ulong)threads);
            int tid = 10_000 + thread * 4, process = thread / SyntheticWorkload.ThreadsPerProcess;
            t += 1_000_000 / 64 + (long)(r >> 58);
            if ((i & 1) == 0)
            {
                int ticket = (int)((r >> 20) % SyntheticWorkload.Stacks);
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
        var classes = new SampleClass[SyntheticWorkload.Stacks * SyntheticWorkload.Processes];
        var known = new bool[classes.Length];
        new SpinReplay(tracker, processes, (in LoggedSample s) =>
        {
            int key = s.Process * SyntheticWorkload.Stacks + s.StackTicket;
            if (!known[key])
            {
                classes[key] = SpinClassifier.Classify(work.Stack(s.StackTicket), hasStack: true);
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
