using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;

namespace HiddenCost.Cli;

/// <summary>
/// The run's symbol resolver from <c>--symbols PATH</c> (which wins) or <c>_NT_SYMBOL_PATH</c>: null when neither names
/// a path (nothing is looked for, frames stay <c>module+0xRVA</c>). Symbol servers are asked unless <c>--offline</c>.
/// </summary>
internal static class CliSymbols
{
    /// <param name="downloads">Receives the downloads' progress (the interactive bar), or null.</param>
    public static SymbolResolver? Create(string? symbolPath, bool offline, IProgress<SymbolDownloadProgress>? downloads = null) =>
        SymbolPath.Resolve(symbolPath, Environment.GetEnvironmentVariable) is { } path
            ? new SymbolResolver(new SymbolResolverOptions { Path = path, Offline = offline, Servers = new SymbolServerOptions { Progress = downloads } })
            : null;
}
