using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Header;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;
using Microsoft.Win32.SafeHandles;

namespace HiddenCost.Etl;

/// <summary>
/// Reads an .etl file on any OS: the trace header at open, then every event in global timestamp order
/// (a k-way merge of the per-processor buffer streams), holding each processor's buffer being read and a few
/// buffers loaded ahead of need (up to 8 MiB or 64 buffers, at least four buffers, never more than a quarter of
/// the pass's memory budget).
/// </summary>
public sealed class EtlReader : IDisposable
{
    /// <summary>Compressed buffers may always decompress to this much, even when the header names a smaller buffer size.</summary>
    private const int MinDecompressionLimit = 1024 * 1024;
    private const int HeaderReadDecompressionLimit = 16 * 1024 * 1024;

    private readonly ByteSource _source;
    private readonly int _decompressionLimit;
    private readonly BufferArrayPool _arrays;
    private readonly IReadOnlyList<string> _headerDamage;
    private readonly TimeWindow _window;

    private EtlReader(string path, ByteSource source, TraceHeader header)
    {
        FilePath = path;
        _source = source;
        FileLength = source.Length;
        var damage = new List<string>();
        Header = header = HeaderTimeRules.Check(header, damage, out var span);
        _headerDamage = damage;
        _window = TimeWindow.For(header, span);
        // A buffer decompresses to at most the session's buffer size; relogged files may mix sizes, so allow
        // at least 1 MiB, and never more than the largest buffer ETW can have.
        _decompressionLimit = (int)Math.Clamp(header.BufferSize, MinDecompressionLimit, BufferHeader.MaxBufferSize);
        _arrays = new BufferArrayPool((int)Math.Clamp(header.BufferSize, (uint)BufferHeader.Size, BufferHeader.MaxBufferSize));
    }

    public string FilePath { get; }
    public long FileLength { get; }
    public TraceHeader Header { get; }

    /// <summary>
    /// Whether passes load buffers (reading and decompressing them) on a read-ahead thread, in the order the pass
    /// will need them, while the current ones are decoded; a pass that would wait for a buffer still loading loads
    /// the next one due instead, so two cores load. On by default, and used for files of 4 MiB or more on
    /// machines with more than one core: compressed traces read in about two thirds of the time, for about a
    /// quarter more CPU. Off, every buffer loads on the thread that reads the events (one core, less CPU in all).
    /// The events, their order and the trace's health are exactly the same either way.
    /// </summary>
    public bool ReadAhead { get; set; } = true;

    /// <summary>
    /// Whether passes that read ahead (<see cref="ReadAhead"/>) also merge ahead: the k-way merge, record headers and
    /// thread context run on a thread of the pass's own, handing the caller its events in batches, so what the caller
    /// does with each event overlaps the merge, and <see cref="Dispatch"/> runs its lanes at once. On by default on
    /// machines of three cores or more: on two, the read-ahead thread already takes the second core, and a third busy
    /// thread only adds the hand-over's cost. The events, their order and the trace's health are exactly the same
    /// either way; an event's spans stay valid until the next <c>MoveNext</c>, as always.
    /// </summary>
    public bool MergeAhead { get; set; } = Environment.ProcessorCount >= 3;

    /// <summary>The most bytes of buffer data one pass may hold at once (tests lower it to exercise the limit).</summary>
    internal long BufferBudgetBytes { get; set; } = MemoryBudget.DefaultLimit;

    /// <summary>The most buffers a pass indexes (tests lower it to exercise the limit).</summary>
    internal int MaxBuffers { get; set; } = BufferIndex.DefaultMaxBuffers;

    /// <summary>Health of the most recent <see cref="ReadEvents"/> pass (complete once it has ended).</summary>
    public TraceHealth Health { get; private set; } = new();

    /// <summary>Opens <paramref name="path"/> and reads its trace header.</summary>
    /// <exception cref="EtlFormatException">Missing, empty, not a file (a pipe, socket or device), not an ETL file, or an unreadable header.</exception>
    public static EtlReader Open(string path) => Open(new TraceFileName(path ?? "", path ?? ""));

