using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// One watch: a directory handle armed with one buffer size, from its first arm to its end (cancelled, closed, or
/// re-armed with another size), with what its completions returned.
/// </summary>
internal sealed class WatchHandle(ulong fileObject, WatchedDirectory directory, ProcessRef process, long bufferBytes, long firstArmNs)
{
    public ulong FileObject { get; } = fileObject;
    public WatchedDirectory Directory { get; } = directory;
    public ProcessRef Process { get; set; } = process;
    public long BufferBytes { get; } = bufferBytes;
    public long FirstArmNs { get; } = firstArmNs;
    public long EndNs = long.MaxValue;
    public long LastCompletionNs = -1;
    public long Arms, Completions, Overflows, BytesReturned, DataCompletions, LargestBatch;
}
