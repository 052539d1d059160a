using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Header;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;
using Microsoft.Win32.SafeHandles;

namespace HiddenCost.Etl;

/// <summary>
/// Reads an .etl file on any OS: the trace header at open, then every event in global timestamp order
/// (a k-way merge of the per-processor buffer streams), holding one buffer per processor in memory.
/// </summary>
public sealed class EtlReader : IDisposable
{
    private readonly SafeFileHandle _file;

    private EtlReader(string path, SafeFileHandle file, long length, TraceHeader header)
    {
        FilePath = path;
        _file = file;
        FileLength = length;
        Header = header;
    }

    public string FilePath { get; }
    public long FileLength { get; }
    public TraceHeader Header { get; }

    /// <summary>Health of the most recent <see cref="ReadEvents"/> pass (complete once it has ended).</summary>
    public TraceHealth Health { get; private set; } = new();

    /// <summary>Opens <paramref name="path"/> and reads its trace header.</summary>
    /// <exception cref="EtlFormatException">Missing, empty, not an ETL file, or an unreadable header.</exception>
    public static EtlReader Open(string path)
    {
        SafeFileHandle file;
        try
        {
            file = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.Read, FileOptions.RandomAccess);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new EtlFormatException(path, 0, e is FileNotFoundException or DirectoryNotFoundException ? "file not found" : e.Message, e);
        }
        try
        {
            long length = RandomAccess.GetLength(file);
            var header = ReadTraceHeader(path, file, length);
            return new EtlReader(path, file, length, header);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Every event in timestamp order. Each enumeration reads the file afresh.</summary>
    public EventStream ReadEvents() => new(this);

    /// <summary>
    /// Walks every record header in file order without merging, decoding payloads or converting time: the
    /// upper bound the benchmark compares full decoding with.
    /// </summary>
    public long CountRecordsInFileOrder()
    {
        var health = new TraceHealth();
        var index = BufferIndex.Build(_file, FileLength, health);
        var scratch = new SharedScratch();
        long count = 0;
        foreach (var (cpu, offsets) in index.ByProcessor)
        {
            var stream = new ProcessorStream(_file, cpu, offsets, health, scratch);
            while (stream.MoveNext()) count++;
        }
        return count;
    }

    public void Dispose() => _file.Dispose();

    internal Merger StartMerge()
    {
        Health = new TraceHealth();
        var index = BufferIndex.Build(_file, FileLength, Health);
        return new Merger(_file, index, Health, Header);
    }

    private static TraceHeader ReadTraceHeader(string path, SafeFileHandle file, long length)
    {
        if (length == 0) throw new EtlFormatException(path, 0, "empty file (0 bytes): not an ETL trace");
        if (length < BufferHeader.Size + 32)
            throw new EtlFormatException(path, 0, $"file is {length} bytes, too small to hold an ETL buffer and its trace header");
        Span<byte> raw = stackalloc byte[BufferHeader.Size];
        RandomAccess.Read(file, raw, 0);
        var first = BufferHeader.Parse(raw);
        if (first.BufferSize < BufferHeader.Size || first.BufferSize > BufferHeader.MaxBufferSize || first.BufferSize > length)
            throw new EtlFormatException(path, 0, $"not an ETL file: first buffer size {first.BufferSize} is impossible for a {length}-byte file");

        var health = new TraceHealth();
        var stream = new ProcessorStream(file, first.Processor, new[] { 0L }, health, new SharedScratch());
        if (!stream.MoveNext())
            throw new EtlFormatException(path, 0, "not an ETL file: the first buffer holds no readable record" +
                (health.Warnings.Count > 0 ? $" ({health.Warnings[0].Message})" : ""));
        var h = stream.Current;
        if (h.Kind is not (RecordHeaderKind.System or RecordHeaderKind.Compact) || h.Group != 0 || h.Opcode != 0)
            throw new EtlFormatException(path, BufferHeader.Size, "not an ETL file: the first record is not the trace header (EventTrace group 0, type 0)");
        var record = stream.CurrentRecord;
        var header = TraceHeaderParser.Parse(record[h.PayloadOffset..h.Size], h.Is64Bit ? 8 : 4, h.Timestamp, out var error);
        return header ?? throw new EtlFormatException(path, BufferHeader.Size, "trace header unreadable: " + error);
    }
}
