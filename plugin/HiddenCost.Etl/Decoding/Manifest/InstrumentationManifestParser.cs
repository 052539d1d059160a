using System.Globalization;
using HiddenCost.Etl.Decoding.Schema;

namespace HiddenCost.Etl.Decoding.Manifest;

/// <summary>What an instrumentation manifest describes: its provider, its events' schemas and its value maps.</summary>
public sealed record ParsedManifest(Guid ProviderId, string ProviderName, IReadOnlyList<EventSchema> Schemas, IReadOnlyList<ValueMap> Maps,
    IReadOnlyList<string> Problems);

/// <summary>
/// Reads an instrumentation manifest (the XML of a provider's events, as an EventSource logs it in its ManifestData
/// events) into schemas the generic decoder uses: <c>provider</c> (name, guid), <c>tasks</c>, <c>opcodes</c>
/// (also a task's own), <c>maps</c> (valueMap, bitMap; messages from the first string table), <c>templates</c>
/// (<c>data</c> with inType, outType, map, count and length as a number or an earlier field's name; <c>struct</c>
/// with its members) and <c>events</c> (value, version, task, opcode, template, symbol), each named task/opcode as
/// TraceEvent and TDH name them (the symbol only when it has neither). Events whose template cannot be used are left
/// out and named in <see cref="ParsedManifest.Problems"/>; the rest of the manifest still counts. The XML comes from
/// the trace, so no DTD, entity or external reference is read, and its size, nesting and event count are bounded;
/// a template's fields are shared by the events using it, so the work stays in proportion to the XML.
/// </summary>
public static class InstrumentationManifestParser
{
    /// <summary>The largest manifest read (a real EventSource's is tens of kilobytes).</summary>
    public const int MaxBytes = 8 << 20;

    /// <summary>The most events read from one manifest (the catalogue holds at most as many schemas).</summary>
    public const int MaxEvents = SchemaCatalog.MaxSchemas;

    private const int MaxDepth = 8;
    // Real manifests nest about ten elements deep (structs add up to MaxDepth); deeper XML is not a manifest, and is
    // refused where the read reaches that depth, before more of it is kept.
    private const int MaxXmlDepth = 32;
    // EventSource's elements have at most about ten attributes; XmlReader's time grows with the square of their number.
    private const int MaxAttributes = 256;
    private const int MaxProblems = 20;

    // Manifests of some shipped EventSources hold this text unescaped in an attribute; TraceEvent escapes it too.
    private static ReadOnlySpan<byte> UnescapedCommand => "<OnEventCommand>"u8;

    /// <returns>The manifest, or null with a reason when it is not one this parser can use at all.</returns>
    public static ParsedManifest? Parse(byte[] utf8, out string? error)
    {
        error = null;
        if (utf8.Length > MaxBytes)
        {
            error = $"manifest is {utf8.Length:N0} bytes, more than the {MaxBytes:N0} read";
            return null;
        }
        var root = ManifestXml.Read(Escaped(utf8), MaxXmlDepth, MaxAttributes, MaxBytes, out error);
        if (root is null) return null;
        var provider = root.FirstDescendant("provider");
        if (provider is null || !Guid.TryParse(provider.Attribute("guid"), out var providerId))
        {
            error = provider is null ? "manifest names no provider" : $"manifest's provider guid '{provider.Attribute("guid")}' is not a GUID";
            return null;
        }
        var reading = new Reading(providerId, provider.Attribute("name"), Strings(root));
        reading.Read(provider);
        return new ParsedManifest(providerId, reading.ProviderName, reading.Schemas, reading.Maps, reading.Problems);
    }

    private static byte[] Escaped(byte[] utf8)
    {
        if (utf8.AsSpan().IndexOf(UnescapedCommand) < 0) return utf8;
        var text = System.Text.Encoding.UTF8.GetString(utf8).Replace("<OnEventCommand>", "&lt;OnEventCommand&gt;", StringComparison.Ordinal);
        return System.Text.Encoding.UTF8.GetBytes(text);
    }