    /// <summary>Opens the file <paramref name="name"/> names, naming it by its <see cref="TraceFileName.Display"/> in errors and warnings.</summary>
    /// <exception cref="EtlFormatException">Missing, empty, not a file (a pipe, socket or device), not an ETL file, or an unreadable header.</exception>
    public static EtlReader Open(TraceFileName name)
    {
        var path = name.Display;
        if (string.IsNullOrEmpty(name.Path) && name.NativeBytes is not { Length: > 0 }) throw new EtlFormatException(path, 0, "no file name given");
        SafeFileHandle? file = null;
        ByteSource source;
        try
        {
            if (UnixTraceFile.Applies)
            {
                // Opened without waiting and checked to be a file before anything is read (see UnixTraceFile).
                file = UnixTraceFile.Open(name);
            }
            else
            {
                if (Directory.Exists(name.Path)) throw new EtlFormatException(path, 0, "a directory, not an ETL trace file");
                // A pipe or device has no length (0 bytes) and cannot be read at any offset, and opening a pipe for reading
                // waits for a writer, for ever if none comes: so on macOS the length is looked at before the file is
                // opened. Not on Windows, whose pipes are not files in a folder, and where a directory entry's length can lag
                // behind a file still being written (a trace in the making would read as empty); opening finds an empty file.
                if (!OperatingSystem.IsWindows() && LengthBeforeOpening(name.Path) == 0) throw new EtlFormatException(path, 0, EmptyFileReason);
                file = File.OpenHandle(name.Path, FileMode.Open, FileAccess.Read, FileShare.Read, FileOptions.RandomAccess);
            }
            source = ByteSource.FromFile(file);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            file?.Dispose();
            throw new EtlFormatException(path, 0, e is FileNotFoundException or DirectoryNotFoundException ? "file not found" : e.Message, e);
        }
        return Open(path, source);
    }

    /// <summary>
    /// Reads a trace that is already in memory (an embedded resource, a download, a fuzzer's input);
    /// <paramref name="name"/> stands for the file path in errors and warnings.
    /// </summary>
    /// <exception cref="EtlFormatException">Empty, not an ETL trace, or an unreadable header.</exception>
    public static EtlReader Open(ReadOnlyMemory<byte> bytes, string name) => Open(name, ByteSource.FromMemory(bytes));

    private static EtlReader Open(string path, ByteSource source)
    {
        try
        {
            var header = ReadTraceHeader(path, source);
            return new EtlReader(path, source, header);
        }
        catch
        {
            source.Dispose();
            throw;
        }
    }

    /// <summary>Every event in timestamp order. Each enumeration reads the file afresh.</summary>
    /// <param name="cancellation">
    /// Checked for every buffer read — while the file's buffers are indexed, before the first event, and while
    /// buffers yield no event (trace messages, damage) — so a cancelled read stops within a buffer, not at the
    /// caller's next look: <c>GetEnumerator</c> and <c>MoveNext</c> then throw <see cref="OperationCanceledException"/>.
    /// </param>
    public EventStream ReadEvents(CancellationToken cancellation = default) => new(this, cancellation);

    /// <summary>
    /// Reads every event once and gives it to each of <paramref name="lanes"/>, in timestamp order. When the pass
    /// merges ahead (<see cref="MergeAhead"/>), each lane runs on a thread of its own (the first on the caller's), so
    /// lanes that do independent work on the same events use the cores there are; otherwise every lane runs on the
    /// caller's thread, event by event. Each lane sees the same events in the same order either way.
    /// </summary>
    /// <param name="progress">Told the share of the file read, 0 to 1, every 65,536 events of the first lane.</param>
    /// <param name="cancellation">Checked for every buffer read and every 65,536 events of the first lane.</param>
    /// <exception cref="EtlFormatException">As <see cref="ReadEvents"/>; an exception a lane throws ends the pass for every lane and is rethrown here.</exception>
    public void Dispatch(IReadOnlyList<IEventSink> lanes, IProgress<double>? progress = null, CancellationToken cancellation = default)
    {
        ArgumentOutOfRangeException.ThrowIfZero(lanes.Count);
        using var stream = StartPass(cancellation, lanes.Count);
        EventDispatch.Run(stream, lanes, progress, cancellation);
    }

    /// <summary>
    /// Walks every record header in file order without merging, decoding payloads or converting time: the
    /// upper bound the benchmark compares full decoding with.
    /// </summary>
    public long CountRecordsInFileOrder()
    {
        var health = NewHealth();
        var index = BufferIndex.Build(_source, health, Header.BufferSize, maxBuffers: MaxBuffers);
        var loader = NewLoader();
        using var worker = UseReadAhead && index.Streams.Count > 0
            ? new ReadAheadWorker(loader, index.Streams, ReadAheadWorker.StreamByStreamOrder(index.Streams), Header.BufferSize)
            : null;
        long count = 0;
        for (int s = 0; s < index.Streams.Count; s++)
        {
            var stream = new ProcessorStream(loader, index.Processors[s], index.Streams[s], health, worker, s, window: _window);
            while (stream.MoveNext()) count++;
        }
        return count;
    }

    public void Dispose()
    {
        _source.Dispose();
        _arrays.Clear();
    }

