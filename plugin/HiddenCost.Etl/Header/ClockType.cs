namespace HiddenCost.Etl.Header;

/// <summary>TRACE_LOGFILE_HEADER.ReservedFlags: the clock that stamps every event.</summary>
public enum ClockType
{
    Unknown = 0,
    QueryPerformanceCounter = 1,
    SystemTime = 2,
    CpuCycleCounter = 3,
}
