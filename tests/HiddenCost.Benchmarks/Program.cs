using System.Runtime.InteropServices;
using HiddenCost.Benchmarks;
using HiddenCost.Etl;
using HiddenCost.TestSupport;

// Usage (README.md beside this file):
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- [--repeats N] [--large-gib G] [--large-dir DIR] [--no-large] [--cpu-time]
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- syscall-hook [trace|facts] [syscall events] [repeats]
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- spin-wait [facts [events] [repeats] | trace [milliseconds] [repeats]]
if (args is ["syscall-hook", ..]) return SyscallHookBenchmark.Run(args[1..]);
if (args is ["spin-wait", ..]) return SpinWaitBenchmark.Run(args[1..]);
int repeats = 5;
double largeGib = 1.0;
string largeDir = Path.Combine(Path.GetTempPath(), "hiddencost-bench");
bool large = true;
string? single = null;
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--repeats": repeats = int.Parse(args[++i]); break;
        case "--large-gib": largeGib = double.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture); break;
        case "--large-dir": largeDir = args[++i]; break;
        case "--no-large": large = false; break;
        case "--cpu-time": PassResult.UseCpuTime = true; break;
        case "--trace": single = args[++i]; break;
        default:
            Console.Error.WriteLine($"unknown argument {args[i]}");
            return 2;
    }
}

if (single is not null)
{
    // One trace in a process of its own (how the large trace is measured, so its peak memory is the reader's,
    // not what building the trace or the earlier samples left behind).
    Report(Path.GetFileName(single), single, repeats);
    return 0;
}

string[] samples =
{
    "etl-parser/AMSITrace.etl", "etl-parser/lxcore_kernel.etl", "etl-parser/ShutdownPerfDiagLogger.etl",
    "etwanalyzer/TraceLoggingTester.etl.zip", "krabsetw/powershell.etl", "perfview/gcevents.etl.zip",
    "perfview/gcrundownevents.etl.zip", "perfview/net.4.5.2.x64.etl.zip", "perfview/net.4.5.2.x86.etl.zip",
    "perfview/primitive-types.etl.zip", "perfview/SelfDescribingSingleEvent.etl",
};

Preamble(repeats);

foreach (var sample in samples)
    Report(Path.GetFileName(sample).Replace(".zip", ""), SharedFolder.EtlSample(sample), repeats);

if (large)
{
    // Two large traces: uncompressed (TraceLoggingTester: 20 processors, 1 MiB buffers) and XPRESS-compressed
    // (net.4.5.2.x64: 8 processors, 64 KiB buffers).
    foreach (var sample in new[] { "etwanalyzer/TraceLoggingTester.etl.zip", "perfview/net.4.5.2.x64.etl.zip" })
    {
        var source = SharedFolder.EtlSample(sample);
        Console.WriteLine($"\nbuilding (once) a {largeGib:0.##} GiB trace from {Path.GetFileName(source)} in {largeDir} ...");
        var path = LargeTraceBuilder.Build(source, (long)(largeGib * 1024 * 1024 * 1024), largeDir);
        RunSeparately(path, Math.Min(repeats, 2));
    }
}
return 0;

static void Report(string name, string path, int repeats)
{
    using var reader = EtlReader.Open(path);
    long bytes = reader.FileLength;
    var minimum = TimeSpan.FromMilliseconds(300);
    FullPass(reader, typed: true);
    var full = Measurement.Best(repeats, bytes, () => FullPass(reader, typed: true), minimum);
    bool compressed = reader.Health.CompressedBuffers > 0;
    FullPass(reader, typed: false);
    var merge = Measurement.Best(repeats, bytes, () => FullPass(reader, typed: false), minimum);
    reader.CountRecordsInFileOrder();
    var header = Measurement.Best(repeats, bytes, reader.CountRecordsInFileOrder, minimum);
    if (full.Events != header.Events) Console.WriteLine($"  ! {name}: full pass {full.Events} events, header-only {header.Events}");
    Console.WriteLine($"{name,-34} {bytes / 1e6,7:F1} {full.Events,10:N0} {(compressed ? "yes" : "no"),4} | " +
        $"{full.MegabytesPerSecond,6:F0} {full.EventsPerSecond / 1e6,6:F2} | {merge.MegabytesPerSecond,6:F0} {merge.EventsPerSecond / 1e6,6:F2} | " +
        $"{header.MegabytesPerSecond,6:F0} {header.EventsPerSecond / 1e6,6:F2} | " +
        $"{100 * full.EventsPerSecond / header.EventsPerSecond,5:F0} {100 * merge.EventsPerSecond / header.EventsPerSecond,5:F0} | " +
        $"{full.BaseWorkingSet / 1e6,5:F0} {full.PeakWorkingSet / 1e6,5:F0} {full.PeakManagedHeap / 1e6,5:F0}");
    if (!reader.Health.IsClean) Console.WriteLine($"  ! {name}: {reader.Health.WarningCount} warnings, first: {reader.Health.Warnings[0]}");
}

