using System.Diagnostics;
using HiddenCost.Symbols.Pdb;

namespace HiddenCost.Symbols.Resolution;

/// <summary>
/// One image's symbols: its PDB's publics (when they loaded) and the names made from them as
/// <c>module!Function</c>, each made once. Lookups are a binary search and, the first time, one string.
/// </summary>
public sealed class ModuleSymbols
{
    private readonly PublicSymbolTable? _publics;
    private readonly string?[] _frames;
    private long _resolved;

    internal ModuleSymbols(string imageFileName, PdbKey pdb, PdbState state, string? message, string? source, PublicSymbolTable? publics, double loadMilliseconds)
    {
        ImageFileName = imageFileName;
        Pdb = pdb;
        State = state;
        Message = message;
        Source = source;
        _publics = publics;
        _frames = new string?[publics?.Count ?? 0];
        LoadMilliseconds = loadMilliseconds;
    }

    public string ImageFileName { get; }
    public PdbKey Pdb { get; }
    public PdbState State { get; }

    /// <summary>Why the PDB did not load (not found where, mismatched how, unreadable why), or null when it loaded.</summary>
    public string? Message { get; }

    /// <summary>The file or URL the PDB came from.</summary>
    public string? Source { get; }

    public int Publics => _publics?.PublicCount ?? 0;
    public double LoadMilliseconds { get; }
    public long FramesResolved => Interlocked.Read(ref _resolved);

    /// <summary>The publics, when the PDB loaded.</summary>
    public PublicSymbolTable? Table => _publics;

    /// <summary><c>module!Function</c> for an address of the image (as an RVA), or null when no public names it.</summary>
    public string? Resolve(uint rva)
    {
        if (_publics is null) return null;
        int i = _publics.IndexOf(rva);
        if (i < 0) return null;
        Interlocked.Increment(ref _resolved);
        return _frames[i] ??= $"{ImageFileName}!{_publics.NameAt(i)}";
    }

    /// <summary>The function's name alone, or null.</summary>
    public string? FunctionAt(uint rva) => _publics?.FunctionAt(rva);

    public PdbStatus Status => new(ImageFileName, Pdb, State, Message, Source, Publics, LoadMilliseconds, FramesResolved);

    internal static double Since(long start) => Stopwatch.GetElapsedTime(start).TotalMilliseconds;
}
