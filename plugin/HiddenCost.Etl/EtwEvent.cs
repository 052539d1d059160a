using HiddenCost.Etl.Records;

namespace HiddenCost.Etl;

/// <summary>
/// One event as the reader delivers it: header fields decoded, payload as a span over the reader's buffer.
/// Valid only until the enumerator moves on (copy out what you keep). Kernel events (System, Compact,
/// PerfInfo headers) are identified by <see cref="Group"/> + <see cref="Opcode"/>; the others by
/// <see cref="ProviderId"/> + <see cref="EventId"/> (EVENT_HEADER) or <see cref="ProviderId"/> + <see cref="Opcode"/> (classic).
/// </summary>
public readonly ref struct EtwEvent
{
    internal EtwEvent(in RecordHeader h, ReadOnlySpan<byte> record, long timeNs, int cpu, int threadId, int processId, long fileOffset)
    {
        Kind = h.Kind;
        Is64Bit = h.Is64Bit;
        RawTimestamp = h.Timestamp;
        TimeNs = timeNs;
        Cpu = cpu;
        ThreadId = threadId;
        ProcessId = processId;
        ProviderId = h.Kind is RecordHeaderKind.System or RecordHeaderKind.Compact or RecordHeaderKind.PerfInfo
            ? KernelGroups.ProviderIdOf(h.Group)
            : h.ProviderId;
        Group = h.Group;
        Opcode = h.Opcode;
        EventId = h.EventId;
        Version = h.Version;
        Level = h.Level;
        Channel = h.Channel;
        Task = h.Task;
        Keywords = h.Keywords;
        EventFlags = h.EventFlags;
        Payload = record[h.PayloadOffset..h.Size];
        ExtendedData = record.Slice(h.ExtendedOffset, h.ExtendedLength);
        FileOffset = fileOffset;
    }

    public RecordHeaderKind Kind { get; }

    /// <summary>Pointer size of the logging context, per record (a 64-bit kernel logs 64-bit records for WOW64 processes).</summary>
    public bool Is64Bit { get; }

    public int PointerSize => Is64Bit ? 8 : 4;

    /// <summary>The raw clock value (QPC ticks, 100 ns units or cycles; see the trace header's clock type).</summary>
    public long RawTimestamp { get; }

    /// <summary>Nanoseconds since the trace start (the header event).</summary>
    public long TimeNs { get; }

    /// <summary>The processor whose buffer held the event.</summary>
    public int Cpu { get; }

    /// <summary>Thread id; for PerfInfo records, the thread running on <see cref="Cpu"/> per the context-switch state; -1 when unknown.</summary>
    public int ThreadId { get; }

    /// <summary>Process id; -1 when unknown.</summary>
    public int ProcessId { get; }

    /// <summary>Provider GUID; for kernel events, the classic task GUID of the group (e.g. Thread 3d6fa8d1-…).</summary>
    public Guid ProviderId { get; }

    /// <summary>Kernel event group (HookId high byte); 0 for other events.</summary>
    public byte Group { get; }

    /// <summary>Kernel type, classic Class.Type or EVENT_DESCRIPTOR.Opcode.</summary>
    public byte Opcode { get; }

    /// <summary>EVENT_DESCRIPTOR.Id (EVENT_HEADER records); 0 otherwise.</summary>
    public ushort EventId { get; }

    public byte Version { get; }
    public byte Level { get; }
    public byte Channel { get; }
    public ushort Task { get; }
    public ulong Keywords { get; }

    /// <summary>EVENT_HEADER.Flags (0 for other kinds).</summary>
    public ushort EventFlags { get; }

    public ReadOnlySpan<byte> Payload { get; }

    /// <summary>EVENT_HEADER extended data items, raw: {u16 Reserved1; u16 ExtType; u16 Linkage; u16 DataSize} + data, 8-aligned, while Linkage is set.</summary>
    public ReadOnlySpan<byte> ExtendedData { get; }

    /// <summary>Offset in the file of the buffer that held the event (for error messages).</summary>
    public long FileOffset { get; }

    public bool IsKernel => Kind is RecordHeaderKind.System or RecordHeaderKind.Compact or RecordHeaderKind.PerfInfo;

    /// <summary>True for a kernel event of <paramref name="group"/>/<paramref name="opcode"/>.</summary>
    public bool Is(byte group, byte opcode) => IsKernel && Group == group && Opcode == opcode;
}
