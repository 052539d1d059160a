namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// A watched directory: its file key for one era of names (the kernel reuses the key, as an address, once the
/// directory is closed). Identity is the instance.
/// </summary>
internal sealed class WatchedDirectory(ulong key)
{
    public ulong Key { get; } = key;

    /// <summary>Its name while watched, once its key has been given another name.</summary>
    public string? Name;

    /// <summary>The tracker's stamp of the last fault or change counted for it.</summary>
    public long CountedStamp;

    /// <summary>Its watches still active.</summary>
    public readonly List<WatchHandle> ActiveWatches = new(1);

    /// <summary>The processes of <see cref="ActiveWatches"/>, once asked; cleared when a watch starts or ends.</summary>
    public WatchingProcesses? Watchers;
}
