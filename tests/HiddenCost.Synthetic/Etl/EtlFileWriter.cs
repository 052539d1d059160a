namespace HiddenCost.Synthetic.Etl;

/// <summary>
/// Writes records as an .etl file the way a kernel session and a merge leave it:
/// <list type="bullet">
/// <item>buffer 0 holds only the TRACE_LOGFILE_HEADER event (never compressed, BufferType HEADER);</item>
/// <item>every other buffer belongs to one CPU (ProcessorIndex + PROC_INDEX flag) and holds that CPU's records in
/// timestamp order, each 8-byte aligned, the unused tail filled with 0xFF;</item>
/// <item>buffers go to the file in the order they would be flushed (when full, by the time of their last record,
/// remaining partial buffers at the end), so they are out of time order across CPUs;</item>
/// <item>with compression, each data buffer's payload is XPRESS-compressed and BufferSize shrinks to
/// 0x48 + compressed length, while SavedOffset keeps the uncompressed end.</item>
/// </list>
/// Same records in, same bytes out: ordering ties keep insertion order and nothing depends on the clock or hashing.
/// </summary>
public sealed class EtlFileWriter
{
    private const byte HeaderGroup = 0;
    private const byte HeaderType = 0;
    private const ushort HeaderVersion = 2;

    private readonly List<TraceRecord> _records = [];

    public EtlFileWriter(EtlTraceSettings settings)
    {
        settings.Validate();
        Settings = settings;
    }

    public EtlTraceSettings Settings { get; }

    public int Count => _records.Count;

    public void Add(TraceRecord record)
    {
        if (record.Cpu < 0 || record.Cpu >= Settings.NumberOfProcessors)
            throw new ArgumentException($"record CPU {record.Cpu} outside 0..{Settings.NumberOfProcessors - 1}");
        if (record.PointerSize is not (4 or 8))
            throw new ArgumentException($"record pointer size must be 4 or 8, not {record.PointerSize}");
        if (record.PointerSize > Settings.PointerSize)
            throw new ArgumentException("a 64-bit record cannot appear in a 32-bit trace");
        if (record.Timestamp < Settings.StartQpc)
            throw new ArgumentException($"record timestamp {record.Timestamp} precedes the trace start {Settings.StartQpc}");
        if (Align8(record.Size) > Settings.BufferSize - BufferHeader.Size)
            throw new ArgumentException($"record of {record.Size} bytes does not fit a {Settings.BufferSize}-byte buffer");
        _records.Add(record);
    }

    public void AddRange(IEnumerable<TraceRecord> records)
    {
        foreach (var r in records) Add(r);
    }

    public void Save(string path) => File.WriteAllBytes(path, ToArray());

    public byte[] ToArray()
    {
        var dataBuffers = PackBuffers();
        var endQpc = _records.Count == 0 ? Settings.StartQpc : _records.Max(r => r.Timestamp);
        var header = BuildHeaderBuffer(endQpc, dataBuffers.Count + 1);

        using var output = new MemoryStream();
        output.Write(header);
        var sequence = 1L;
        foreach (var buffer in dataBuffers.OrderBy(b => b.LastTimestamp).ThenBy(b => b.Cpu).ThenBy(b => b.IndexOnCpu))
            output.Write(EncodeDataBuffer(buffer, sequence++));
        return output.ToArray();
    }

    private static int Align8(int n) => (n + 7) & ~7;

    private List<PendingBuffer> PackBuffers()
    {
        var capacity = Settings.BufferSize - BufferHeader.Size;
        var buffers = new List<PendingBuffer>();
        var byCpu = _records
            .Select((record, index) => (record, index))
            .GroupBy(x => x.record.Cpu)
            .OrderBy(g => g.Key);
        foreach (var cpu in byCpu)
        {
            PendingBuffer? current = null;
            var indexOnCpu = 0;
            foreach (var (record, _) in cpu.OrderBy(x => x.record.Timestamp).ThenBy(x => x.index))
            {
                var size = Align8(record.Size);
                if (current is null || current.Used + size > capacity)
                {
                    current = new PendingBuffer(cpu.Key, indexOnCpu++, capacity);
                    buffers.Add(current);
                }
                record.WriteTo(current.Payload.AsSpan(current.Used));
                current.Used += size;
                current.LastTimestamp = record.Timestamp;
            }
        }
        return buffers;
    }

    private byte[] EncodeDataBuffer(PendingBuffer buffer, long sequence)
    {
        var savedOffset = BufferHeader.Size + buffer.Used;
        var flushTime = TraceClock.ToFileTime(Settings, buffer.LastTimestamp);
        byte[] bytes;
        if (Settings.Compress)
        {
            var compressed = XpressCompressor.Compress(buffer.Payload.AsSpan(0, buffer.Used));
            bytes = new byte[BufferHeader.Size + compressed.Length];
            compressed.CopyTo(bytes, BufferHeader.Size);
            BufferHeader.Write(bytes, bytes.Length, savedOffset, flushTime, sequence, buffer.Cpu, BufferHeader.StateFlushed,
                BufferHeader.FlagProcessorIndex | BufferHeader.FlagCompressed, BufferHeader.TypeGeneric);
        }
        else
        {
            bytes = new byte[Settings.BufferSize];
            buffer.Payload.AsSpan(0, buffer.Used).CopyTo(bytes.AsSpan(BufferHeader.Size));
            bytes.AsSpan(savedOffset).Fill(0xFF);
            BufferHeader.Write(bytes, bytes.Length, savedOffset, flushTime, sequence, buffer.Cpu, BufferHeader.StateFlushed,
                BufferHeader.FlagProcessorIndex, BufferHeader.TypeGeneric);
        }
        return bytes;
    }

    private byte[] BuildHeaderBuffer(long endQpc, int buffersWritten)
    {
        var record = new KernelRecord
        {
            Cpu = 0,
            Timestamp = Settings.StartQpc,
            PointerSize = Settings.PointerSize,
            HeaderKind = RecordKind.System,
            Group = HeaderGroup,
            Type = HeaderType,
            Version = HeaderVersion,
            ThreadId = Settings.HeaderThreadId,
            ProcessId = Settings.HeaderProcessId,
            Payload = LogfileHeader.Build(Settings, endQpc, buffersWritten),
        };
        var used = Align8(record.Size);
        var savedOffset = BufferHeader.Size + used;
        // A kernel session writes a full-size first buffer; a relogger writing compressed buffers trims it to
        // 512-byte units (PerfView samples: 0x200), which keeps small compressed files small.
        var size = Settings.Compress ? (savedOffset + 511) & ~511 : Settings.BufferSize;
        var bytes = new byte[size];
        record.WriteTo(bytes.AsSpan(BufferHeader.Size));
        bytes.AsSpan(savedOffset).Fill(0xFF);
        BufferHeader.Write(bytes, size, savedOffset, Settings.StartTimeUtc.ToFileTimeUtc(), 0, 0,
            Settings.Compress ? BufferHeader.CompressionFormatXpress : 0,
            BufferHeader.FlagFlushMarker, BufferHeader.TypeHeader);
        return bytes;
    }

    private sealed class PendingBuffer(int cpu, int indexOnCpu, int capacity)
    {
        public int Cpu { get; } = cpu;
        public int IndexOnCpu { get; } = indexOnCpu;
        public byte[] Payload { get; } = new byte[capacity];
        public int Used { get; set; }
        public long LastTimestamp { get; set; }
    }
}