    private static IEnumerable<ManifestElement> Children(ManifestElement? parent, string name) =>
        parent is null ? Array.Empty<ManifestElement>() : parent.Children(name);

    /// <summary>The first string table's messages (EventSource writes one, en-US), by id.</summary>
    private static Dictionary<string, string> Strings(ManifestElement root)
    {
        var strings = new Dictionary<string, string>(StringComparer.Ordinal);
        var table = root.FirstDescendant("stringTable");
        if (table is null) return strings;
        foreach (var entry in table.Children("string")) strings.TryAdd(entry.Attribute("id"), entry.Attribute("value"));
        return strings;
    }

    /// <summary>A decimal or 0x-hexadecimal number of 64 bits at most.</summary>
    private static bool TryUnsigned(string text, out ulong value)
    {
        text = text.Trim();
        if (text.StartsWith("0x", StringComparison.OrdinalIgnoreCase))
            return ulong.TryParse(text.AsSpan(2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out value);
        return ulong.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value);
    }

    /// <summary>A number from 0 to <paramref name="max"/>.</summary>
    private static bool TryNumber(string text, long max, out long value)
    {
        bool ok = TryUnsigned(text, out ulong number) && number <= (ulong)max;
        value = ok ? (long)number : 0;
        return ok;
    }

    /// <summary>The predefined opcodes of winmeta.xml, by the names manifests use.</summary>
    private static readonly Dictionary<string, byte> StandardOpcodes = new(StringComparer.Ordinal)
    {
        ["win:Info"] = 0, ["win:Start"] = 1, ["win:Stop"] = 2, ["win:DC_Start"] = 3, ["win:DC_Stop"] = 4, ["win:Extension"] = 5,
        ["win:Reply"] = 6, ["win:Resume"] = 7, ["win:Suspend"] = 8, ["win:Send"] = 9, ["win:Receive"] = 240,
    };

    private static readonly Dictionary<string, FieldInType> InTypes = new(StringComparer.Ordinal)
    {
        ["win:UnicodeString"] = FieldInType.UnicodeString, ["win:AnsiString"] = FieldInType.AnsiString, ["win:Int8"] = FieldInType.Int8,
        ["win:UInt8"] = FieldInType.UInt8, ["win:Int16"] = FieldInType.Int16, ["win:UInt16"] = FieldInType.UInt16, ["win:Int32"] = FieldInType.Int32,
        ["win:UInt32"] = FieldInType.UInt32, ["win:Int64"] = FieldInType.Int64, ["win:UInt64"] = FieldInType.UInt64, ["win:Float"] = FieldInType.Float,
        ["win:Double"] = FieldInType.Double, ["win:Boolean"] = FieldInType.Boolean, ["win:Binary"] = FieldInType.Binary, ["win:GUID"] = FieldInType.Guid,
        ["win:Pointer"] = FieldInType.Pointer, ["win:FILETIME"] = FieldInType.FileTime, ["win:SYSTEMTIME"] = FieldInType.SystemTime,
        ["win:SID"] = FieldInType.Sid, ["win:HexInt32"] = FieldInType.HexInt32, ["win:HexInt64"] = FieldInType.HexInt64,
        ["win:CountedUnicodeString"] = FieldInType.TdhCountedString, ["win:CountedAnsiString"] = FieldInType.TdhCountedAnsiString,
    };

