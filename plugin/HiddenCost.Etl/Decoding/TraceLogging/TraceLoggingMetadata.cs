using System.Buffers.Binary;
using System.Text;
using HiddenCost.Etl.Decoding.Schema;

namespace HiddenCost.Etl.Decoding.TraceLogging;

/// <summary>
/// Parses TraceLogging self-describing metadata (the EVENT_SCHEMA_TL extended item) into an
/// <see cref="EventSchema"/>. Layout (TraceLoggingProvider.h): u16 Size; tag bytes while bit 0x80;
/// UTF-8 event name, NUL-terminated; then per field: UTF-8 name; u8 InType (0x80: OutType follows;
/// 0x20 constant count, 0x40 variable count, 0x60 custom); [u8 OutType (0x80: tag bytes follow)];
/// [u16 count if constant count]; [u16 size + type info if custom]. A STRUCT's OutType is its member count,
/// and its members are the fields that follow.
/// </summary>
public static class TraceLoggingMetadata
{
    private const byte InChain = 0x80, InCountMask = 0x60, InConstantCount = 0x20, InVariableCount = 0x40, InCustom = 0x60, InTypeMask = 0x1F;
    private const int MaxDepth = 8;

    /// <returns>The schema, or null when the metadata is malformed.</returns>
    public static EventSchema? Parse(Guid providerId, string providerName, ReadOnlySpan<byte> metadata)
    {
        if (metadata.Length < 3) return null;
        int size = Math.Min(BinaryPrimitives.ReadUInt16LittleEndian(metadata), metadata.Length);
        var m = metadata[..size];
        int pos = 2;
        if (!SkipChain(m, ref pos)) return null;
        if (!ReadName(m, ref pos, out var eventName)) return null;
        int index = 0;
        var fields = new List<SchemaField>();
        while (pos < m.Length)
        {
            var field = ParseField(m, ref pos, ref index, 0);
            if (field is null) return null;
            fields.Add(field);
        }
        return new EventSchema(SchemaSource.TraceLogging, providerId, providerName, eventName, fields, index);
    }

    /// <summary>The provider name from a PROV_TRAITS extended item: u16 size; UTF-8 name, NUL-terminated; traits.</summary>
    public static string ProviderName(ReadOnlySpan<byte> traits)
    {
        if (traits.Length < 3) return "";
        int pos = 2;
        return ReadName(traits, ref pos, out var name) ? name : "";
    }

    private static SchemaField? ParseField(ReadOnlySpan<byte> m, ref int pos, ref int index, int depth)
    {
        if (depth > MaxDepth || !ReadName(m, ref pos, out var name) || pos >= m.Length) return null;
        byte inByte = m[pos++];
        byte outByte = 0;
        if ((inByte & InChain) != 0)
        {
            if (pos >= m.Length) return null;
            outByte = m[pos++];
            if ((outByte & 0x80) != 0 && !SkipChain(m, ref pos)) return null;
        }
        var inType = (FieldInType)(inByte & InTypeMask);
        ushort outType = (inByte & InTypeMask) == (byte)FieldInType.Struct ? (ushort)(outByte & 0x7F) : ToTdhOutType(outByte & 0x7F);
        var countKind = FieldCountKind.Single;
        int count = 1;
        switch (inByte & InCountMask)
        {
            case InConstantCount:
                if (pos + 2 > m.Length) return null;
                count = BinaryPrimitives.ReadUInt16LittleEndian(m[pos..]);
                pos += 2;
                countKind = FieldCountKind.Fixed;
                break;
            case InVariableCount:
                countKind = FieldCountKind.Prefixed;
                break;
            case InCustom:
                if (pos + 2 > m.Length) return null;
                int infoSize = BinaryPrimitives.ReadUInt16LittleEndian(m[pos..]);
                pos += 2 + infoSize;
                if (pos > m.Length) return null;
                // Custom-serialized values: u16 size then the bytes (the type info describes them; we keep them raw).
                return new SchemaField(name, index++, FieldInType.CountedBinary, outType);
        }
        int own = index++;
        if (inType == FieldInType.Struct)
        {
            int memberCount = outType;
            var members = new List<SchemaField>(memberCount);
            for (int i = 0; i < memberCount; i++)
            {
                var member = ParseField(m, ref pos, ref index, depth + 1);
                if (member is null) return null;
                members.Add(member);
            }
            return new SchemaField(name, own, inType, 0) { CountKind = countKind, Count = count, Members = members };
        }
        return new SchemaField(name, own, inType, outType)
        {
            CountKind = countKind,
            Count = count,
            LengthKind = inType == FieldInType.Binary ? FieldLengthKind.Prefixed : FieldLengthKind.Natural,
        };
    }

    /// <summary>TraceLogging numbers its out-types differently from TDH (TlgOut_t); map them to <see cref="FieldOutType"/>.</summary>
    private static ushort ToTdhOutType(int tlgOut) => tlgOut switch
    {
        2 => FieldOutType.String,
        3 => FieldOutType.Boolean,
        4 => FieldOutType.HexInt64,
        5 => FieldOutType.Pid,
        6 => FieldOutType.Tid,
        7 => FieldOutType.Port,
        8 => FieldOutType.IPv4,
        9 => FieldOutType.IPv6,
        10 => FieldOutType.SocketAddress,
        11 => FieldOutType.Xml,
        12 => FieldOutType.Json,
        13 => FieldOutType.Win32Error,
        14 => FieldOutType.NtStatus,
        15 => FieldOutType.HResult,
        16 => FieldOutType.DateTime,
        17 => FieldOutType.Int,
        18 => FieldOutType.UnsignedInt,
        35 => FieldOutType.Utf8,
        36 => FieldOutType.Pkcs7WithTypeInfo,
        37 => FieldOutType.CodePointer,
        38 => FieldOutType.DateTimeUtc,
        _ => FieldOutType.Null,
    };

    private static bool SkipChain(ReadOnlySpan<byte> m, ref int pos)
    {
        while (pos < m.Length)
        {
            if ((m[pos++] & 0x80) == 0) return true;
        }
        return false;
    }

    private static bool ReadName(ReadOnlySpan<byte> m, ref int pos, out string name)
    {
        name = "";
        if (pos >= m.Length) return false;
        int end = m[pos..].IndexOf((byte)0);
        if (end < 0) return false;
        name = Encoding.UTF8.GetString(m.Slice(pos, end));
        pos += end + 1;
        return true;
    }
}
