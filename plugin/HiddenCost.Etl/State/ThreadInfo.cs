namespace HiddenCost.Etl.State;

/// <summary>One thread instance (thread ids are reused): (tid, start) with its process and its name once set.</summary>
public sealed class ThreadInfo
{
    internal ThreadInfo(int threadId, int processId, long startTimeNs, ulong win32StartAddress)
    {
        ThreadId = threadId;
        ProcessId = processId;
        StartTimeNs = startTimeNs;
        Win32StartAddress = win32StartAddress;
    }

    public int ThreadId { get; }
    public int ProcessId { get; }
    public long StartTimeNs { get; }
    public long EndTimeNs { get; internal set; } = Lifetime.AfterTrace;
    public ulong Win32StartAddress { get; }

    /// <summary>The name from Thread SetName (SetThreadDescription), or "".</summary>
    public string Name { get; internal set; } = "";

    public bool IsAlive(long timeNs) => Lifetime.Contains(StartTimeNs, EndTimeNs, timeNs);

    public override string ToString() => Name.Length > 0 ? $"{Name} ({ThreadId})" : ThreadId.ToString();
}
