using System.Runtime.InteropServices;
using HiddenCost.Benchmarks;
using HiddenCost.Etl;
using HiddenCost.TestSupport;

// Usage (README.md beside this file):
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- [--repeats N] [--large-gib G] [--large-dir DIR] [--no-large] [--cpu-time]
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- syscall-hook [trace|facts] [syscall events] [repeats]
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- spin-wait [facts [events] [repeats] | trace [milliseconds] [repeats]]
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- pdb [--functions N] [--pdb FILE] [--dir DIR] [--cpu-time]
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- symbols-trace [--samples N] [--repeats N] [--dir DIR]
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- dataset [--traces N] [--jobs N] [--query-traces N] [--no-large] [--dir DIR]
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- startup [--runs N] [--package OUTDIR] [NAME=EXECUTABLE]...
//   dotnet run --project tests/HiddenCost.Benchmarks -c Release -- analysis [--sizes 0.25,1,4] [--large-dir DIR] [--no-shares] [--keep]
if (args is ["analysis", ..]) return AnalysisBenchmark.Run(args[1..]);
if (args is ["syscall-hook", ..]) return SyscallHookBenchmark.Run(args[1..]);
if (args is ["spin-wait", ..]) return SpinWaitBenchmark.Run(args[1..]);
if (args is ["pdb", ..]) return PdbBenchmark.Run(args[1..]);
if (args is ["symbols-trace", ..]) return SymbolsTraceBenchmark.Run(args[1..]);
if (args is ["dataset", ..]) return DatasetBenchmark.Run(args[1..]);
if (args is ["startup", ..]) return StartupBenchmark.Run(args[1..]);
int repeats = 5;
double largeGib = 1.0;
string largeDir = Path.Combine(Path.GetTempPath(), "hiddencost-bench");
bool large = true;
string? single = null;
string? onlyPass = null;
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
        case "--pass": onlyPass = args[++i]; break;
        default:
            Console.Error.WriteLine($"unknown argument {args[i]}");
            return 2;
    }
}

if (single is not null && onlyPass is not null)
{
    // One pass over one trace, in a process of its own (how the large traces are measured), printed for the
    // parent process to read.
    using var reader = EtlReader.Open(single);
    var result = MeasureInTurns(reader, new[] { onlyPass }, repeats)[onlyPass];
    Console.WriteLine(FormattableString.Invariant(
        $"RESULT {result.Events} {result.Elapsed.Ticks} {result.BaseWorkingSet} {result.PeakWorkingSet} {result.PeakManagedHeap} {result.Allocated} {(reader.Health.CompressedBuffers > 0 ? 1 : 0)}"));
    return 0;
}

if (single is not null)
{
    Preamble(repeats);
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
    // The session pass apart: timed in turns with the others, it slowed the pass timed after it even though each
    // timing starts with a full collection (the heap grown for a trace's worth of state, and the collector's
    // budgets tuned to it, stay): net.4.5.2.x64's decode pass measured 48–56% of the header-only walk that way.
    var best = MeasureInTurns(reader, new[] { "decode", "merge", "header" }, repeats);
    best["session"] = MeasureInTurns(reader, new[] { "session" }, repeats)["session"];
    PrintRow(name, reader.FileLength, reader.Health.CompressedBuffers > 0, best["decode"], best["session"], best["merge"], best["header"]);
    if (!reader.Health.IsClean) Console.WriteLine($"  ! {name}: {reader.Health.WarningCount} warnings, first: {reader.Health.Warnings[0]}");
}