static void Preamble(int repeats)
{
    Console.WriteLine($"HiddenCost ETL reader benchmark — {RuntimeInformation.FrameworkDescription}, {RuntimeInformation.OSDescription}, " +
        $"{Environment.ProcessorCount} cores, {RuntimeInformation.ProcessArchitecture}");
    Console.WriteLine("full   = the k-way merge in timestamp order, visiting every event, and typed decode of every event:");
    Console.WriteLine("         system state and stacks learn from it, the typed decoder that knows it decodes it, CPU samples and");
    Console.WriteLine("         events with stack items ask for their stack, EVENT_HEADER events are decoded field by field from their schema;");
    Console.WriteLine("merge  = the same without typed decode (the reader core alone: merge + header fields, time, thread context, spans);");
    Console.WriteLine("header = EtlReader.CountRecordsInFileOrder: buffers and record headers in file order, decompression included.");
    Console.WriteLine("ratios: events/s of full and of merge as a % of header (per byte the same, as all three read the same file).");
    Console.WriteLine($"Each figure: the best of {repeats} timings (each ≥ 300 ms of back-to-back passes) after a warm-up pass; files are read through the OS cache;");
    Console.WriteLine(PassResult.UseCpuTime
        ? "rates are per second of this process's CPU time (--cpu-time), so other work on the machine does not skew them.\n"
        : "rates are per second of wall-clock time.\n");
    if (File.Exists("/proc/loadavg")) Console.WriteLine($"load average at start: {File.ReadAllText("/proc/loadavg").Trim()}\n");
    Console.WriteLine($"{"",-34} {"",7} {"",10} {"",4} | {"full",-13} | {"merge",-13} | {"header",-13} | {"% of header",-11} | {"memory MB",-17}");
    Console.WriteLine($"{"trace",-34} {"MB",7} {"events",10} {"comp",4} | {"MB/s",6} {"Mev/s",6} | {"MB/s",6} {"Mev/s",6} | {"MB/s",6} {"Mev/s",6} | {"full",5} {"merge",5} | {"base",5} {"peak",5} {"heap",5}");
}

static void RunSeparately(string path, int repeats)
{
    var self = Environment.ProcessPath!;
    var start = new System.Diagnostics.ProcessStartInfo(self) { RedirectStandardOutput = true };
    if (Path.GetFileNameWithoutExtension(self) == "dotnet") start.ArgumentList.Add(typeof(LargeTraceBuilder).Assembly.Location);
    foreach (var a in new[] { "--trace", path, "--repeats", repeats.ToString(System.Globalization.CultureInfo.InvariantCulture) }) start.ArgumentList.Add(a);
    if (PassResult.UseCpuTime) start.ArgumentList.Add("--cpu-time");
    using var child = System.Diagnostics.Process.Start(start)!;
    Console.Write(child.StandardOutput.ReadToEnd());
    child.WaitForExit();
}

static long FullPass(EtlReader reader, bool typed)
{
    long events = 0, sum = 0;
    var decoding = typed ? new TypedDecoding() : null;
    foreach (var e in reader.ReadEvents())
    {
        events++;
        var payload = e.Payload;
        sum += e.TimeNs + e.ThreadId + e.ProcessId + e.Cpu + e.Opcode + e.EventId + payload.Length + e.ExtendedData.Length;
        if (payload.Length > 0) sum += payload[0];
        decoding?.Visit(e);
    }
    decoding?.Complete();
    GC.KeepAlive(sum + (decoding?.Decoded ?? 0) + (decoding?.Fields ?? 0));
    return events;
}