    /// <summary>Starts a pass: the merge, and the thread that runs it ahead when <see cref="MergeAhead"/> applies.</summary>
    internal EventStream.Enumerator StartPass(CancellationToken cancellation, int readers = 1)
    {
        if (!(MergeAhead && UseReadAhead)) return new EventStream.Enumerator(StartMerge(cancellation), null);
        var loader = NewLoader();
        var retirement = new BufferRetirement(loader);
        var merger = StartMerge(cancellation, loader, retirement);
        try
        {
            return new EventStream.Enumerator(merger, new MergePipeline(merger, retirement, readers, cancellation));
        }
        catch
        {
            merger.Dispose();
            throw;
        }
    }

    internal Merger StartMerge(CancellationToken cancellation) => StartMerge(cancellation, NewLoader(), retirement: null);

    private Merger StartMerge(CancellationToken cancellation, BufferLoader loader, BufferRetirement? retirement)
    {
        Health = NewHealth();
        var index = BufferIndex.Build(_source, Health, Header.BufferSize, cancellation, MaxBuffers);
        index.WarnOfUncountedProcessors(Header.NumberOfProcessors, Health);
        index.WarnIfFewerThanWritten(Header.BuffersWritten, Header.LogFileMode, FileLength, Health);
        index.WarnIfMoreThanWritten(Header.BuffersWritten, Health);
        return new Merger(loader, UseReadAhead, index, Health, Header, _window, cancellation, retirement);
    }

    /// <summary>A pass's health, starting with the damage the trace header showed (at the header record).</summary>
    private TraceHealth NewHealth()
    {
        var health = new TraceHealth();
        foreach (var damage in _headerDamage)
        {
            health.HeaderDamaged = true;
            health.WarnDamage(BufferHeader.Size, damage);
        }
        return health;
    }

    private BufferLoader NewLoader() => new(_source, _decompressionLimit, new MemoryBudget(BufferBudgetBytes), _arrays);

    private bool UseReadAhead => ReadAhead && ReadAheadWorker.IsUseful(FileLength);

    /// <summary>The length of the file <paramref name="path"/> names, through symbolic links; -1 when that cannot be told here.</summary>
    private static long LengthBeforeOpening(string path)
    {
        try
        {
            var info = new FileInfo(path);
            if (info.LinkTarget is not null && info.ResolveLinkTarget(returnFinalTarget: true) is FileInfo target) info = target;
            return info.Exists ? info.Length : -1;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            return -1; // opening says what is wrong
        }
    }

    private const string EmptyFileReason = "empty file (0 bytes), or not a file (a pipe or device): not an ETL trace";

    private static TraceHeader ReadTraceHeader(string path, ByteSource source)
    {
        long length = source.Length;
        if (length == 0) throw new EtlFormatException(path, 0, EmptyFileReason);
        if (length < BufferHeader.Size + 32)
            throw new EtlFormatException(path, 0, $"file is {length} bytes, too small to hold an ETL buffer and its trace header");
        Span<byte> raw = stackalloc byte[BufferHeader.Size];
        source.Read(raw, 0);
        var first = BufferHeader.Parse(raw);
        if (first.BufferSize < BufferHeader.Size || first.BufferSize > BufferHeader.MaxBufferSize)
            throw new EtlFormatException(path, 0, $"not an ETL file: first buffer size {first.BufferSize} is impossible");
        if (first.BufferSize > length)
            throw new EtlFormatException(path, 0, $"the file ends inside its first buffer ({length} of {first.BufferSize} bytes): cut short, or not an ETL file");

        var health = new TraceHealth();
        // The session's buffer size is not known yet; a first buffer (which holds the small header record)
        // larger than 16 MiB decompressed would be a first for ETW, so that is as much as a file may ask for here.
        var loader = new BufferLoader(source, HeaderReadDecompressionLimit, new MemoryBudget(), new BufferArrayPool((int)first.BufferSize));
        var stream = new ProcessorStream(loader, first.Processor, new[] { 0L }, health, worker: null);
        if (!stream.MoveNext())
            throw new EtlFormatException(path, 0, "not an ETL file: the first buffer holds no readable record" +
                (health.Warnings.Count > 0 ? $" ({health.Warnings[0].Message})" : ""));
        var h = stream.Current;
        if (h.Kind is not (RecordHeaderKind.System or RecordHeaderKind.Compact) || h.Group != 0 || h.Opcode != 0)
            throw new EtlFormatException(path, BufferHeader.Size, "not an ETL file: the first record is not the trace header (EventTrace group 0, type 0)");
        var record = stream.CurrentRecord;
        var header = TraceHeaderParser.Parse(record[h.PayloadOffset..h.Size], h.Is64Bit ? 8 : 4, h.Timestamp, out var error);
        stream.Release();
        if (header is null) throw new EtlFormatException(path, BufferHeader.Size, "trace header unreadable: " + error);
        if (TraceHeaderParser.Implausible(header) is { } why)
            throw new EtlFormatException(path, BufferHeader.Size, $"trace header is damaged: it says {why}");
        return header;
    }
}
