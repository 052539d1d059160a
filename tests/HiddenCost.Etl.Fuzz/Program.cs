using HiddenCost.Etl.Fuzz;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;
using SharpFuzz;

// Modes (README.md beside this file):
//   (no arguments)            libFuzzer, through libfuzzer-dotnet
//   --afl                     AFL, out of process (afl-fuzz ... dotnet HiddenCost.Etl.Fuzz.dll --afl)
//   --corpus <dir>            writes seed inputs cut from the real samples in ../shared/etl-samples and from
//                             the synthetic scenario traces
//   --replay <file|dir>...    runs the target on saved inputs (a crash found by a fuzzer, or a corpus)
switch (args.FirstOrDefault())
{
    case null:
        Fuzzer.LibFuzzer.Run(span => FuzzTarget.Run(span.ToArray()));
        return 0;
    case "--afl":
        Fuzzer.OutOfProcess.Run(stream =>
        {
            using var memory = new MemoryStream();
            stream.CopyTo(memory);
            FuzzTarget.Run(memory.ToArray());
        });
        return 0;
    case "--corpus" when args.Length == 2:
        try
        {
            return Corpus.Write(args[1]);
        }
        catch (Exception e) when (e is TypeInitializationException or DirectoryNotFoundException)
        {
            // The seeds come from ../shared beside the repository, found from the program's folder or the working directory.
            Console.Error.WriteLine($"error: {(e.InnerException ?? e).Message}");
            return 2;
        }
    case "--replay" when args.Length >= 2:
        return Replay(args.Skip(1));
    default:
        Console.Error.WriteLine("usage: HiddenCost.Etl.Fuzz [--afl | --corpus <dir> | --replay <file|dir>...]");
        return 2;
}

static int Replay(IEnumerable<string> paths)
{
    var files = paths.SelectMany(p => Directory.Exists(p) ? Directory.GetFiles(p) : new[] { p }).ToList();
    foreach (var file in files)
        Console.WriteLine($"{FuzzTarget.Run(File.ReadAllBytes(file)),-8} {file}");
    Console.WriteLine($"{files.Count} inputs, no crash");
    return 0;
}

/// <summary>
/// Seeds, small because small inputs fuzz fastest: each real sample's first buffers, named after the sample, and
/// pieces of the four synthetic scenario traces (the only traces with context switches, syscalls, DirNotify,
/// registry and CLR contention events), written uncompressed with 4 KiB buffers so that mutations reach the
/// decoders rather than an XPRESS stream: the first buffer (trace header and rundown) followed by five buffers from
/// a quarter, half and three quarters of the way in.
/// </summary>
internal static class Corpus
{
    private const int MaxSeedBytes = 64 * 1024;
    private const int SyntheticBufferBytes = 4096;
    private const int SyntheticBuffersPerSeed = 5;

    public static int Write(string folder)
    {
        Directory.CreateDirectory(folder);
        var samples = Path.Combine(SharedFolder.Path ?? throw new DirectoryNotFoundException("../shared not found"), "etl-samples");
        foreach (var file in Directory.GetFiles(samples, "*.etl*", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(samples, file);
            var bytes = File.ReadAllBytes(SharedFolder.EtlSample(relative));
            var seed = bytes.AsSpan(0, SeedLength(bytes));
            var target = Path.Combine(folder, relative.Replace(Path.DirectorySeparatorChar, '_').Replace(".zip", ""));
            File.WriteAllBytes(target, seed.ToArray());
            Console.WriteLine($"{seed.Length,8} bytes  {target}");
        }
        var settings = new TraceBuilderSettings { Compress = false, BufferSize = SyntheticBufferBytes, Stacks = StackEncoding.Keyed };
        var scenarios = new (string Name, byte[] Bytes)[]
        {
            ("syscall-hook-storm", SyscallHookStorm.Generate(null, settings).Bytes),
            ("spin-contention", SpinContention.Generate(null, settings with { Stacks = StackEncoding.Plain }).Bytes),
            ("notify-buffer-storm", NotifyBufferStorm.Generate(null, settings).Bytes),
            ("event-log-render", EventLogRender.Generate(null, settings).Bytes),
        };
        foreach (var (name, bytes) in scenarios)
        {
            var buffers = FileBuffers.Walk(bytes);
            for (int quarter = 1; quarter <= 3; quarter++)
            {
                using var seed = new MemoryStream();
                seed.Write(bytes, 0, buffers[0].Size);
                foreach (var (offset, size) in buffers.Skip(buffers.Count * quarter / 4).Take(SyntheticBuffersPerSeed)) seed.Write(bytes, offset, size);
                var target = Path.Combine(folder, $"synthetic_{name}_{quarter}of4.etl");
                File.WriteAllBytes(target, seed.ToArray());
                Console.WriteLine($"{seed.Length,8} bytes  {target}");
            }
        }
        return 0;
    }

    /// <summary>Whole buffers up to 64 KiB (at least the first buffer, which holds the trace header).</summary>
    private static int SeedLength(byte[] bytes)
    {
        int length = 0;
        foreach (var (_, size) in FileBuffers.Walk(bytes))
        {
            if (length > 0 && length + size > MaxSeedBytes) break;
            length += size;
        }
        return length;
    }
}