    private static readonly Dictionary<string, ushort> OutTypes = new(StringComparer.Ordinal)
    {
        ["xs:string"] = FieldOutType.String, ["xs:dateTime"] = FieldOutType.DateTime, ["xs:byte"] = FieldOutType.Byte,
        ["xs:unsignedByte"] = FieldOutType.UnsignedByte, ["xs:short"] = FieldOutType.Short, ["xs:unsignedShort"] = FieldOutType.UnsignedShort,
        ["xs:int"] = FieldOutType.Int, ["xs:unsignedInt"] = FieldOutType.UnsignedInt, ["xs:long"] = FieldOutType.Long,
        ["xs:unsignedLong"] = FieldOutType.UnsignedLong, ["xs:float"] = FieldOutType.Float, ["xs:double"] = FieldOutType.Double,
        ["xs:boolean"] = FieldOutType.Boolean, ["xs:GUID"] = FieldOutType.Guid, ["xs:hexBinary"] = FieldOutType.HexBinary,
        ["win:HexInt8"] = FieldOutType.HexInt8, ["win:HexInt16"] = FieldOutType.HexInt16, ["win:HexInt32"] = FieldOutType.HexInt32,
        ["win:HexInt64"] = FieldOutType.HexInt64, ["win:PID"] = FieldOutType.Pid, ["win:TID"] = FieldOutType.Tid, ["win:Port"] = FieldOutType.Port,
        ["win:IPv4"] = FieldOutType.IPv4, ["win:IPv6"] = FieldOutType.IPv6, ["win:SocketAddress"] = FieldOutType.SocketAddress,
        ["win:CIMDateTime"] = FieldOutType.CimDateTime, ["win:ETWTIME"] = FieldOutType.EtwTime, ["win:Xml"] = FieldOutType.Xml,
        ["win:ErrorCode"] = FieldOutType.ErrorCode,
    };

    /// <summary>One manifest's reading: names first (tasks, opcodes, maps), then templates, then the events using them.</summary>
    private sealed class Reading
    {
        private readonly Guid _providerId;
        private readonly Dictionary<string, string> _strings;
        private readonly Dictionary<string, (ushort Value, Dictionary<string, byte> Opcodes)> _tasks = new(StringComparer.Ordinal);
        private readonly Dictionary<string, byte> _opcodes = new(StandardOpcodes, StringComparer.Ordinal);
        private readonly Dictionary<string, Template?> _templates = new(StringComparer.Ordinal);
        private readonly Dictionary<string, ManifestElement> _templateElements = new(StringComparer.Ordinal);

        public Reading(Guid providerId, string providerName, Dictionary<string, string> strings)
        {
            _providerId = providerId;
            ProviderName = providerName;
            _strings = strings;
        }

        public string ProviderName { get; }
        public List<EventSchema> Schemas { get; } = new();
        public List<ValueMap> Maps { get; } = new();
        public List<string> Problems { get; } = new();

        public void Read(ManifestElement provider)
        {
            foreach (var opcode in Children(provider.Child("opcodes"), "opcode")) AddOpcode(_opcodes, opcode);
            foreach (var task in Children(provider.Child("tasks"), "task"))
            {
                if (!TryNumber(task.Attribute("value"), ushort.MaxValue, out long value)) continue;
                var own = new Dictionary<string, byte>(StringComparer.Ordinal);
                foreach (var opcode in Children(task.Child("opcodes"), "opcode")) AddOpcode(own, opcode);
                _tasks.TryAdd(task.Attribute("name"), ((ushort)value, own));
            }
            var maps = provider.Child("maps");
            foreach (var map in maps?.Elements ?? Array.Empty<ManifestElement>())
                if (map.Name is "valueMap" or "bitMap") Maps.Add(ReadMap(map));
            foreach (var template in Children(provider.Child("templates"), "template"))
                _templateElements.TryAdd(template.Attribute("tid"), template);
            int events = 0;
            foreach (var e in Children(provider.Child("events"), "event"))
            {
                if (++events > MaxEvents)
                {
                    Problem($"more than {MaxEvents:N0} events; the rest left out");
                    break;
                }
                ReadEvent(e);
            }
        }

        private static void AddOpcode(Dictionary<string, byte> opcodes, ManifestElement opcode)
        {
            if (TryNumber(opcode.Attribute("value"), byte.MaxValue, out long value)) opcodes[opcode.Attribute("name")] = (byte)value;
        }

