using System.Security.Cryptography;
using System.Text;

namespace HiddenCost.Analysis.Model;

/// <summary>
/// Column GUIDs derived from the table GUID and the column name (a name-based UUID, RFC 4122 version 5).
/// Names are already a public contract, so deriving from them keeps GUIDs stable without a hand-kept list;
/// a test pins known values so the derivation itself can never drift.
/// </summary>
public static class StableIds
{
    public static Guid Column(Guid tableId, string columnName)
    {
        Span<byte> ns = stackalloc byte[16];
        tableId.TryWriteBytes(ns, bigEndian: true, out _);
        var name = Encoding.UTF8.GetBytes(columnName);
        var input = new byte[16 + name.Length];
        ns.CopyTo(input);
        name.CopyTo(input, 16);
        Span<byte> hash = stackalloc byte[20];
        SHA1.HashData(input, hash);
        hash[6] = (byte)((hash[6] & 0x0F) | 0x50);
        hash[8] = (byte)((hash[8] & 0x3F) | 0x80);
        return new Guid(hash[..16], bigEndian: true);
    }
}
