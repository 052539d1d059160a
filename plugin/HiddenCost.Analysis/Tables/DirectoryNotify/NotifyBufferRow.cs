namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// One row of Directory Notify Buffers: one watcher (process, directory, buffer size). Its members are the columns of
/// <see cref="DirectoryNotifyTables"/>, in order; rows are built with named arguments, so no two figures can swap
/// places unseen.
/// </summary>
public sealed record NotifyBufferRow(
    string Process, long? Pid, string Directory, long BufferBytes, long Arms, long Completions, long Overflows,
    long BytesReturned, double? MeanBytesPerCompletion, double? UtilisationPercent, long BytesZeroed, string VictimProcesses,
    long? RecommendedBufferBytes, long FirstArm, long? LastCompletion, long WatchEnd);