        private ValueMap ReadMap(ManifestElement map)
        {
            var entries = new List<(uint, string)>();
            // An enum's negative values are written as 64-bit two's complement (-1: 0xffffffffffffffff); payloads hold
            // them in 32 bits. Other values beyond 32 bits (a ulong flags enum's high bits) have no 32-bit key: left
            // out, not cut to one (1 << 32 would name 0).
            foreach (var entry in Children(map, "map"))
                if (TryUnsigned(entry.Attribute("value"), out ulong value) && (value <= uint.MaxValue || value >= 0xFFFF_FFFF_8000_0000UL))
                    entries.Add(((uint)value, Message(entry.Attribute("message"))));
            return new ValueMap(map.Attribute("name"), map.Name == "bitMap", entries);
        }

        /// <summary>A <c>$(string.id)</c> reference's text from the string table; other text as it is.</summary>
        private string Message(string message)
        {
            if (message.StartsWith("$(string.", StringComparison.Ordinal) && message.EndsWith(')'))
            {
                string id = message[9..^1];
                return _strings.TryGetValue(id, out var text) ? text : id;
            }
            return message;
        }

        private void ReadEvent(ManifestElement e)
        {
            if (!TryNumber(e.Attribute("value"), ushort.MaxValue, out long id))
            {
                Problem($"event '{e.Attribute("value")}': its value is not an event id");
                return;
            }
            long version = 0;
            if (e.AttributeOrNull("version") is not null && !TryNumber(e.Attribute("version"), byte.MaxValue, out version))
            {
                Problem($"event {id}: version '{e.Attribute("version")}' is not a number from 0 to 255");
                return;
            }
            string taskName = e.Attribute("task"), opcodeName = e.Attribute("opcode");
            ushort task = 0;
            byte opcode = 0;
            Dictionary<string, byte>? taskOpcodes = null;
            if (_tasks.TryGetValue(taskName, out var t)) (task, taskOpcodes) = t;
            if (opcodeName.Length > 0 && !(taskOpcodes?.TryGetValue(opcodeName, out opcode) ?? false)) _opcodes.TryGetValue(opcodeName, out opcode);
            var template = Template.Empty;
            string tid = e.Attribute("template");
            if (tid.Length > 0)
            {
                var found = TemplateNamed(tid);
                if (found is null)
                {
                    // An unusable template has said why already; this names the event left out.
                    Problem(_templateElements.ContainsKey(tid) ? $"event {id}: template '{tid}' cannot be used; event left out" : $"event {id}: template '{tid}' is missing; event left out");
                    return;
                }
                template = found;
            }
            string shownOpcode = opcodeName.StartsWith("win:", StringComparison.Ordinal) ? opcodeName[4..] : opcodeName;
            string eventName = TraceEventInfoParser.EventNameOf(taskName, shownOpcode);
            if (eventName.Length == 0) eventName = e.Attribute("symbol");
            Schemas.Add(new EventSchema(SchemaSource.EventSourceManifest, _providerId, ProviderName, eventName, template.Fields, template.FlatCount, template.Referenced)
            {
                EventId = (ushort)id,
                Version = (byte)version,
                Opcode = opcode,
                Task = task,
                TaskName = taskName,
                OpcodeName = shownOpcode,
            });
        }

        private Template? TemplateNamed(string tid)
        {
            if (_templates.TryGetValue(tid, out var known)) return known;
            Template? built = null;
            if (_templateElements.TryGetValue(tid, out var element))
            {
                int index = 0;
                var fields = Members(element, ref index, 0, tid);
                if (fields is not null) built = new Template(fields, index, EventSchema.ReferencedFields(fields, index));
            }
            _templates[tid] = built;
            return built;
        }

