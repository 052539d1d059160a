using HiddenCost.Analysis;
using HiddenCost.Etl;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa;

/// <summary>
/// Native names in WPA: the symbol path is WPA's own (<c>_NT_SYMBOL_PATH</c>); local folders, stores and caches on it
/// are read. Symbol servers on it are asked only when the user sets the processor option <see cref="AllowDownloads"/>
/// (off by default): opening a trace must not start downloads unasked. Without a symbol path nothing is looked for.
/// </summary>
internal static class WpaSymbols
{
    /// <summary>The processor option that lets the plugin download PDBs from the symbol servers on the symbol path.</summary>
    public static readonly Option AllowDownloads = new("symbol-downloads", "symbol-downloads")
    {
        Description = "Download PDBs from the symbol servers on _NT_SYMBOL_PATH (srv*…*URL) into its cache; without it only local folders and caches are read.",
    };

    /// <summary>Whether the options WPA passed set <see cref="AllowDownloads"/>.</summary>
    public static bool DownloadsAllowed(ProcessorOptions? options) =>
        options?.Options?.Any(o => Equals(o.Id, AllowDownloads.Id)) == true;

    /// <summary>How the processor analyses a trace under these options.</summary>
    /// <param name="environment">Reads an environment variable (the symbol path); the process's own in WPA, a test's own in tests.</param>
    public static AnalyzeTrace For(ProcessorOptions? options, Func<string, string?> environment)
    {
        bool offline = !DownloadsAllowed(options);
        return (path, tables, progress, cancellationToken) => Analyze(path, tables, progress, cancellationToken, offline, environment);
    }

    /// <param name="tables">The tables WPA enabled (only their analyses run), or null for all.</param>
    public static AnalysisResult Analyze(string path, IEnumerable<Guid>? tables, IProgress<double>? progress, CancellationToken cancellationToken) =>
        Analyze(path, tables, progress, cancellationToken, offline: true, Environment.GetEnvironmentVariable);

    private static AnalysisResult Analyze(string path, IEnumerable<Guid>? tables, IProgress<double>? progress, CancellationToken cancellationToken,
        bool offline, Func<string, string?> environment)
    {
        using var symbols = SymbolPath.Resolve(null, environment) is { } symbolPath
            ? new SymbolResolver(new SymbolResolverOptions { Path = symbolPath, Offline = offline })
            : null;
        return TraceAnalyzer.Analyze(new TraceFileName(path, path), tables, thresholds: null, progress, cancellationToken, symbols);
    }
}
