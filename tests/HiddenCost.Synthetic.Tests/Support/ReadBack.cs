using HiddenCost.Etl;
using HiddenCost.Etl.Header;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Synthetic.Tests.Support;

/// <summary>An event as the project's reader delivered it, copied out of the reader's buffers.</summary>
internal sealed record ReadEvent(
    RecordHeaderKind Kind, bool Is64Bit, long RawTimestamp, long TimeNs, int Cpu, int ThreadId, int ProcessId,
    Guid ProviderId, byte Group, byte Opcode, ushort EventId, byte Version, byte Level, byte Channel, ushort Task,
    ulong Keywords, ushort EventFlags, byte[] Payload, byte[] ExtendedData)
{
    public bool Is(byte group, byte opcode) =>
        Kind is RecordHeaderKind.System or RecordHeaderKind.Compact or RecordHeaderKind.PerfInfo && Group == group && Opcode == opcode;

    public bool IsManifest(Guid provider, ushort id) => Kind == RecordHeaderKind.EventHeader && ProviderId == provider && EventId == id;

    public PayloadCursor Cursor() => new(Payload, Is64Bit ? 8 : 4);
}

/// <summary>Reads a trace through <see cref="EtlReader"/> into memory.</summary>
internal static class ReadBack
{
    public static (TraceHeader Header, List<ReadEvent> Events, TraceHealth Health) File(string path)
    {
        using var reader = EtlReader.Open(path);
        var events = new List<ReadEvent>();
        foreach (var e in reader.ReadEvents())
        {
            events.Add(new ReadEvent(e.Kind, e.Is64Bit, e.RawTimestamp, e.TimeNs, e.Cpu, e.ThreadId, e.ProcessId, e.ProviderId, e.Group,
                e.Opcode, e.EventId, e.Version, e.Level, e.Channel, e.Task, e.Keywords, e.EventFlags, e.Payload.ToArray(), e.ExtendedData.ToArray()));
        }
        return (reader.Header, events, reader.Health);
    }

    public static (TraceHeader Header, List<ReadEvent> Events, TraceHealth Health) Bytes(byte[] bytes)
    {
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-synthetic-{Environment.ProcessId}-{Guid.NewGuid():N}.etl");
        System.IO.File.WriteAllBytes(path, bytes);
        try
        {
            return File(path);
        }
        finally
        {
            System.IO.File.Delete(path);
        }
    }
}
