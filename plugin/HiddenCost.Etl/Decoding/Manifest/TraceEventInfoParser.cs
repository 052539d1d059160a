using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Manifest;

/// <summary>TRACE_EVENT_INFO.DecodingSource (tdh.h).</summary>
public enum DecodingSource : uint
{
    XmlFile = 0,
    Wbem = 1,
    Wpp = 2,
    TraceLogging = 3,
}

/// <summary>A parsed TRACE_EVENT_INFO: the schema plus the keys that select the events it describes.</summary>
public sealed record EventInfo(EventSchema Schema, Guid EventGuid, DecodingSource DecodingSource);

/// <summary>
/// Parses TRACE_EVENT_INFO (tdh.h), the payload of KernelTraceControl MetaData EventInfo events:
/// GUID ProviderGuid; GUID EventGuid; EVENT_DESCRIPTOR (u16 Id, u8 Version, u8 Channel, u8 Level, u8 Opcode,
/// u16 Task, u64 Keyword); u32 DecodingSource; u32 offsets of ProviderName, LevelName, ChannelName,
/// KeywordsName, TaskName, OpcodeName, EventMessage, ProviderMessage; u32 BinaryXMLOffset, BinaryXMLSize;
/// u32 EventNameOffset; u32 EventAttributesOffset; u32 PropertyCount; u32 TopLevelPropertyCount; u32 Flags;
/// then EVENT_PROPERTY_INFO[PropertyCount] (24 bytes each: u32 Flags; u32 NameOffset; u16 InType / StructStartIndex;
/// u16 OutType / NumOfStructMembers; u32 MapNameOffset; u16 count / countPropertyIndex; u16 length /
/// lengthPropertyIndex; u32 Reserved). Offsets are from the start of the structure; names are UTF-16.
/// </summary>
public static class TraceEventInfoParser
{
    private const int HeaderSize = 112;
    private const int PropertySize = 24;
    private const uint PropertyStruct = 0x1, PropertyParamLength = 0x2, PropertyParamCount = 0x4,
        PropertyParamFixedLength = 0x10, PropertyParamFixedCount = 0x20;
    private const int MaxDepth = 8;

    /// <returns>The parsed info, or null (with a reason) when the structure is malformed.</returns>
    public static EventInfo? Parse(ReadOnlySpan<byte> info, out string? error)
    {
        error = null;
        if (info.Length < HeaderSize)
        {
            error = $"TRACE_EVENT_INFO is {info.Length} bytes, {HeaderSize} at least expected";
            return null;
        }
        uint propertyCount = PayloadReader.U32(info, 100);
        uint topLevel = PayloadReader.U32(info, 104);
        if (propertyCount > (info.Length - HeaderSize) / PropertySize || topLevel > propertyCount)
        {
            error = $"TRACE_EVENT_INFO declares {propertyCount} properties ({topLevel} top-level), more than its {info.Length} bytes hold";
            return null;
        }
        var built = new SchemaField?[propertyCount];
        var fields = new List<SchemaField>((int)topLevel);
        for (int i = 0; i < topLevel; i++)
        {
            var field = Build(info, i, (int)propertyCount, built, 0, out error);
            if (field is null) return null;
            fields.Add(field);
        }
        var source = (DecodingSource)PayloadReader.U32(info, 48);
        string providerName = Name(info, 52);
        string taskName = Name(info, 68);
        string opcodeName = Name(info, 72);
        // EventNameOffset (92) is a union with ActivityIDNameOffset; only manifest-era infos name the event there.
        string eventName = source == DecodingSource.XmlFile ? Name(info, 92) : "";
        if (eventName.Length == 0) eventName = EventNameOf(taskName, opcodeName);
        var schema = new EventSchema(SchemaSource.EmbeddedManifest, PayloadReader.Guid(info, 0), providerName, eventName, fields, (int)propertyCount)
        {
            EventId = PayloadReader.U16(info, 32),
            Version = PayloadReader.U8(info, 34),
            Opcode = PayloadReader.U8(info, 37),
            Task = PayloadReader.U16(info, 38),
            TaskName = taskName,
            OpcodeName = opcodeName,
        };
        return new EventInfo(schema, PayloadReader.Guid(info, 16), source);
    }

    /// <summary>Task/Opcode as WPA shows them: the <c>win:</c> prefix dropped, and Info (the default opcode) omitted.</summary>
    internal static string EventNameOf(string task, string opcode)
    {
        if (opcode.StartsWith("win:", StringComparison.Ordinal)) opcode = opcode[4..];
        if (opcode is "Info") opcode = "";
        return task.Length == 0 ? opcode : opcode.Length == 0 ? task : task + "/" + opcode;
    }

