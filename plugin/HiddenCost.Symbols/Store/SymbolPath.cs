using System.Runtime.InteropServices;

namespace HiddenCost.Symbols.Store;

/// <summary>
/// A symbol path as Windows tools read it (<c>_NT_SYMBOL_PATH</c>): <c>;</c>-separated elements, each a plain folder,
/// <c>cache*DIR</c>, <c>srv*DIR*URL</c>, <c>srv*URL</c> or <c>symsrv*symsrv.dll*DIR*URL</c>. A server's downloads go to
/// its own first folder, else the path's first <c>cache*DIR</c>, else the default cache.
/// </summary>
public sealed class SymbolPath
{
    private SymbolPath(string text, IReadOnlyList<SymbolPathElement> elements, string cache)
    {
        Text = text;
        Elements = elements;
        Cache = cache;
    }

    /// <summary>Where PDBs expanded from local <c>.pd_</c> files go: the path's first <c>cache*DIR</c>, else the default cache.</summary>
    public string Cache { get; }

    public string Text { get; }
    public IReadOnlyList<SymbolPathElement> Elements { get; }

    /// <summary>True when an element names an HTTP(S) symbol server.</summary>
    public bool NamesServer => Elements.Any(e => e is ServerElement { Url: not null });

    /// <summary>
    /// The path to use: <paramref name="explicitPath"/> (a command-line option) when given, else
    /// <c>_NT_ALT_SYMBOL_PATH</c> and <c>_NT_SYMBOL_PATH</c> (in that order, as dbghelp searches them), else null: no symbols.
    /// </summary>
    public static SymbolPath? Resolve(string? explicitPath, Func<string, string?> environment)
    {
        if (!string.IsNullOrWhiteSpace(explicitPath)) return Parse(explicitPath, environment);
        var joined = string.Join(";", new[] { environment("_NT_ALT_SYMBOL_PATH"), environment("_NT_SYMBOL_PATH") }
            .Where(p => !string.IsNullOrWhiteSpace(p)));
        return joined.Length == 0 ? null : Parse(joined, environment);
    }

    public static SymbolPath Parse(string text, Func<string, string?> environment)
    {
        var parts = text.Split(';', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        var defaultCache = DefaultCache(environment);
        string? firstCache = null;
        foreach (var part in parts)
            if (part.StartsWith("cache*", StringComparison.OrdinalIgnoreCase))
            {
                firstCache = NonEmpty(part["cache*".Length..]) ?? defaultCache;
                break;
            }
        var elements = new List<SymbolPathElement>();
        foreach (var part in parts)
        {
            var fields = part.Split('*');
            var head = fields[0].ToLowerInvariant();
            if (fields.Length == 1) elements.Add(new FolderElement(part));
            else if (head == "cache") elements.Add(new CacheElement(NonEmpty(fields[1]) ?? defaultCache));
            else if (head is "srv" or "symsrv")
            {
                // symsrv*symsrv.dll*DIR*URL names the DLL that dbghelp would load; the rest reads as srv*DIR*URL.
                var rest = fields.Skip(head == "symsrv" ? 2 : 1).Select(f => f.Trim()).ToList();
                string? url = rest.Count > 0 && IsUrl(rest[^1]) ? rest[^1] : null;
                var stores = (url is null ? rest : rest[..^1]).Where(s => s.Length > 0).ToList();
                string cache = stores.FirstOrDefault() ?? firstCache ?? defaultCache;
                if (url is not null && stores.Count == 0) stores.Add(cache);
                elements.Add(new ServerElement(stores, url?.TrimEnd('/'), cache));
            }
            else elements.Add(new FolderElement(part)); // an unknown keyword: dbghelp reads it as a folder too
        }
        return new SymbolPath(text, elements, firstCache ?? defaultCache);
    }

    /// <summary><c>$XDG_CACHE_HOME/hiddencost/symbols</c> (else <c>~/.cache/…</c>) on Linux and macOS, <c>%LOCALAPPDATA%\HiddenCost\Symbols</c> on Windows.</summary>
    public static string DefaultCache(Func<string, string?> environment)
    {
        if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
        {
            var local = NonEmpty(environment("LOCALAPPDATA")) ?? Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData);
            return Path.Combine(local, "HiddenCost", "Symbols");
        }
        var xdg = NonEmpty(environment("XDG_CACHE_HOME"));
        var home = NonEmpty(environment("HOME")) ?? Environment.GetFolderPath(Environment.SpecialFolder.UserProfile);
        return xdg is not null && Path.IsPathRooted(xdg)
            ? Path.Combine(xdg, "hiddencost", "symbols")
            : Path.Combine(home, ".cache", "hiddencost", "symbols");
    }

    private static bool IsUrl(string s) =>
        s.StartsWith("http://", StringComparison.OrdinalIgnoreCase) || s.StartsWith("https://", StringComparison.OrdinalIgnoreCase);

    private static string? NonEmpty(string? s) => string.IsNullOrWhiteSpace(s) ? null : s.Trim();

    public override string ToString() => Text;
}
