using HiddenCost.Symbols.Cab;
using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Symbols.Store;

/// <summary>Expands a compressed <c>name.pd_</c> into a store, atomically.</summary>
internal static class CabinetExpansion
{
    public static async Task<string> ExpandAsync(string cabinetPath, PdbKey key, string store)
    {
        var target = StoreLayout.StoredPath(store, key);
        await using var cabinet = new FileStream(cabinetPath, FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete, 1, FileOptions.RandomAccess);
        return await AtomicFile.WriteAsync(target, output =>
        {
            CabinetReader.Expand(cabinet, cabinetPath, key.PdbName, output);
            return Task.CompletedTask;
        }).ConfigureAwait(false);
    }
}
