using HiddenCost.Etl;
using HiddenCost.Etl.State;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;

namespace HiddenCost.Analysis.Tests.Support;

/// <summary>
/// A synthetic trace saved to a temporary file, and a temporary symbol store holding a synthetic PDB stamped with the
/// identity the trace gives its kernel (ntoskrnl.exe), with the given publics. Deleted on dispose.
/// </summary>
internal sealed class KernelPdbFixture : IDisposable
{
    public KernelPdbFixture(byte[] trace, string name, IReadOnlyList<(string Name, uint Rva)> publics)
    {
        TracePath = Path.Combine(Path.GetTempPath(), $"hiddencost-{name}-{Guid.NewGuid():N}.etl");
        File.WriteAllBytes(TracePath, trace);
        using (var reader = EtlReader.Open(trace, name + ".etl"))
            foreach (var e in reader.ReadEvents()) State.Observe(e);
        var kernel = State.ImagesOf(0).Single(i => i.FileName == "ntoskrnl.exe").Pdb!.Value;
        Key = new PdbKey(kernel.PdbName, kernel.Signature, kernel.Age);
        Store = Path.Combine(Path.GetTempPath(), $"hiddencost-store-{Guid.NewGuid():N}");
        Directory.CreateDirectory(Path.Combine(Store, Key.PdbName, Key.Signature));
        File.WriteAllBytes(Path.Combine(Store, Key.StorePath), SyntheticPdbWriter.Write(Key.Guid, Key.Age, publics));
    }

    public string TracePath { get; }
    public string Store { get; }
    public PdbKey Key { get; }

    /// <summary>The trace's state (images, threads) as the reader saw it.</summary>
    public TraceState State { get; } = new();

    public SymbolResolver Resolver() => new(new SymbolResolverOptions { Path = SymbolPath.Parse($"srv*{Store}", _ => null) });

    public void Dispose()
    {
        File.Delete(TracePath);
        Directory.Delete(Store, recursive: true);
    }
}
