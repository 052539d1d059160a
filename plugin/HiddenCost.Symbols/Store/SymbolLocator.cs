using System.Runtime.CompilerServices;
using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Symbols.Store;

/// <summary>A file that may be the PDB asked for (its identity is checked when it is opened), and where it came from.</summary>
internal readonly record struct SymbolCandidate(string Path, string Source);

/// <summary>
/// Walks a symbol path for one PDB, element by element, and yields each file that may be it: local folders and
/// stores first where they stand in the path, servers (downloading into their cache) only when reached, so a
/// match found earlier costs no download. Compressed copies are expanded into the cache; <c>file.ptr</c>s followed.
/// What was looked at and missed is added to the notes.
/// </summary>
internal sealed class SymbolLocator(SymbolPath path, SymbolServerClient? servers)
{
    private readonly string _cache = path.Cache;

    public async IAsyncEnumerable<SymbolCandidate> FindAsync(PdbKey key, List<string> notes, [EnumeratorCancellation] CancellationToken cancel)
    {
        foreach (var element in path.Elements)
        {
            var (stores, flat, url, cache) = element switch
            {
                FolderElement f => ((IReadOnlyList<string>)[f.Folder], true, null, _cache),
                CacheElement c => ([c.Folder], false, null, c.Folder),
                ServerElement s => (s.Stores, false, s.Url, s.Cache),
                _ => throw new InvalidOperationException(element.ToString()),
            };
            foreach (var store in stores)
                foreach (var entry in StoreLayout.Find(store, key, flat))
                    if (await MaterializeAsync(entry, key, cache, notes).ConfigureAwait(false) is { } candidate)
                        yield return candidate;
            if (url is null) continue;
            if (servers is null)
            {
                notes.Add($"{url}: not asked (offline)");
                continue;
            }
            var (downloaded, note) = await servers.FetchAsync(url, key, cache, cancel).ConfigureAwait(false);
            if (downloaded is null) notes.Add(note);
            else yield return new SymbolCandidate(downloaded, note);
        }
    }

    private async Task<SymbolCandidate?> MaterializeAsync(StoreEntry entry, PdbKey key, string cache, List<string> notes)
    {
        switch (entry.Kind)
        {
            case StoreEntryKind.Pdb:
                return new SymbolCandidate(entry.Path, entry.Path);
            case StoreEntryKind.Compressed:
                return new SymbolCandidate(await CabinetExpansion.ExpandAsync(entry.Path, key, cache).ConfigureAwait(false), entry.Path);
            default:
                var pointer = FilePointer.Parse(await File.ReadAllTextAsync(entry.Path).ConfigureAwait(false));
                if (pointer.Target is null)
                {
                    notes.Add($"{entry.Path}: {pointer.Message}");
                    return null;
                }
                if (pointer.IsUrl)
                {
                    notes.Add($"{entry.Path} points to {pointer.Target}, a URL a local store does not follow");
                    return null;
                }
                if (!File.Exists(pointer.Target))
                {
                    notes.Add($"{entry.Path} points to {pointer.Target}, which is not there");
                    return null;
                }
                return pointer.Target.EndsWith('_')
                    ? new SymbolCandidate(await CabinetExpansion.ExpandAsync(pointer.Target, key, cache).ConfigureAwait(false), pointer.Target)
                    : new SymbolCandidate(pointer.Target, pointer.Target);
        }
    }
}
