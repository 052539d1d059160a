using System.Collections.Concurrent;
using System.Diagnostics;
using HiddenCost.Symbols.Pdb;
using HiddenCost.Symbols.Store;

namespace HiddenCost.Symbols.Resolution;

/// <summary>
/// Names native frames: given an image (its file name and the PDB its RSDS record names) and an address in it (as
/// an RVA), <c>module!Function</c>. Each PDB is looked for and loaded once, on first use, along the symbol path
/// (downloading from symbol servers unless offline); the image's <see cref="ModuleSymbols"/> then answers lookups
/// with a binary search. What became of each PDB (loaded, not found, mismatched, unreadable; from where; how many
/// publics; how long it took; how many frames it named) is in <see cref="Statuses"/>. Thread-safe.
/// </summary>
public sealed class SymbolResolver : IDisposable
{
    private sealed record LoadedPdb(PdbState State, string? Message, string? Source, PublicSymbolTable? Publics, double Milliseconds);

    private readonly SymbolLocator? _locator;
    private readonly SymbolServerClient? _servers;
    private readonly CancellationTokenSource _disposed = new();
    private readonly ConcurrentDictionary<PdbKey, Lazy<Task<LoadedPdb>>> _pdbs = new();
    private readonly ConcurrentDictionary<(string Image, PdbKey Pdb), Lazy<Task<ModuleSymbols>>> _modules = new();

    public SymbolResolver(SymbolResolverOptions options)
    {
        Options = options;
        if (options.Path is null) return;
        if (!options.Offline && options.Path.NamesServer) _servers = new SymbolServerClient(options.Servers, options.HttpClient);
        _locator = new SymbolLocator(options.Path, _servers);
    }

    public SymbolResolverOptions Options { get; }

    /// <summary><c>module!Function</c> for <paramref name="rva"/> in the image, or null (no PDB, or no public holds the address).</summary>
    public string? Resolve(string imageFileName, PdbKey pdb, uint rva) => GetModule(imageFileName, pdb).Resolve(rva);

    /// <summary>The image's symbols, loading its PDB the first time (callers doing many lookups keep the result).</summary>
    public ModuleSymbols GetModule(string imageFileName, PdbKey pdb) => GetModuleAsync(imageFileName, pdb).GetAwaiter().GetResult();

    public Task<ModuleSymbols> GetModuleAsync(string imageFileName, PdbKey pdb, CancellationToken cancel = default)
    {
        var name = FileName(imageFileName);
        var task = _modules.GetOrAdd((name.ToLowerInvariant(), pdb), _ => new Lazy<Task<ModuleSymbols>>(() => LoadModuleAsync(name, pdb))).Value;
        return cancel.CanBeCanceled ? task.WaitAsync(cancel) : task;
    }

    /// <summary>Loads the PDBs of several images at once (downloads run in parallel, within the servers' bound).</summary>
    public Task PreloadAsync(IEnumerable<(string ImageFileName, PdbKey Pdb)> images, CancellationToken cancel = default) =>
        Task.WhenAll(images.Select(i => GetModuleAsync(i.ImageFileName, i.Pdb, cancel)));

    /// <summary>Every image asked about whose PDB search has ended, by image name.</summary>
    public IReadOnlyList<PdbStatus> Statuses =>
        _modules.Values.Where(l => l.IsValueCreated && l.Value.IsCompletedSuccessfully).Select(l => l.Value.Result.Status)
            .OrderBy(s => s.ImageFileName, StringComparer.OrdinalIgnoreCase).ThenBy(s => s.Pdb.PdbName, StringComparer.OrdinalIgnoreCase).ToList();

    /// <summary>Symbol servers found down in this run, with why.</summary>
    public IReadOnlyDictionary<string, string> DownServers => _servers?.DownServers ?? new Dictionary<string, string>();

    private async Task<ModuleSymbols> LoadModuleAsync(string imageFileName, PdbKey pdb)
    {
        var loaded = await _pdbs.GetOrAdd(pdb, key => new Lazy<Task<LoadedPdb>>(() => Task.Run(() => LoadPdbAsync(key)))).Value.ConfigureAwait(false);
        return new ModuleSymbols(imageFileName, pdb, loaded.State, loaded.Message, loaded.Source, loaded.Publics, loaded.Milliseconds);
    }

    private async Task<LoadedPdb> LoadPdbAsync(PdbKey key)
    {
        long start = Stopwatch.GetTimestamp();
        if (_locator is null) return new LoadedPdb(PdbState.NotFound, "no symbol path", null, null, 0);
        var notes = new List<string>();
        var mismatches = new List<string>();
        (string Message, string Source)? unreadable = null;
        try
        {
            await foreach (var candidate in _locator.FindAsync(key, notes, _disposed.Token).ConfigureAwait(false))
            {
                try
                {
                    using var pdb = PdbFile.Open(candidate.Path);
                    if (!pdb.Matches(key.Guid, key.Age))
                    {
                        mismatches.Add($"{candidate.Source} is GUID {pdb.Guid:D} age {pdb.Age}");
                        continue;
                    }
                    var publics = pdb.ReadPublics();
                    return new LoadedPdb(PdbState.Loaded, null, candidate.Source, publics, ModuleSymbols.Since(start));
                }
                catch (Exception e) when (e is SymbolFormatException or IOException or UnauthorizedAccessException)
                {
                    unreadable ??= (e.Message, candidate.Source);
                }
            }
        }
        catch (Exception e) when (e is SymbolFormatException or IOException or UnauthorizedAccessException)
        {
            unreadable ??= (e.Message, e is SymbolFormatException f ? f.FilePath : "");
        }
        double ms = ModuleSymbols.Since(start);
        if (unreadable is { } u) return new LoadedPdb(PdbState.Unreadable, u.Message, u.Source, null, ms);
        if (mismatches.Count > 0)
            return new LoadedPdb(PdbState.Mismatched, $"wanted GUID {key.Guid:D} age {key.Age}; found only: {string.Join("; ", mismatches)}", null, null, ms);
        var looked = notes.Count > 0 ? $" ({string.Join("; ", notes)})" : "";
        return new LoadedPdb(PdbState.NotFound, $"not on the symbol path{looked}", null, null, ms);
    }

    private static string FileName(string path)
    {
        int slash = path.AsSpan().LastIndexOfAny('\\', '/'); // the array form allocated an array a call
        return slash < 0 ? path : path[(slash + 1)..];
    }

    public void Dispose()
    {
        _disposed.Cancel();
        _servers?.Dispose();
        _disposed.Dispose();
    }
}
