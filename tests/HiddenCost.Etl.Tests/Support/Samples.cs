using HiddenCost.TestSupport;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>The twelve public traces in shared/etl-samples, by their path under that folder.</summary>
internal static class Samples
{
    public const string AmsiTrace = "etl-parser/AMSITrace.etl";
    public const string LxcoreKernel = "etl-parser/lxcore_kernel.etl";
    public const string ShutdownPerfDiagLogger = "etl-parser/ShutdownPerfDiagLogger.etl";
    public const string EmptyEtl = "etwanalyzer/EmptyETL.etl";
    public const string TraceLoggingTester = "etwanalyzer/TraceLoggingTester.etl.zip";
    public const string Powershell = "krabsetw/powershell.etl";
    public const string GcEvents = "perfview/gcevents.etl.zip";
    public const string GcRundownEvents = "perfview/gcrundownevents.etl.zip";
    public const string NetX64 = "perfview/net.4.5.2.x64.etl.zip";
    public const string NetX86 = "perfview/net.4.5.2.x86.etl.zip";
    public const string PrimitiveTypes = "perfview/primitive-types.etl.zip";
    public const string SelfDescribingSingleEvent = "perfview/SelfDescribingSingleEvent.etl";

    /// <summary>Every sample except the 0-byte one.</summary>
    public static readonly string[] Readable =
    {
        AmsiTrace, LxcoreKernel, ShutdownPerfDiagLogger, TraceLoggingTester, Powershell, GcEvents, GcRundownEvents,
        NetX64, NetX86, PrimitiveTypes, SelfDescribingSingleEvent,
    };

    private static readonly Dictionary<string, byte[]> BytesCache = new();

    public static string PathOf(string sample) => SharedFolder.EtlSample(sample);

    /// <summary>The sample's bytes (read once per test run; callers must not modify them).</summary>
    public static byte[] Bytes(string sample)
    {
        var path = PathOf(sample);
        lock (BytesCache)
        {
            if (!BytesCache.TryGetValue(sample, out var bytes)) BytesCache[sample] = bytes = File.ReadAllBytes(path);
            return bytes;
        }
    }

    /// <summary>A copy of the sample under a temp folder, for tests that damage it; deleted with the returned scope.</summary>
    public static TempFile Copy(string sample, Func<byte[], byte[]>? change = null)
    {
        var bytes = (byte[])Bytes(sample).Clone();
        return TempFile.With(change is null ? bytes : change(bytes), Path.GetFileName(sample));
    }
}

/// <summary>A file in the temp folder, deleted on dispose.</summary>
internal sealed class TempFile : IDisposable
{
    private TempFile(string path) => Path = path;

    public string Path { get; }

    public static TempFile With(ReadOnlySpan<byte> bytes, string nameHint = "trace.etl")
    {
        var folder = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "hiddencost-tests");
        Directory.CreateDirectory(folder);
        var path = System.IO.Path.Combine(folder, $"{Guid.NewGuid():N}-{nameHint}");
        File.WriteAllBytes(path, bytes.ToArray());
        return new TempFile(path);
    }

    public void Dispose()
    {
        try { File.Delete(Path); } catch (IOException) { }
    }
}
