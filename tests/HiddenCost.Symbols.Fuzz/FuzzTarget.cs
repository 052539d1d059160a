using HiddenCost.Symbols.Cab;
using HiddenCost.Symbols.Pdb;

namespace HiddenCost.Symbols.Fuzz;

/// <summary>
/// What one fuzzer input goes through: a cabinet (it starts with MSCF) is expanded, the way a compressed
/// <c>name.pd_</c> from a symbol store is; anything else is opened as a PDB, its identity read, its publics indexed,
/// and addresses over its code sections looked up. <see cref="SymbolFormatException"/> is a fine answer; any other
/// exception escapes, and the fuzzer records the input as a crash.
/// </summary>
internal static class FuzzTarget
{
    public enum Result { Rejected, Read }

    /// <summary>Caps what a cabinet may expand to, so a tiny input that claims gigabytes does not fill the disk or the memory.</summary>
    private const long MaxExpandedBytes = 64L << 20;

    public static Result Run(byte[] input)
    {
        try
        {
            return input.AsSpan().StartsWith("MSCF"u8) ? Expand(input) : ReadPdb(input);
        }
        catch (SymbolFormatException)
        {
            return Result.Rejected;
        }
    }

    private static Result ReadPdb(byte[] input)
    {
        using var pdb = PdbFile.Open(new MemoryStream(input, writable: false), "fuzz-input.pdb");
        long sum = pdb.Guid.GetHashCode() + pdb.Age + pdb.InfoAge + pdb.Machine;
        var publics = pdb.ReadPublics();
        foreach (var section in publics.Sections)
        {
            // The section's start, a few addresses inside, its end and past it.
            for (ulong rva = section.VirtualAddress; rva <= (ulong)section.VirtualAddress + section.Size + 1 && rva <= uint.MaxValue; rva += Math.Max(1, section.Size / 16))
                if (publics.FunctionAt((uint)rva) is { } name) sum += name.Length;
        }
        for (int i = 0; i < publics.Count; i++) sum += publics.RvaAt(i) + publics.NameAt(i).Length;
        GC.KeepAlive(sum);
        return Result.Read;
    }

    private static Result Expand(byte[] input)
    {
        using var output = new CappedStream(MaxExpandedBytes);
        CabinetReader.Expand(new MemoryStream(input, writable: false), "fuzz-input.pd_", null, output);
        return Result.Read;
    }

    /// <summary>Counts what is written and drops it; more than the cap is refused as a <see cref="SymbolFormatException"/>.</summary>
    private sealed class CappedStream(long cap) : Stream
    {
        private long _length;
        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => _length;
        public override long Position { get => _length; set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count)
        {
            _length += count;
            if (_length > cap) throw new SymbolFormatException("fuzz-input.pd_", $"expands past the fuzzer's cap of {cap} bytes");
        }
    }
}
