using HiddenCost.Etl.State;
using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// Native function names for the analyses, from PDBs: an image's PDB is the one its KernelTraceControl DbgID_RSDS
/// record names (<see cref="ImageInfo.Pdb"/>), looked for through the run's <see cref="SymbolResolver"/> only when a
/// table asks about one of its addresses, each image once. Without a resolver (no symbol path) every answer is
/// null and the tables name code as <c>module+0xRVA</c>, as they always have.
/// </summary>
public sealed class SymbolNames
{
    private readonly SymbolResolver? _resolver;
    private readonly TraceState _state;
    private readonly object _lock = new();
    private readonly Dictionary<ImageInfo, ModuleSymbols?> _images = new(ReferenceEqualityComparer.Instance);
    private readonly Dictionary<string, ModuleSymbols?> _kernelModules = new(StringComparer.OrdinalIgnoreCase);
    private readonly HashSet<PdbKey> _needed = new();

    public SymbolNames(SymbolResolver? resolver, TraceState state)
    {
        _resolver = resolver;
        _state = state;
    }

    /// <summary>True when the run has a symbol path: names may resolve.</summary>
    public bool Available => _resolver is not null;

    /// <summary>What became of each PDB asked for (for a Symbols table and notes); empty without a resolver.</summary>
    public IReadOnlyList<PdbStatus> Statuses => _resolver?.Statuses ?? [];

    /// <summary>Whether a table asked for a name in an image whose PDB is <paramref name="pdb"/> (with or without a symbol path).</summary>
    public bool Needed(PdbKey pdb)
    {
        lock (_lock) return _needed.Contains(pdb);
    }

    /// <summary><c>module!Function</c> for an address in <paramref name="image"/>, or null.</summary>
    public string? Name(ImageInfo image, ulong address)
    {
        if (!image.Contains(address)) return null;
        if (_resolver is null)
        {
            // Nothing to look in, but the Symbols table says which PDBs would have named a frame.
            if (image.Pdb is { } wanted) lock (_lock) _needed.Add(Key(wanted));
            return null;
        }
        ModuleSymbols? module;
        lock (_lock)
            if (!_images.TryGetValue(image, out module))
                _images[image] = module = image.Pdb is { } pdb ? _resolver.GetModule(image.FileName, Key(pdb)) : null;
        return module?.Resolve((uint)(address - image.ImageBase));
    }

    /// <summary>
    /// <c>module!Function</c> for an RVA in the kernel module named <paramref name="moduleFileName"/> (the last one of
    /// that name with a PDB identity), or null: the shape Syscall Hook Overhead asks for its Syscall column.
    /// </summary>
    public string? KernelSymbol(string moduleFileName, ulong rva)
    {
        if (rva > uint.MaxValue) return null;
        ModuleSymbols? module;
        lock (_lock)
            if (!_kernelModules.TryGetValue(moduleFileName, out module))
            {
                var image = _state.ImagesOf(0).LastOrDefault(i => i.Pdb is not null && string.Equals(i.FileName, moduleFileName, StringComparison.OrdinalIgnoreCase));
                if (image is not null) _needed.Add(Key(image.Pdb!.Value));
                _kernelModules[moduleFileName] = module = image is null || _resolver is null ? null : _resolver.GetModule(image.FileName, Key(image.Pdb!.Value));
            }
        return module?.Resolve((uint)rva);
    }

    /// <summary>
    /// A note naming the PDBs asked for that did not load, with their store keys and why (null when all loaded, or
    /// when the run has no symbol path): what to put on the symbol path for the names that are missing.
    /// </summary>
    public string? MissingNote(string what)
    {
        var missing = Statuses.Where(s => s.State != PdbState.Loaded).ToList();
        if (missing.Count == 0) return null;
        var each = missing.Select(s => $"{s.ImageFileName} needs {s.Pdb.StorePath}, {Describe(s.State)}{(s.Message is { } m ? $": {m}" : "")}");
        return $"{what} stay module+0xRVA where their PDB did not load: {string.Join("; ", each)}.";
    }

    private static string Describe(PdbState state) => state switch
    {
        PdbState.NotFound => "not found",
        PdbState.Mismatched => "mismatched",
        PdbState.Unreadable => "unreadable",
        _ => state.ToString(),
    };

    internal static PdbKey Key(PdbIdentity pdb) => new(pdb.PdbName, pdb.Signature, pdb.Age);
}