    private static SchemaField? Build(ReadOnlySpan<byte> info, int index, int count, SchemaField?[] built, int depth, out string? error)
    {
        error = null;
        if (built[index] is { } done) return done;
        if (depth > MaxDepth)
        {
            error = $"property {index}: structs nested deeper than {MaxDepth}";
            return null;
        }
        int at = HeaderSize + index * PropertySize;
        uint flags = PayloadReader.U32(info, at);
        string name = NameAt(info, PayloadReader.U32(info, at + 4));
        ushort countValue = PayloadReader.U16(info, at + 16);
        ushort lengthValue = PayloadReader.U16(info, at + 18);
        var countKind = (flags & PropertyParamCount) != 0 ? FieldCountKind.FromField
            : countValue > 1 || (flags & PropertyParamFixedCount) != 0 ? FieldCountKind.Fixed
            : FieldCountKind.Single;
        if (countKind == FieldCountKind.FromField && countValue >= count)
        {
            error = $"property {index} ({name}): count refers to property {countValue} of {count}";
            return null;
        }
        SchemaField field;
        if ((flags & PropertyStruct) != 0)
        {
            int start = PayloadReader.U16(info, at + 8);
            int members = PayloadReader.U16(info, at + 10);
            if (start + members > count || (start <= index && index < start + members))
            {
                error = $"property {index} ({name}): struct members {start}..{start + members} out of range";
                return null;
            }
            var list = new List<SchemaField>(members);
            for (int m = start; m < start + members; m++)
            {
                var member = Build(info, m, count, built, depth + 1, out error);
                if (member is null) return null;
                list.Add(member);
            }
            field = new SchemaField(name, index, FieldInType.Struct, 0)
            {
                CountKind = countKind,
                Count = countKind == FieldCountKind.Fixed ? countValue : 1,
                CountFieldIndex = countKind == FieldCountKind.FromField ? countValue : -1,
                Members = list,
            };
        }
        else
        {
            var inType = (FieldInType)PayloadReader.U16(info, at + 8);
            bool sized = inType is FieldInType.UnicodeString or FieldInType.AnsiString or FieldInType.Binary
                or FieldInType.NonNullTerminatedString or FieldInType.NonNullTerminatedAnsiString;
            var lengthKind = (flags & PropertyParamLength) != 0 ? FieldLengthKind.FromField
                : sized && (lengthValue > 0 || (flags & PropertyParamFixedLength) != 0) ? FieldLengthKind.Fixed
                : FieldLengthKind.Natural;
            if (lengthKind == FieldLengthKind.FromField && lengthValue >= count)
            {
                error = $"property {index} ({name}): length refers to property {lengthValue} of {count}";
                return null;
            }
            uint mapOffset = PayloadReader.U32(info, at + 12);
            field = new SchemaField(name, index, inType, PayloadReader.U16(info, at + 10))
            {
                CountKind = countKind,
                Count = countKind == FieldCountKind.Fixed ? countValue : 1,
                CountFieldIndex = countKind == FieldCountKind.FromField ? countValue : -1,
                LengthKind = lengthKind,
                Length = lengthKind == FieldLengthKind.Fixed ? lengthValue : 0,
                LengthFieldIndex = lengthKind == FieldLengthKind.FromField ? lengthValue : -1,
                MapName = mapOffset != 0 ? NameAt(info, mapOffset) : null,
            };
        }
        built[index] = field;
        return field;
    }

    private static string Name(ReadOnlySpan<byte> info, int offsetField) => NameAt(info, PayloadReader.U32(info, offsetField));

    internal static string NameAt(ReadOnlySpan<byte> info, uint offset)
    {
        if (offset == 0 || offset >= info.Length) return "";
        int at = (int)offset;
        return PayloadStrings.Utf16(info, ref at, null).TrimEnd();
    }
}

/// <summary>
/// Parses the payload of KernelTraceControl MetaData EventMapInfo events: GUID ProviderId, then EVENT_MAP_INFO
/// (u32 NameOffset; u32 Flag; u32 EntryCount; u32 MapEntryValueType / FormatStringOffset; then
/// EVENT_MAP_ENTRY[EntryCount] {u32 OutputOffset; u32 Value}). Offsets are from the start of EVENT_MAP_INFO.
/// </summary>
public static class EventMapInfoParser
{
    private const uint ManifestBitMap = 0x2, WbemBitMap = 0x10, WbemFlag = 0x20;

    public static (Guid ProviderId, ValueMap Map)? Parse(ReadOnlySpan<byte> payload, out string? error)
    {
        error = null;
        if (payload.Length < 32)
        {
            error = $"EventMapInfo payload is {payload.Length} bytes, 32 at least expected";
            return null;
        }
        var provider = PayloadReader.Guid(payload, 0);
        var map = payload[16..];
        uint flags = PayloadReader.U32(map, 4);
        uint entries = PayloadReader.U32(map, 8);
        if (entries > (map.Length - 16) / 8)
        {
            error = $"EVENT_MAP_INFO declares {entries} entries, more than its {map.Length} bytes hold";
            return null;
        }
        var list = new List<(uint, string)>((int)entries);
        for (int i = 0; i < entries; i++)
        {
            int at = 16 + 8 * i;
            list.Add((PayloadReader.U32(map, at + 4), TraceEventInfoParser.NameAt(map, PayloadReader.U32(map, at))));
        }
        string name = TraceEventInfoParser.NameAt(map, PayloadReader.U32(map, 0));
        return (provider, new ValueMap(name, (flags & (ManifestBitMap | WbemBitMap | WbemFlag)) != 0, list));
    }
}
