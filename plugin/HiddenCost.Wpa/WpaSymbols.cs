using HiddenCost.Analysis;
using HiddenCost.Etl;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;

namespace HiddenCost.Wpa;

/// <summary>
/// Native names in WPA: the symbol path is WPA's own (<c>_NT_SYMBOL_PATH</c>); local folders, stores and caches on it
/// are read, but nothing is downloaded — opening a trace must not start downloads unasked (an option to allow them
/// is not there yet). Without a symbol path nothing is looked for.
/// </summary>
internal static class WpaSymbols
{
    /// <param name="tables">The tables WPA enabled (only their analyses run), or null for all.</param>
    public static AnalysisResult Analyze(string path, IEnumerable<Guid>? tables, IProgress<double>? progress, CancellationToken cancellationToken)
    {
        using var symbols = SymbolPath.Resolve(null, Environment.GetEnvironmentVariable) is { } symbolPath
            ? new SymbolResolver(new SymbolResolverOptions { Path = symbolPath, Offline = true })
            : null;
        return TraceAnalyzer.Analyze(new TraceFileName(path, path), tables, thresholds: null, progress, cancellationToken, symbols);
    }
}
