namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// One row of Directory Notify Victims: one process that changed files in one watched directory. Its members are the
/// columns of <see cref="DirectoryNotifyTables"/>, in order; rows are built with named arguments, so no two figures can
/// swap places unseen.
/// </summary>
public sealed record NotifyVictimRow(
    string Process, long? Pid, string Directory, long FileOperations, long Creates, long Deletes, long Renames,
    long DemandZeroFaults, long Watchers, double? NotifyCpuMs);
