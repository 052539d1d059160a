using System.Buffers.Binary;
using System.Runtime.InteropServices;
using System.Text;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// Bounds-checked primitive reads from event payloads. Every read returns a default when the payload is too
/// short, so a record with missing trailing bytes decodes as far as it goes instead of throwing.
/// </summary>
public static class PayloadReader
{
    public static uint U32(ReadOnlySpan<byte> p, int offset) =>
        offset >= 0 && offset + 4 <= p.Length ? BinaryPrimitives.ReadUInt32LittleEndian(p[offset..]) : 0;

    public static int I32(ReadOnlySpan<byte> p, int offset) => (int)U32(p, offset);

    public static ushort U16(ReadOnlySpan<byte> p, int offset) =>
        offset >= 0 && offset + 2 <= p.Length ? BinaryPrimitives.ReadUInt16LittleEndian(p[offset..]) : (ushort)0;

    public static byte U8(ReadOnlySpan<byte> p, int offset) =>
        offset >= 0 && offset < p.Length ? p[offset] : (byte)0;

    public static ulong U64(ReadOnlySpan<byte> p, int offset) =>
        offset >= 0 && offset + 8 <= p.Length ? BinaryPrimitives.ReadUInt64LittleEndian(p[offset..]) : 0;

    public static long I64(ReadOnlySpan<byte> p, int offset) => (long)U64(p, offset);

    /// <summary>A pointer-sized field (4 or 8 bytes), zero-extended.</summary>
    public static ulong Pointer(ReadOnlySpan<byte> p, int offset, int pointerSize) =>
        pointerSize == 8 ? U64(p, offset) : U32(p, offset);

    public static Guid Guid(ReadOnlySpan<byte> p, int offset) =>
        offset >= 0 && offset + 16 <= p.Length ? new Guid(p.Slice(offset, 16)) : System.Guid.Empty;

    /// <summary>Reads a NUL-terminated UTF-16 string at <paramref name="offset"/> and moves past its terminator.</summary>
    public static string ReadUtf16String(ReadOnlySpan<byte> p, ref int offset)
    {
        if (offset < 0 || offset >= p.Length) return "";
        var rest = p[offset..];
        var chars = MemoryMarshal.Cast<byte, char>(rest[..(rest.Length & ~1)]);
        int end = chars.IndexOf('\0');
        int length = end < 0 ? chars.Length : end;
        offset += (length + (end < 0 ? 0 : 1)) * 2;
        return length == 0 ? "" : new string(chars[..length]);
    }

    /// <summary>Reads a NUL-terminated 8-bit string (ANSI/UTF-8) and moves past its terminator.</summary>
    public static string ReadAnsiString(ReadOnlySpan<byte> p, ref int offset)
    {
        if (offset < 0 || offset >= p.Length) return "";
        var rest = p[offset..];
        int end = rest.IndexOf((byte)0);
        int length = end < 0 ? rest.Length : end;
        offset += length + (end < 0 ? 0 : 1);
        return length == 0 ? "" : Encoding.UTF8.GetString(rest[..length]);
    }
}