        /// <summary>The data and struct elements of a template or struct, in payload order, numbered in flat order.</summary>
        private SchemaField[]? Members(ManifestElement parent, ref int index, int depth, string tid)
        {
            if (depth > MaxDepth)
            {
                Problem($"template '{tid}': structs nested deeper than {MaxDepth}");
                return null;
            }
            var fields = new List<SchemaField>();
            // Counts and lengths name fields of the same level that come earlier (the decoder reads them first).
            var byName = new Dictionary<string, int>(StringComparer.Ordinal);
            foreach (var element in parent.Elements)
            {
                string kind = element.Name;
                if (kind is not ("data" or "struct")) continue;
                string name = element.Attribute("name");
                int own = index++;
                if (!Size(element, "count", byName, tid, name, out var countKind, out int count, out int countField)) return null;
                SchemaField field;
                if (kind == "struct")
                {
                    var members = Members(element, ref index, depth + 1, tid);
                    if (members is null) return null;
                    field = new SchemaField(name, own, FieldInType.Struct, 0)
                    {
                        CountKind = countKind, Count = count, CountFieldIndex = countField, Members = members,
                    };
                }
                else
                {
                    if (!InTypes.TryGetValue(element.Attribute("inType"), out var inType))
                    {
                        Problem($"template '{tid}': field '{name}' has in-type '{element.Attribute("inType")}', which is not known");
                        return null;
                    }
                    if (!Size(element, "length", byName, tid, name, out var lengthKind, out int length, out int lengthField)) return null;
                    if (lengthKind == FieldCountKind.Fixed && inType is not (FieldInType.UnicodeString or FieldInType.AnsiString or FieldInType.Binary))
                        (lengthKind, length) = (FieldCountKind.Single, 0); // a length on a number says what it already is
                    OutTypes.TryGetValue(element.Attribute("outType"), out ushort outType);
                    string map = element.Attribute("map");
                    field = new SchemaField(name, own, inType, outType)
                    {
                        CountKind = countKind, Count = count, CountFieldIndex = countField,
                        LengthKind = lengthKind switch
                        {
                            FieldCountKind.Fixed => FieldLengthKind.Fixed,
                            FieldCountKind.FromField => FieldLengthKind.FromField,
                            _ => FieldLengthKind.Natural,
                        },
                        Length = lengthKind == FieldCountKind.Fixed ? length : 0,
                        LengthFieldIndex = lengthField,
                        MapName = map.Length > 0 ? map : null,
                    };
                }
                fields.Add(field);
                byName.TryAdd(name, own);
            }
            return fields.ToArray();
        }

        /// <summary>
        /// A count or length attribute: absent (Single), a number (Fixed; a count of 1 is one value), or an earlier
        /// field's name (FromField).
        /// </summary>
        private bool Size(ManifestElement element, string attribute, Dictionary<string, int> earlier, string tid, string name,
            out FieldCountKind kind, out int value, out int field)
        {
            (kind, value, field) = (FieldCountKind.Single, 1, -1);
            string text = element.Attribute(attribute);
            if (text.Length == 0) return true;
            if (TryUnsigned(text, out ulong number))
            {
                if (number > ushort.MaxValue)
                {
                    Problem($"template '{tid}': field '{name}' has {attribute} {number}, beyond 65,535");
                    return false;
                }
                if (attribute == "count" && number == 1) return true;
                (kind, value) = (FieldCountKind.Fixed, (int)number);
                return true;
            }
            if (!earlier.TryGetValue(text, out field))
            {
                Problem($"template '{tid}': field '{name}' takes its {attribute} from '{text}', which is not an earlier field");
                return false;
            }
            kind = FieldCountKind.FromField;
            return true;
        }

        private void Problem(string text)
        {
            if (Problems.Count < MaxProblems) Problems.Add(text);
        }
    }

    /// <summary>A template's fields, shared by every event that uses it.</summary>
    private sealed record Template(SchemaField[] Fields, int FlatCount, bool[] Referenced)
    {
        public static readonly Template Empty = new(Array.Empty<SchemaField>(), 0, Array.Empty<bool>());
    }
}