// The passes take turns: a timing of each, then the next round. On a machine whose speed drifts during the run
// (a virtual machine's neighbours), passes timed one after the other's repeats would meet different conditions
// and their ratio would show the drift; in turns, every pass meets the same ones. Each pass warms up first, long
// enough for the JIT's tiered compilation to settle, so the figures are the code's steady-state speed.
static Dictionary<string, PassResult> MeasureInTurns(EtlReader reader, string[] passes, int repeats)
{
    var minimum = TimeSpan.FromMilliseconds(300);
    var runs = new List<(string Pass, bool ReadAhead, Func<long> Run)>();
    foreach (var pass in passes)
    {
        switch (pass)
        {
            case "decode": runs.Add((pass, true, () => Pass(reader, TypedDecoding.Decode))); break;
            case "session": runs.Add((pass, true, () => Pass(reader, TypedDecoding.Session))); break;
            case "merge": runs.Add((pass, true, () => Pass(reader, null))); break;
            case "header":
                // The ceiling is the faster header-only walk: with read-ahead (decompression overlaps the walk) or
                // without (no thread hand-over per buffer), whichever this machine runs faster.
                runs.Add((pass, true, reader.CountRecordsInFileOrder));
                runs.Add((pass, false, reader.CountRecordsInFileOrder));
                break;
            default: throw new ArgumentException($"unknown pass {pass} ({string.Join(", ", Passes())})");
        }
    }
    foreach (var (_, readAhead, run) in runs)
    {
        reader.ReadAhead = readAhead;
        Measurement.WarmUp(run);
    }
    var best = new Dictionary<string, PassResult>();
    for (int round = 0; round < repeats; round++)
        foreach (var (pass, readAhead, run) in runs)
        {
            reader.ReadAhead = readAhead;
            var result = Measurement.Measure(reader.FileLength, run, minimum);
            best[pass] = best.TryGetValue(pass, out var earlier) ? Measurement.Faster(earlier, result) : result;
        }
    reader.ReadAhead = true;
    return best;
}

static void PrintRow(string name, long bytes, bool compressed, PassResult decode, PassResult session, PassResult merge, PassResult header)
{
    if (decode.Events != header.Events) Console.WriteLine($"  ! {name}: decode pass {decode.Events} events, header-only {header.Events}");
    Console.WriteLine($"{name,-30} {bytes / 1e6,7:F1} {decode.Events,10:N0} {(compressed ? "yes" : "no"),4} | " +
        $"{decode.MegabytesPerSecond,6:F0} {decode.EventsPerSecond / 1e6,6:F2} | {session.EventsPerSecond / 1e6,6:F2} | {merge.EventsPerSecond / 1e6,6:F2} | " +
        $"{header.MegabytesPerSecond,6:F0} {header.EventsPerSecond / 1e6,6:F2} | " +
        $"{Percent(decode, header),6:F0} {Percent(session, header),7:F0} {Percent(merge, header),5:F0} | " +
        $"{decode.PeakWorkingSet / 1e6,6:F0} {decode.PeakManagedHeap / 1e6,5:F0} | {session.PeakWorkingSet / 1e6,6:F0} {session.PeakManagedHeap / 1e6,5:F0}");
}

static double Percent(PassResult pass, PassResult header) => 100 * pass.EventsPerSecond / header.EventsPerSecond;

static void Preamble(int repeats)
{
    Console.WriteLine($"HiddenCost ETL reader benchmark — {RuntimeInformation.FrameworkDescription}, {RuntimeInformation.OSDescription}, " +
        $"{Environment.ProcessorCount} cores, {RuntimeInformation.ProcessArchitecture}");
    Console.WriteLine("decode  = full decode: the k-way merge in timestamp order and typed decode of every event (each event through the");
    Console.WriteLine("          decoder that knows it, stack frames included; other EVENT_HEADER events field by field from their schema);");
    Console.WriteLine("session = decode + what an analysis run adds: system state, stack matching, strings interned in the session's pool;");
    Console.WriteLine("merge   = the merge alone (reader core: header fields, time, thread context, payload and extended-data spans);");
    Console.WriteLine("header  = EtlReader.CountRecordsInFileOrder: buffers and record headers in file order, decompression included;");
    Console.WriteLine("          the faster of the walk with and without read-ahead. The other passes read with the reader's default,");
    Console.WriteLine("          read-ahead (buffers load on a second thread in the order the pass needs them, up to 8 MiB ahead; a pass");
    Console.WriteLine("          that would wait for a buffer still loading loads the next one due itself, so two cores load).");
    Console.WriteLine("% of header: events/s as a percentage of the header-only walk's (per byte the same ratio: all read the same file).");
    Console.WriteLine($"Each figure: the best of {repeats} timings (each ≥ 300 ms of back-to-back passes) after ≥ 2 s of warm-up passes, the passes");
    Console.WriteLine("taking turns (a timing of each pass per round, so drift in the machine's speed meets them alike); files are read");
    Console.WriteLine(PassResult.UseCpuTime
        ? "through the OS cache; rates are per second of this process's CPU time (--cpu-time), so other work on the machine does not skew them.\n"
        : "through the OS cache; rates are per second of wall-clock time.\n");
    if (File.Exists("/proc/loadavg")) Console.WriteLine($"load average at start: {File.ReadAllText("/proc/loadavg").Trim()}\n");
    Console.WriteLine($"{"",-30} {"",7} {"",10} {"",4} | {"decode",-13} | {"sessn",6} | {"merge",6} | {"header",-13} | {"% of header",-20} | {"decode MB",-12} | {"session MB",-12}");
    Console.WriteLine($"{"trace",-30} {"MB",7} {"events",10} {"comp",4} | {"MB/s",6} {"Mev/s",6} | {"Mev/s",6} | {"Mev/s",6} | {"MB/s",6} {"Mev/s",6} | {"decode",6} {"session",7} {"merge",5} | {"peak",6} {"heap",5} | {"peak",6} {"heap",5}");
}

