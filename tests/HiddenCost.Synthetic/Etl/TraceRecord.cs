using System.Buffers.Binary;

namespace HiddenCost.Synthetic.Etl;

/// <summary>
/// One event as the writer lays it out: the CPU whose buffer holds it, its QPC timestamp, the pointer size of
/// its logging context (selects the 32/64-bit header variant and the width of pointer fields in the payload)
/// and the payload bytes. Subclasses add the header fields of their kind.
/// </summary>
public abstract class TraceRecord
{
    /// <summary>Processor whose buffer receives the record (the buffer's ProcessorIndex).</summary>
    public required int Cpu { get; init; }

    /// <summary>QPC timestamp.</summary>
    public required long Timestamp { get; init; }

    /// <summary>4 or 8.</summary>
    public int PointerSize { get; init; } = 8;

    public byte[] Payload { get; init; } = [];

    public abstract RecordKind Kind { get; }

    /// <summary>Bytes between the header and the payload (EVENT_HEADER extended data items).</summary>
    internal virtual int ExtensionSize => 0;

    /// <summary>Record size as written in its header (not including the 8-byte alignment padding).</summary>
    public int Size => RecordHeaderTypes.HeaderSize(Kind) + ExtensionSize + Payload.Length;

    /// <summary>Writes header, extension and payload into <paramref name="destination"/> (at least <see cref="Size"/> bytes).</summary>
    internal void WriteTo(Span<byte> destination)
    {
        var size = Size;
        if (size > ushort.MaxValue)
            throw new InvalidOperationException($"record of {size} bytes exceeds the 65,535-byte limit of a record header");
        WriteHeader(destination, (ushort)size);
        Payload.CopyTo(destination[(size - Payload.Length)..]);
    }

    private protected abstract void WriteHeader(Span<byte> destination, ushort size);

    private protected byte HeaderType => RecordHeaderTypes.For(Kind, PointerSize);
}

/// <summary>
/// A kernel (NT Kernel Logger) record: SYSTEM_TRACE_HEADER (full or compact) or PERFINFO_TRACE_HEADER.
/// Layouts: ntwmi.h SYSTEM_TRACE_HEADER / PERFINFO_TRACE_HEADER; etl-format-and-traceprocessing.md §2.2.
/// </summary>
public sealed class KernelRecord : TraceRecord
{
    private readonly RecordKind _kind = RecordKind.System;

    public override RecordKind Kind => _kind;

    /// <summary>System, Compact or PerfInfo.</summary>
    public required RecordKind HeaderKind
    {
        get => _kind;
        init => _kind = value is RecordKind.System or RecordKind.Compact or RecordKind.PerfInfo
            ? value
            : throw new ArgumentException($"a kernel record cannot have a {value} header");
    }

    /// <summary>Event group (high byte of the HookId), e.g. 0x05 Thread.</summary>
    public required byte Group { get; init; }

    /// <summary>Event type / opcode (low byte of the HookId), e.g. 36 CSwitch.</summary>
    public required byte Type { get; init; }

    public required ushort Version { get; init; }

    /// <summary>Not written in PERFINFO headers.</summary>
    public uint ThreadId { get; init; }

    /// <summary>Not written in PERFINFO headers.</summary>
    public uint ProcessId { get; init; }

    /// <summary>Only in full SYSTEM headers.</summary>
    public uint KernelTime { get; init; }

    /// <summary>Only in full SYSTEM headers.</summary>
    public uint UserTime { get; init; }

    private protected override void WriteHeader(Span<byte> d, ushort size)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(d, Version);
        d[2] = HeaderType;
        d[3] = 0xC0; // TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE, as in every kernel record of the samples
        BinaryPrimitives.WriteUInt16LittleEndian(d[4..], size);
        d[6] = Type;
        d[7] = Group;
        if (Kind == RecordKind.PerfInfo)
        {
            BinaryPrimitives.WriteInt64LittleEndian(d[8..], Timestamp);
            return;
        }
        BinaryPrimitives.WriteUInt32LittleEndian(d[8..], ThreadId);
        BinaryPrimitives.WriteUInt32LittleEndian(d[12..], ProcessId);
        BinaryPrimitives.WriteInt64LittleEndian(d[16..], Timestamp);
        if (Kind == RecordKind.System)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(d[24..], KernelTime);
            BinaryPrimitives.WriteUInt32LittleEndian(d[28..], UserTime);
        }
    }
}

/// <summary>EVENT_DESCRIPTOR of a manifest-based event (evntprov.h).</summary>
public readonly record struct EventDescriptor(
    ushort Id, byte Version, byte Channel, byte Level, byte Opcode, ushort Task, ulong Keywords);

/// <summary>One EVENT_HEADER_EXTENDED_DATA_ITEM (evntcons.h): its type and data.</summary>
public sealed record ExtendedDataItem(ushort ExtType, byte[] Data)
{
    public const ushort RelatedActivityId = 1;
    public const ushort StackTrace32 = 5;
    public const ushort StackTrace64 = 6;
}

/// <summary>
/// A manifest / TraceLogging event with an EVENT_HEADER (evntcons.h; etl-format-and-traceprocessing.md §2.2):
/// u16 Size; u16 HeaderType; u16 Flags; u16 EventProperty; u32 ThreadId; u32 ProcessId; i64 TimeStamp;
/// GUID ProviderId; EVENT_DESCRIPTOR; u64 ProcessorTime; GUID ActivityId; then extended items, then user data.
/// </summary>
public sealed class ManifestRecord : TraceRecord
{
    public const ushort FlagExtendedInfo = 0x0001;

    public override RecordKind Kind => RecordKind.EventHeader;

