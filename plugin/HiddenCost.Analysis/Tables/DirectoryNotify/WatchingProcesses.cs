using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>The processes watching a directory at some time, as the tracker was given them (one instance per set).</summary>
internal sealed class WatchingProcesses(ProcessRef[] processes)
{
    public ProcessRef[] Processes { get; } = processes;

    public bool IsOnly(ProcessRef process) => Processes.Length == 1 && Processes[0] == process;

    public static readonly IEqualityComparer<ProcessRef[]> ContentComparer = new Content();

    private sealed class Content : IEqualityComparer<ProcessRef[]>
    {
        public bool Equals(ProcessRef[]? a, ProcessRef[]? b) => a is not null && b is not null && a.AsSpan().SequenceEqual(b);

        public int GetHashCode(ProcessRef[] set)
        {
            var hash = new HashCode();
            foreach (var p in set) hash.Add(p);
            return hash.ToHashCode();
        }
    }
}