// A large trace: each pass in a process of its own, so each pass's peak memory is its own and not what building
// the trace or an earlier pass left committed. The passes take turns, a process each, round after round.
static void RunSeparately(string path, int repeats)
{
    var results = new Dictionary<string, PassResult>();
    bool compressed = false;
    for (int round = 0; round < repeats; round++)
    {
        foreach (var pass in Passes())
        {
            var self = Environment.ProcessPath!;
            var start = new System.Diagnostics.ProcessStartInfo(self) { RedirectStandardOutput = true };
            if (Path.GetFileNameWithoutExtension(self) == "dotnet") start.ArgumentList.Add(typeof(LargeTraceBuilder).Assembly.Location);
            foreach (var a in new[] { "--trace", path, "--pass", pass, "--repeats", "1" }) start.ArgumentList.Add(a);
            if (PassResult.UseCpuTime) start.ArgumentList.Add("--cpu-time");
            using var child = System.Diagnostics.Process.Start(start)!;
            var output = child.StandardOutput.ReadToEnd();
            child.WaitForExit();
            var line = output.Split('\n').FirstOrDefault(l => l.StartsWith("RESULT ", StringComparison.Ordinal));
            if (child.ExitCode != 0 || line is null)
            {
                Console.WriteLine($"  ! {Path.GetFileName(path)}: the {pass} pass failed (exit {child.ExitCode}): {output.Trim()}");
                return;
            }
            var f = line.Split(' ').Skip(1).Select(v => long.Parse(v, System.Globalization.CultureInfo.InvariantCulture)).ToArray();
            var result = new PassResult(f[0], TimeSpan.FromTicks(f[1]), new FileInfo(path).Length, f[2], f[3], f[4], f[5]);
            results[pass] = results.TryGetValue(pass, out var earlier) ? Measurement.Faster(earlier, result) : result;
            compressed |= f[6] == 1; // the header-only walk keeps its own health: the other passes say
        }
    }
    PrintRow(Path.GetFileName(path), new FileInfo(path).Length, compressed, results["decode"], results["session"], results["merge"], results["header"]);
}

static string[] Passes() => new[] { "decode", "session", "merge", "header" };

static long Pass(EtlReader reader, Func<TypedDecoding>? typed)
{
    long events = 0, sum = 0;
    var decoding = typed?.Invoke();
    foreach (var e in reader.ReadEvents())
    {
        events++;
        var payload = e.Payload;
        sum += e.TimeNs + e.ThreadId + e.ProcessId + e.Cpu + e.Opcode + e.EventId + payload.Length + e.ExtendedData.Length;
        if (payload.Length > 0) sum += payload[0];
        decoding?.Visit(e);
    }
    decoding?.Complete();
    GC.KeepAlive(sum + (decoding?.Decoded ?? 0) + (decoding?.Values ?? 0));
    return events;
}
