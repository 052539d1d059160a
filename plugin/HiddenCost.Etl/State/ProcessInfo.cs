namespace HiddenCost.Etl.State;

/// <summary>
/// One process instance. Process ids are reused, so a process is (pid, start): <see cref="StartTimeNs"/> is
/// the Start event's time, or <see cref="Lifetime.BeforeTrace"/> when the process was already running (known
/// from rundown). <see cref="EndTimeNs"/> is <see cref="Lifetime.AfterTrace"/> while it lives.
/// </summary>
public sealed class ProcessInfo
{
    internal ProcessInfo(int processId, long startTimeNs, int parentId, int sessionId, string imageName, string commandLine, ulong uniqueProcessKey)
    {
        ProcessId = processId;
        StartTimeNs = startTimeNs;
        ParentId = parentId;
        SessionId = sessionId;
        ImageName = imageName;
        CommandLine = commandLine;
        UniqueProcessKey = uniqueProcessKey;
    }

    public int ProcessId { get; }
    public long StartTimeNs { get; }
    public long EndTimeNs { get; internal set; } = Lifetime.AfterTrace;
    public int ParentId { get; }
    public int SessionId { get; }

    /// <summary>The executable's file name as the kernel logs it (e.g. <c>Test.x64.exe</c>).</summary>
    public string ImageName { get; }
    public string CommandLine { get; }
    public ulong UniqueProcessKey { get; }

    /// <summary>Exit status from the End event (null while running or unknown).</summary>
    public int? ExitStatus { get; internal set; }

    public bool StartedBeforeTrace => StartTimeNs == Lifetime.BeforeTrace;
    public bool IsAlive(long timeNs) => Lifetime.Contains(StartTimeNs, EndTimeNs, timeNs);

    public override string ToString() => $"{ImageName} ({ProcessId})";
}
