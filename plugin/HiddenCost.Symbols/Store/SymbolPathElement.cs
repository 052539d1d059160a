namespace HiddenCost.Symbols.Store;

/// <summary>One <c>;</c>-separated element of a symbol path.</summary>
public abstract record SymbolPathElement;

/// <summary>A plain folder: PDBs directly in it, or in a symbol-store layout below it.</summary>
public sealed record FolderElement(string Folder) : SymbolPathElement;

/// <summary><c>cache*DIR</c> (or <c>cache*</c>: the default cache): a store searched where it stands, and where servers without a folder of their own save what they download.</summary>
public sealed record CacheElement(string Folder) : SymbolPathElement;

/// <summary>
/// <c>srv*DIR*URL</c>, <c>srv*URL</c>, <c>symsrv*symsrv.dll*DIR*URL</c>: stores searched in order (<paramref name="Stores"/>),
/// then the server at <paramref name="Url"/> (null when the last part is a folder, not http(s)), whose downloads go into
/// <paramref name="Cache"/>.
/// </summary>
public sealed record ServerElement(IReadOnlyList<string> Stores, string? Url, string Cache) : SymbolPathElement;
