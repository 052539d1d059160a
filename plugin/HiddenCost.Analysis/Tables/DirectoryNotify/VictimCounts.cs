namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>What one process changed in one watched directory, and the demand-zero faults it took meanwhile.</summary>
internal sealed class VictimCounts
{
    public long Operations, Creates, Deletes, Renames, DemandZeroFaults;

    /// <summary>CPU sampled in the kernel's notify-buffer path (FsRtlNotify*) while another process watched (needs kernel symbols).</summary>
    public long NotifyCpuNs;

    public void Add(VictimCounts other)
    {
        Operations += other.Operations;
        Creates += other.Creates;
        Deletes += other.Deletes;
        Renames += other.Renames;
        DemandZeroFaults += other.DemandZeroFaults;
        NotifyCpuNs += other.NotifyCpuNs;
    }
}
