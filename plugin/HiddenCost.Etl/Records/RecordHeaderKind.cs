namespace HiddenCost.Etl.Records;

/// <summary>The six record header kinds an ETL buffer holds (byte 2 of every record; evntrace.h TRACE_HEADER_TYPE_*).</summary>
public enum RecordHeaderKind : byte
{
    /// <summary>SYSTEM_TRACE_HEADER, full (types 1/2): kernel events with thread, process and CPU times.</summary>
    System = 1,
    /// <summary>SYSTEM_TRACE_HEADER, compact (types 3/4): kernel events without CPU times.</summary>
    Compact = 2,
    /// <summary>PERFINFO_TRACE_HEADER (types 16/17): kernel events with no thread or process id.</summary>
    PerfInfo = 3,
    /// <summary>EVENT_HEADER (types 18/19): manifest, TraceLogging and EventSource events.</summary>
    EventHeader = 4,
    /// <summary>EVENT_TRACE_HEADER (types 10/20): classic MOF events (also KernelTraceControl's).</summary>
    Classic = 5,
    /// <summary>EVENT_INSTANCE_GUID_HEADER (types 11/21).</summary>
    Instance = 6,
    /// <summary>MESSAGE_TRACE_HEADER (WPP / TraceMessage): skipped by size, counted.</summary>
    TraceMessage = 7,
}
