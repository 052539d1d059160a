using HiddenCost.Etl;
using HiddenCost.Etl.State;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;

namespace HiddenCost.TestSupport;

/// <summary>
/// A synthetic trace saved to a temporary file, and a temporary symbol store to which synthetic PDBs are added, each
/// stamped with the identity (DbgID_RSDS) the trace gives an image of that name. Both deleted on dispose.
/// </summary>
public sealed class SyntheticPdbStore : IDisposable
{
    public SyntheticPdbStore(byte[] trace, string name)
    {
        TracePath = Path.Combine(Path.GetTempPath(), $"hiddencost-{name}-{Guid.NewGuid():N}.etl");
        File.WriteAllBytes(TracePath, trace);
        using (var reader = EtlReader.Open(trace, name + ".etl"))
            foreach (var e in reader.ReadEvents()) State.Observe(e);
        Store = Path.Combine(Path.GetTempPath(), $"hiddencost-store-{Guid.NewGuid():N}");
        Directory.CreateDirectory(Store);
    }

    public string TracePath { get; }
    public string Store { get; }

    /// <summary>The trace's state (images, threads) as the reader saw it.</summary>
    public TraceState State { get; } = new();

    /// <summary>The store key of the PDB the trace names for images called <paramref name="imageFileName"/>.</summary>
    public PdbKey KeyOf(string imageFileName)
    {
        var pdb = State.Images.First(i => i.FileName == imageFileName && i.Pdb is not null).Pdb!.Value;
        return new PdbKey(pdb.PdbName, pdb.Signature, pdb.Age);
    }

    /// <summary>Writes a synthetic PDB for <paramref name="imageFileName"/> with <paramref name="publics"/> into the store.</summary>
    public SyntheticPdbStore Add(string imageFileName, IReadOnlyList<(string Name, uint Rva)> publics)
    {
        var key = KeyOf(imageFileName);
        Directory.CreateDirectory(Path.Combine(Store, key.PdbName, key.Signature));
        File.WriteAllBytes(Path.Combine(Store, key.StorePath), SyntheticPdbWriter.Write(key.Guid, key.Age, publics));
        return this;
    }

    public SymbolResolver Resolver() => new(new SymbolResolverOptions { Path = SymbolPath.Parse($"srv*{Store}", _ => null) });

    public void Dispose()
    {
        File.Delete(TracePath);
        Directory.Delete(Store, recursive: true);
    }
}
