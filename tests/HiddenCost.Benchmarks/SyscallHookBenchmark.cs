using System.Diagnostics;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Tables.SyscallHook;

namespace HiddenCost.Benchmarks;

/// <summary>
/// Syscall Hook analysis throughput: 10 million syscall events (enter + exit) by 64 threads of 16 processes on
/// 8 processors, with context switches every 50 syscalls per processor and a 1 ms CPU sample (20-frame stack, an
/// EDR driver in half of them) per processor, fed to <see cref="SyscallHookTracker"/> as decoded facts.
/// Reports events per second, allocated bytes and the peak managed heap.
/// </summary>
public static class SyscallHookBenchmark
{
    private const int Processors = 8, Processes = 16, ThreadsPerProcess = 4, Syscalls = 20, StackDepth = 20;
    private const ulong NtBase = 0xFFFF_F800_1000_0000, EdrBase = 0xFFFF_F801_2000_0000;
    private const long SyscallNs = 20_000, SampleEveryNs = 1_000_000;

    public static int Run(string[] args)
    {
        long events = args.Length > 0 ? long.Parse(args[0]) : 10_000_000;
        int repeats = args.Length > 1 ? int.Parse(args[1]) : 3;
        Console.WriteLine($"Syscall Hook analysis: {events:N0} syscall events (SysClEnter + SysClExit) as decoded facts, best of {repeats}");
        Pass(events / 10); // warm-up
        TimeSpan best = TimeSpan.MaxValue;
        long allocated = 0, heap = 0, rows = 0;
        for (int i = 0; i < repeats; i++)
        {
            GC.Collect();
            long before = GC.GetTotalAllocatedBytes(precise: true);
            var watch = Stopwatch.StartNew();
            var (r, h) = Pass(events);
            watch.Stop();
            if (watch.Elapsed < best) best = watch.Elapsed;
            allocated = GC.GetTotalAllocatedBytes(precise: true) - before;
            heap = Math.Max(heap, h);
            rows = r;
        }
        Console.WriteLine($"  {best.TotalSeconds:F2} s, {events / best.TotalSeconds / 1e6:F1} M syscall events/s, " +
                          $"{allocated / 1e6:F0} MB allocated, peak managed heap {heap / 1e6:F0} MB, {rows} rows");
        return 0;
    }

    private static (long Rows, long PeakHeap) Pass(long events)
    {
        var processes = Enumerable.Range(0, Processes).Select(p => new ProcessRef(1000 + p, 0, $"victim{p}.exe")).ToArray();
        var tracker = new SyscallHookTracker(m => m == "tedrdrv.sys" ? new CulpritIdentity("Palo Alto Networks", "Cortex XDR", "EDR") : null,
            (tid, _) => processes[(tid - 10_000) / ThreadsPerProcess]);
        tracker.KernelImage(0, NtBase, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe");
        tracker.KernelImage(0, EdrBase, 0x10_0000, @"\SystemRoot\System32\drivers\tedrdrv.sys");
        tracker.SampleInterval(0, SampleEveryNs);
        int threads = Processes * ThreadsPerProcess;
        var running = new int[Processors];
        var nextSample = new long[Processors];
        var now = new long[Processors];
        for (int cpu = 0; cpu < Processors; cpu++)
        {
            running[cpu] = 10_000 + cpu;
            tracker.ContextSwitch(0, cpu, 0, running[cpu]);
            nextSample[cpu] = SampleEveryNs;
        }
        Span<ulong> stack = stackalloc ulong[StackDepth];
        long syscalls = events / 2, peakHeap = 0;
        for (long i = 0; i < syscalls; i++)
        {
            int cpu = (int)(i % Processors);
            long t = now[cpu] += SyscallNs;
            ulong address = NtBase + 0x1_0000 + (ulong)(i % Syscalls) * 0x100;
            tracker.SyscallEnter(t, cpu, address);
            if (t + SyscallNs / 2 >= nextSample[cpu])
            {
                int handle = tracker.Sample(t + SyscallNs / 2, cpu, running[cpu]);
                for (int f = 0; f < StackDepth; f++) stack[f] = NtBase + (ulong)f * 0x40;
                if ((nextSample[cpu] / SampleEveryNs & 1) == 0) stack[3] = EdrBase + 0x1234;
                tracker.SampleStack(handle, stack);
                nextSample[cpu] += SampleEveryNs;
            }
            tracker.SyscallExit(t + SyscallNs - 1, cpu);
            if (i / Processors % 50 == 49)
            {
                int next = 10_000 + (int)((running[cpu] - 10_000 + Processors) % threads);
                tracker.ContextSwitch(t + SyscallNs - 1, cpu, running[cpu], next);
                running[cpu] = next;
            }
            if ((i & 0xF_FFFF) == 0) peakHeap = Math.Max(peakHeap, GC.GetTotalMemory(false));
        }
        var (table, _) = tracker.Build();
        return (table.Rows.Count, Math.Max(peakHeap, GC.GetTotalMemory(false)));
    }
}
