using HiddenCost.Etl.Records;

namespace HiddenCost.Etl;

/// <summary>
/// One event as the reader delivers it: header fields decoded, payload as a span over the reader's buffer.
/// Valid only until the enumerator moves on (copy out what you keep): its header fields are read from the reader's
/// current record, so an event kept past <c>MoveNext</c> shows the next record's header. <c>default(EtwEvent)</c> is
/// not an event. Kernel events (System, Compact,
/// PerfInfo headers) are identified by <see cref="Group"/> + <see cref="Opcode"/>; the others by
/// <see cref="ProviderId"/> + <see cref="EventId"/> (EVENT_HEADER) or <see cref="ProviderId"/> + <see cref="Opcode"/> (classic).
/// </summary>
public readonly ref struct EtwEvent
{
    // The header stays where the reader decoded it; the event refers to it instead of copying its twenty
    // fields for every event (the event is valid only until the enumerator moves on either way).
    private readonly ref readonly RecordHeader _header;

    internal EtwEvent(ref readonly RecordHeader h, ReadOnlySpan<byte> record, long timeNs, int cpu, int threadId, int processId, long fileOffset)
    {
        _header = ref h;
        TimeNs = timeNs;
        Cpu = cpu;
        ThreadId = threadId;
        ProcessId = processId;
        Payload = record[h.PayloadOffset..h.Size];
        ExtendedData = record.Slice(h.ExtendedOffset, h.ExtendedLength);
        FileOffset = fileOffset;
    }

    public RecordHeaderKind Kind => _header.Kind;

    /// <summary>Pointer size of the logging context, per record (a 64-bit kernel logs 64-bit records for WOW64 processes).</summary>
    public bool Is64Bit => _header.Is64Bit;

    public int PointerSize => Is64Bit ? 8 : 4;

    /// <summary>The raw clock value (QPC ticks, 100 ns units or cycles; see the trace header's clock type).</summary>
    public long RawTimestamp => _header.Timestamp;

    /// <summary>Nanoseconds since the trace start (the header event).</summary>
    public long TimeNs { get; }

    /// <summary>The processor whose buffer held the event.</summary>
    public int Cpu { get; }

    /// <summary>Thread id; for PerfInfo records, the thread running on <see cref="Cpu"/> per the context-switch state; -1 when unknown.</summary>
    public int ThreadId { get; }

    /// <summary>Process id; -1 when unknown.</summary>
    public int ProcessId { get; }

    /// <summary>Provider GUID; for kernel events, the classic task GUID of the group (e.g. Thread 3d6fa8d1-…).</summary>
    public Guid ProviderId => IsKernel ? KernelGroups.ProviderIdOf(_header.Group) : _header.ProviderId;

    /// <summary>
    /// Kernel event group (HookId high byte; image loads, logged under the Process group's hook 0x030A, come as
    /// Image, as TDH presents them); 0 for other events.
    /// </summary>
    public byte Group => _header.Group;

    /// <summary>Kernel type, classic Class.Type or EVENT_DESCRIPTOR.Opcode.</summary>
    public byte Opcode => _header.Opcode;

    /// <summary>EVENT_DESCRIPTOR.Id (EVENT_HEADER records); 0 otherwise.</summary>
    public ushort EventId => _header.EventId;

    public byte Version => _header.Version;
    public byte Level => _header.Level;
    public byte Channel => _header.Channel;
    public ushort Task => _header.Task;
    public ulong Keywords => _header.Keywords;

    /// <summary>EVENT_HEADER.Flags (0 for other kinds).</summary>
    public ushort EventFlags => _header.EventFlags;

    public ReadOnlySpan<byte> Payload { get; }

    /// <summary>EVENT_HEADER extended data items, raw: {u16 Reserved1; u16 ExtType; u16 Linkage; u16 DataSize} + data, 8-aligned, while Linkage is set.</summary>
    public ReadOnlySpan<byte> ExtendedData { get; }

    /// <summary>Offset in the file of the buffer that held the event (for error messages).</summary>
    public long FileOffset { get; }

    public bool IsKernel => Kind is RecordHeaderKind.System or RecordHeaderKind.Compact or RecordHeaderKind.PerfInfo;

    /// <summary>True for a kernel event of <paramref name="group"/>/<paramref name="opcode"/>.</summary>
    public bool Is(byte group, byte opcode) => IsKernel && Group == group && Opcode == opcode;
}