    public required Guid ProviderId { get; init; }
    public required EventDescriptor Descriptor { get; init; }
    public uint ThreadId { get; init; }
    public uint ProcessId { get; init; }

    /// <summary>
    /// EVENT_HEADER Flags without EXTENDED_INFO (added when <see cref="ExtendedData"/> is not empty). The
    /// 32/64-bit header flags stay clear: none of the real samples sets them (OpenTrace derives them).
    /// </summary>
    public ushort Flags { get; init; }

    public ushort EventProperty { get; init; }
    public ulong ProcessorTime { get; init; }
    public Guid ActivityId { get; init; }
    public IReadOnlyList<ExtendedDataItem> ExtendedData { get; init; } = [];

    /// <summary>The Flags value as written.</summary>
    public ushort WrittenFlags => (ushort)(ExtendedData.Count > 0 ? Flags | FlagExtendedInfo : Flags & ~FlagExtendedInfo);

    internal override int ExtensionSize => ExtendedData.Sum(e => 8 + Align8(e.Data.Length));

    private static int Align8(int n) => (n + 7) & ~7;

    private protected override void WriteHeader(Span<byte> d, ushort size)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(d, size);
        d[2] = HeaderType;
        d[3] = 0xC0;
        BinaryPrimitives.WriteUInt16LittleEndian(d[4..], WrittenFlags);
        BinaryPrimitives.WriteUInt16LittleEndian(d[6..], EventProperty);
        BinaryPrimitives.WriteUInt32LittleEndian(d[8..], ThreadId);
        BinaryPrimitives.WriteUInt32LittleEndian(d[12..], ProcessId);
        BinaryPrimitives.WriteInt64LittleEndian(d[16..], Timestamp);
        ProviderId.TryWriteBytes(d[24..40]);
        BinaryPrimitives.WriteUInt16LittleEndian(d[40..], Descriptor.Id);
        d[42] = Descriptor.Version;
        d[43] = Descriptor.Channel;
        d[44] = Descriptor.Level;
        d[45] = Descriptor.Opcode;
        BinaryPrimitives.WriteUInt16LittleEndian(d[46..], Descriptor.Task);
        BinaryPrimitives.WriteUInt64LittleEndian(d[48..], Descriptor.Keywords);
        BinaryPrimitives.WriteUInt64LittleEndian(d[56..], ProcessorTime);
        ActivityId.TryWriteBytes(d[64..80]);
        var offset = 80;
        for (var i = 0; i < ExtendedData.Count; i++)
        {
            var item = ExtendedData[i];
            if (item.Data.Length > ushort.MaxValue) throw new InvalidOperationException("extended data item too large");
            d.Slice(offset, 8 + Align8(item.Data.Length)).Clear();
            BinaryPrimitives.WriteUInt16LittleEndian(d[(offset + 2)..], item.ExtType);
            // Linkage bit: another item follows.
            BinaryPrimitives.WriteUInt16LittleEndian(d[(offset + 4)..], (ushort)(i + 1 < ExtendedData.Count ? 1 : 0));
            BinaryPrimitives.WriteUInt16LittleEndian(d[(offset + 6)..], (ushort)item.Data.Length);
            item.Data.CopyTo(d[(offset + 8)..]);
            offset += 8 + Align8(item.Data.Length);
        }
    }
}

/// <summary>
/// A classic (MOF / TraceEvent) event: EVENT_TRACE_HEADER, or EVENT_INSTANCE_GUID_HEADER when
/// <see cref="HeaderKind"/> is Instance (evntrace.h; etl-format-and-traceprocessing.md §2.2). KernelTraceControl's
/// ImageID/DbgID events in merged traces use this kind.
/// </summary>
public sealed class ClassicRecord : TraceRecord
{
    private readonly RecordKind _kind = RecordKind.Classic;

    public override RecordKind Kind => _kind;

    /// <summary>Classic or Instance.</summary>
    public RecordKind HeaderKind
    {
        get => _kind;
        init => _kind = value is RecordKind.Classic or RecordKind.Instance
            ? value
            : throw new ArgumentException($"a classic record cannot have a {value} header");
    }

    public required Guid EventGuid { get; init; }

    /// <summary>Class.Type: the opcode.</summary>
    public required byte Type { get; init; }

    public byte Level { get; init; }
    public required ushort Version { get; init; }
    public uint ThreadId { get; init; }
    public uint ProcessId { get; init; }
    public uint KernelTime { get; init; }
    public uint UserTime { get; init; }
    public uint InstanceId { get; init; }
    public uint ParentInstanceId { get; init; }
    public Guid ParentGuid { get; init; }

    private protected override void WriteHeader(Span<byte> d, ushort size)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(d, size);
        d[2] = HeaderType;
        d[3] = 0xC0;
        d[4] = Type;
        d[5] = Level;
        BinaryPrimitives.WriteUInt16LittleEndian(d[6..], Version);
        BinaryPrimitives.WriteUInt32LittleEndian(d[8..], ThreadId);
        BinaryPrimitives.WriteUInt32LittleEndian(d[12..], ProcessId);
        BinaryPrimitives.WriteInt64LittleEndian(d[16..], Timestamp);
        EventGuid.TryWriteBytes(d[24..40]);
        BinaryPrimitives.WriteUInt32LittleEndian(d[40..], KernelTime);
        BinaryPrimitives.WriteUInt32LittleEndian(d[44..], UserTime);
        if (Kind == RecordKind.Instance)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(d[48..], InstanceId);
            BinaryPrimitives.WriteUInt32LittleEndian(d[52..], ParentInstanceId);
            ParentGuid.TryWriteBytes(d[56..72]);
        }
    }
}
