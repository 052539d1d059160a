using HiddenCost.Symbols.Store;

namespace HiddenCost.Symbols.Resolution;

/// <summary>Where the resolver looks for PDBs, and whether it may download them.</summary>
public sealed record SymbolResolverOptions
{
    /// <summary>The symbol path (see <see cref="SymbolPath.Resolve"/>); null: no symbols, every lookup is unresolved.</summary>
    public SymbolPath? Path { get; init; }

    /// <summary>When true, symbol servers are not asked; local folders, stores and caches are still read.</summary>
    public bool Offline { get; init; }

    public SymbolServerOptions Servers { get; init; } = new();

    /// <summary>The HTTP client for symbol servers (one is made when null).</summary>
    public HttpClient? HttpClient { get; init; }
}
