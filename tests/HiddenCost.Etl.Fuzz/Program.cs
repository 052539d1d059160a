using HiddenCost.Etl.Fuzz;
using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;
using SharpFuzz;

// Modes (README.md beside this file):
//   (no arguments)            libFuzzer, through libfuzzer-dotnet
//   --afl                     AFL, out of process (afl-fuzz ... dotnet HiddenCost.Etl.Fuzz.dll --afl)
//   --corpus <dir>            writes seed inputs cut from the real samples in ../shared/etl-samples and from
//                             the synthetic scenario traces, and an EventSource manifest seed
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
        var eventSource = Path.Combine(folder, "synthetic_eventsource-manifest.etl");
        File.WriteAllBytes(eventSource, EventSourceSeed());
        Console.WriteLine($"{new FileInfo(eventSource).Length,8} bytes  {eventSource}");
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

    /// <summary>
    /// An EventSource's manifest sent in two chunks (ManifestData, event 0xFFFE) and two events it describes — a count
    /// from an earlier field, a string, a bit map, a struct array and a binary sized by a field — so mutations reach
    /// the chunk assembly, the manifest's XML and the schemas built from it.
    /// </summary>
    private static byte[] EventSourceSeed()
    {
        var provider = new Guid("5f3c1a2b-0d4e-4b7a-9c61-2e8f0a7b6d15");
        const string manifest = """
            <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"><instrumentation><events>
            <provider name="Seed" guid="{5f3c1a2b-0d4e-4b7a-9c61-2e8f0a7b6d15}"><tasks><task name="Work" value="1"/></tasks>
            <maps><bitMap name="Flags"><map value="0x1" message="$(string.one)"/></bitMap></maps>
            <events><event value="1" opcode="win:Start" task="Work" template="A"/><event value="2" opcode="win:Stop" task="Work" template="B"/></events>
            <templates><template tid="A"><data name="N" inType="win:UInt16"/><data name="Items" inType="win:Int32" count="N"/>
            <data name="Text" inType="win:UnicodeString"/><data name="Mask" inType="win:UInt32" map="Flags"/></template>
            <template tid="B"><struct name="Pair" count="2"><data name="X" inType="win:UInt8"/></struct><data name="Size" inType="win:UInt32"/>
            <data name="Blob" inType="win:Binary" length="Size"/></template></templates></provider></events></instrumentation>
            <localization><resources culture="en-US"><stringTable><string id="one" value="One"/></stringTable></resources></localization>
            </instrumentationManifest>
            """;
        var xml = System.Text.Encoding.UTF8.GetBytes(manifest);
        var writer = new EtlFileWriter(new EtlTraceSettings { NumberOfProcessors = 1, BufferSize = SyntheticBufferBytes });
        long t = 1_000_000_100;
        ManifestRecord Event(ushort id, byte opcode, byte[] payload) => new()
        {
            Cpu = 0, Timestamp = t += 100, ProviderId = provider, ThreadId = 8, ProcessId = 4, Payload = payload,
            Descriptor = new EventDescriptor(id, id == 0xFFFE ? (byte)1 : (byte)0, 0, 4, opcode, 0, 0),
        };
        byte[] Chunk(ushort number, ReadOnlySpan<byte> part) => [1, 1, 0, 0x5B, 2, 0, (byte)number, 0, .. part];
        int half = xml.Length / 2;
        writer.Add(Event(0xFFFE, 254, Chunk(0, xml.AsSpan(0, half))));
        writer.Add(Event(0xFFFE, 254, Chunk(1, xml.AsSpan(half))));
        writer.Add(Event(1, 1, [2, 0, 1, 0, 0, 0, 2, 0, 0, 0, (byte)'h', 0, (byte)'i', 0, 0, 0, 1, 0, 0, 0]));
        writer.Add(Event(2, 2, [7, 8, 3, 0, 0, 0, 9, 9, 9]));
        return writer.ToArray();
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
