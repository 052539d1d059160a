namespace HiddenCost.Synthetic.Etl;

/// <summary>
/// The six record header kinds (etl-format-and-traceprocessing.md §2.2). The 32/64-bit variant of each
/// comes from the record's pointer size.
/// </summary>
public enum RecordKind
{
    /// <summary>SYSTEM_TRACE_HEADER, 32 bytes: HeaderType 1 / 2.</summary>
    System,
    /// <summary>Compact SYSTEM_TRACE_HEADER without kernel/user time, 24 bytes: HeaderType 3 / 4.</summary>
    Compact,
    /// <summary>PERFINFO_TRACE_HEADER, 16 bytes, no thread or process: HeaderType 16 / 17.</summary>
    PerfInfo,
    /// <summary>EVENT_HEADER (manifest / TraceLogging), 80 bytes: HeaderType 18 / 19.</summary>
    EventHeader,
    /// <summary>EVENT_TRACE_HEADER (classic MOF events), 48 bytes: HeaderType 10 / 20.</summary>
    Classic,
    /// <summary>EVENT_INSTANCE_GUID_HEADER, 72 bytes: HeaderType 11 / 21.</summary>
    Instance,
}

/// <summary>Header type bytes (byte 2 of every record) per kind and pointer size.</summary>
public static class RecordHeaderTypes
{
    public static byte For(RecordKind kind, int pointerSize) => (kind, pointerSize) switch
    {
        (RecordKind.System, 4) => 1,
        (RecordKind.System, 8) => 2,
        (RecordKind.Compact, 4) => 3,
        (RecordKind.Compact, 8) => 4,
        (RecordKind.PerfInfo, 4) => 16,
        (RecordKind.PerfInfo, 8) => 17,
        (RecordKind.EventHeader, 4) => 18,
        (RecordKind.EventHeader, 8) => 19,
        (RecordKind.Classic, 4) => 10,
        (RecordKind.Classic, 8) => 20,
        (RecordKind.Instance, 4) => 11,
        (RecordKind.Instance, 8) => 21,
        _ => throw new ArgumentException($"no header type for {kind} with pointer size {pointerSize}"),
    };

    public static int HeaderSize(RecordKind kind) => kind switch
    {
        RecordKind.System => 32,
        RecordKind.Compact => 24,
        RecordKind.PerfInfo => 16,
        RecordKind.EventHeader => 80,
        RecordKind.Classic => 48,
        RecordKind.Instance => 72,
        _ => throw new ArgumentOutOfRangeException(nameof(kind)),
    };
}
