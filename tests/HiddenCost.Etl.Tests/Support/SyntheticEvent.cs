using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>
/// Synthetic events for decoder tests: an <see cref="EtwEvent"/> over bytes built from the documented layouts
/// (the public samples hold no CSwitch, SysCl, Registry, FileIo operation or contention events).
/// </summary>
internal static class SyntheticEvent
{
    public static EtwEvent Kernel(byte group, byte opcode, byte version, byte[] payload, bool is64 = true,
        RecordHeaderKind kind = RecordHeaderKind.PerfInfo, long timestamp = 0, int threadId = -1, int processId = -1, long timeNs = -1, int cpu = 0)
    {
        var h = new RecordHeader(kind, is64, payload.Length, 0, 0, 0, timestamp, threadId, processId, Guid.Empty,
            group, opcode, 0, version, 0, 0, 0, 0, 0);
        return new EtwEvent(in new HeaderBox(h).Header, payload, timeNs < 0 ? timestamp : timeNs, cpu, threadId, processId, 0);
    }

    public static EtwEvent Manifest(Guid provider, ushort id, byte version, byte[] payload, bool is64 = true, byte[]? extended = null,
        long timestamp = 0, int threadId = 1, int processId = 1, long timeNs = -1, byte opcode = 0)
    {
        var ext = extended ?? Array.Empty<byte>();
        var record = ext.Concat(payload).ToArray();
        var h = new RecordHeader(RecordHeaderKind.EventHeader, is64, record.Length, ext.Length, 0, ext.Length, timestamp, threadId, processId,
            provider, 0, opcode, id, version, 4, 0, 0, 0, (ushort)(ext.Length > 0 ? 1 : 0));
        return new EtwEvent(in new HeaderBox(h).Header, record, timeNs < 0 ? timestamp : timeNs, 0, threadId, processId, 0);
    }

    public static EtwEvent Classic(Guid guid, byte opcode, byte version, byte[] payload, bool is64 = true, long timestamp = 0, int processId = 4)
    {
        var h = new RecordHeader(RecordHeaderKind.Classic, is64, payload.Length, 0, 0, 0, timestamp, -1, processId, guid,
            0, opcode, 0, version, 0, 0, 0, 0, 0);
        return new EtwEvent(in new HeaderBox(h).Header, payload, timestamp, 0, -1, processId, 0);
    }

    /// <summary>EtwEvent takes its header by reference; a heap box lets the event outlive this helper's frame.</summary>
    private sealed class HeaderBox(RecordHeader header)
    {
        public readonly RecordHeader Header = header;
    }

    /// <summary>One EVENT_HEADER extended data item: {u16 Reserved1; u16 ExtType; u16 Linkage; u16 DataSize} + data, padded to 8.</summary>
    public static byte[] ExtendedItem(ushort type, byte[] data, bool linked = false)
    {
        var item = new PayloadBuilder().U16(0).U16(type).U16((ushort)(linked ? 1 : 0)).U16((ushort)data.Length).Bytes(data);
        while (item.Length % 8 != 0) item.U8(0);
        return item.ToArray();
    }
}
