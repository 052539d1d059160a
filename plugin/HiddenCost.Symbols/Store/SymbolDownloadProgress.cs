namespace HiddenCost.Symbols.Store;

/// <summary>A download's progress: bytes so far, the size when the server says it, and whether it has ended.</summary>
public readonly record struct SymbolDownloadProgress(string Url, long BytesReceived, long? TotalBytes, bool Completed);

/// <summary>How symbol servers are asked: how many downloads at once, how long to wait, whom to tell about progress.</summary>
public sealed record SymbolServerOptions
{
    /// <summary>Downloads at once, over all servers.</summary>
    public int MaxParallelDownloads { get; init; } = 4;

    /// <summary>How long a server may take to answer a request (until its headers). A server that does not answer in time is down for the rest of the run.</summary>
    public TimeSpan RequestTimeout { get; init; } = TimeSpan.FromSeconds(15);

    /// <summary>How long one file's download may take in all.</summary>
    public TimeSpan DownloadTimeout { get; init; } = TimeSpan.FromMinutes(10);

    public IProgress<SymbolDownloadProgress>? Progress { get; init; }
}
