using System.Security.Cryptography;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Decoding.Manifest;

/// <summary>
/// The manifest schemas a trace embeds, learned as the ordered stream passes: those of a merged trace
/// (KernelTraceControl MetaData EventInfo / EventMapInfo) and the manifests EventSources log about themselves
/// (ManifestData, event 0xFFFE). Feed every event to <see cref="Observe"/>, then ask <see cref="TryGetSchema"/>
/// for a manifest event's layout. The MetaData events of a provider come before its events in merged traces; an
/// EventSource logs its manifest when the session enables it, before its events. MetaData schemas win over an
/// EventSource's own (they are what TDH showed at merge time). Every process using an EventSource sends its
/// manifest, and sends it again at every enable: each different manifest is read, its events' schemas added to
/// those of the others (an event's id and version name one layout, so processes running different versions of a
/// source each find theirs; of two manifests describing one id and version, the later is kept). The runtime's own
/// ManifestData (.NET's NativeRuntimeEventSource, under the runtime provider's id) is not used: the runtime's events
/// have typed decoders and MetaData schemas, and TraceEvent ignores it too.
/// Built-in schemas can be added with <see cref="Add"/>; embedded ones win over them. Not thread-safe, lookups
/// included (they fill a cache): one catalog per pass.
/// </summary>
public sealed class SchemaCatalog : IValueMapSource
{
    public const int MaxSchemas = 1 << 16;

    private readonly Dictionary<(Guid Provider, ushort Id, byte Version), EventSchema> _manifest = new();
    private readonly Dictionary<(Guid EventGuid, byte Opcode, byte Version), EventSchema> _classic = new();
    private readonly Dictionary<(Guid Provider, string Name), ValueMap> _maps = new();
    private readonly List<string> _errors = new();
    private readonly EventSourceManifestAssembler _eventSourceChunks = new();
    private readonly Dictionary<Guid, string> _providerNames = new();
    // Value maps that came from EventSource manifests: a later manifest of the provider may replace them.
    private readonly HashSet<(Guid Provider, string Name)> _eventSourceMaps = new();
    // The digest of each provider's last manifest read: an EventSource sends the same manifest at every enable, and
    // reading it again would change nothing.
    private readonly Dictionary<Guid, byte[]> _lastManifests = new();

    // Most events of a trace come from a handful of (provider, id, version) triples and name a handful of value
    // maps; these small direct-mapped caches answer them without hashing a GUID and a tuple (or a string) for
    // every event. Any schema or map learned clears them.
    private const int CacheSize = 32;
    private readonly SchemaCacheEntry[] _schemaCache = new SchemaCacheEntry[CacheSize];
    private readonly MapCacheEntry[] _mapCache = new MapCacheEntry[CacheSize];

    /// <summary>MetaData EventInfo events seen.</summary>
    public int EventInfoEvents { get; private set; }

    /// <summary>MetaData EventMapInfo events seen.</summary>
    public int EventMapInfoEvents { get; private set; }

    /// <summary>EventSource manifests read whole (each sending counts).</summary>
    public int EventSourceManifests { get; private set; }

    public int SchemaCount => _manifest.Count + _classic.Count;
    public int MapCount => _maps.Count;

    /// <summary>Why MetaData events or EventSource manifests could not be used, or parts of them (the first 20).</summary>
    public IReadOnlyList<string> Errors => _errors;

    /// <summary>
    /// Learns from a MetaData event or an EventSource's ManifestData chunk; true when <paramref name="e"/> was one
    /// (a chunk that completes nothing, or could not be used, included).
    /// </summary>
    public bool Observe(in EtwEvent e)
    {
        if (e.Kind == RecordHeaderKind.EventHeader)
        {
            if (!EventSourceManifestAssembler.IsManifestEvent(e)) return false;
            if (e.ProviderId == ClrProviders.Runtime || e.ProviderId == ClrProviders.Rundown) return true;
            bool complete = _eventSourceChunks.TryAdd(e, out var manifest, out var chunkError);
            if (chunkError is not null) Error(e, chunkError);
            if (complete) AddEventSourceManifest(e, manifest);
            return true;
        }
        if (e.Kind is not (RecordHeaderKind.Classic or RecordHeaderKind.Instance) || e.ProviderId != KernelTraceControlIds.MetaDataTask) return false;
        if (e.Opcode == KernelTraceControlIds.EventInfo)
        {
            EventInfoEvents++;
            var info = TraceEventInfoParser.Parse(e.Payload, out var error);
            if (info is null) Error(e, error);
            else AddInfo(info);
            return true;
        }
        if (e.Opcode == KernelTraceControlIds.EventMapInfo)
        {
            EventMapInfoEvents++;
            var map = EventMapInfoParser.Parse(e.Payload, out var error);
            if (map is null) Error(e, error);
            else if (_maps.Count < MaxSchemas)
            {
                _maps[(map.Value.ProviderId, map.Value.Map.Name)] = map.Value.Map;
                _eventSourceMaps.Remove((map.Value.ProviderId, map.Value.Map.Name));
                ForgetLookups();
            }
            return true;
        }
        return false;
    }

    /// <summary>Adds a schema for manifest events (provider, id, version) unless an embedded one is known.</summary>
    public void Add(EventSchema schema)
    {
        if (_manifest.TryAdd((schema.ProviderId, schema.EventId, schema.Version), schema)) ForgetLookups();
    }

    /// <summary>The schema of a manifest event (provider + id + version) or of a classic event (event GUID + opcode + version).</summary>
    public bool TryGetSchema(in EtwEvent e, out EventSchema schema)
    {
        if (e.Kind == RecordHeaderKind.EventHeader) return TryGetSchema(e.ProviderId, e.EventId, e.Version, out schema);
        if (e.Kind is RecordHeaderKind.Classic or RecordHeaderKind.Instance)
            return _classic.TryGetValue((e.ProviderId, e.Opcode, e.Version), out schema!);
        schema = null!;
        return false;
    }

    public bool TryGetSchema(Guid providerId, ushort eventId, byte version, out EventSchema schema)
    {
        ref var cached = ref _schemaCache[(eventId ^ (version << 5) ^ providerId.GetHashCode()) & (CacheSize - 1)];
        if (cached.Filled && cached.EventId == eventId && cached.Version == version && cached.ProviderId == providerId)
        {
            schema = cached.Schema!;
            return schema is not null;
        }
        bool found = _manifest.TryGetValue((providerId, eventId, version), out schema!);
        cached = new SchemaCacheEntry(true, providerId, eventId, version, found ? schema : null);
        return found;
    }

    public ValueMap? FindMap(Guid providerId, string mapName)
    {
        // Map names come from the schema's fields, so the same string object asks again and again.
        ref var cached = ref _mapCache[(System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(mapName) ^ providerId.GetHashCode()) & (CacheSize - 1)];
        if (cached.Filled && ReferenceEquals(cached.Name, mapName) && cached.ProviderId == providerId) return cached.Map;
        var map = _maps.TryGetValue((providerId, mapName), out var found) ? found : null;
        cached = new MapCacheEntry(true, providerId, mapName, map);
        return map;
    }

    /// <summary>The provider's name, from any schema or manifest the trace embeds for it; null when none names it.</summary>
    public string? ProviderName(Guid providerId) => _providerNames.GetValueOrDefault(providerId);

    private void AddEventSourceManifest(in EtwEvent e, byte[] xml)
    {
        byte[] digest = SHA256.HashData(xml);
        if (_lastManifests.TryGetValue(e.ProviderId, out var last) && last.AsSpan().SequenceEqual(digest))
        {
            EventSourceManifests++;
            return;
        }
        var parsed = InstrumentationManifestParser.Parse(xml, out var error);
        if (parsed is null)
        {
            Error(e, $"EventSource manifest of {e.ProviderId}: {error}");
            return;
        }
        if (parsed.ProviderId != e.ProviderId)
        {
            Error(e, $"EventSource manifest logged by {e.ProviderId} describes provider {parsed.ProviderId}; not used");
            return;
        }
        EventSourceManifests++;
        _lastManifests[e.ProviderId] = digest;
        foreach (var problem in parsed.Problems) Error(e, $"EventSource manifest of {parsed.ProviderName}: {problem}");
        if (parsed.ProviderName.Length > 0) _providerNames.TryAdd(parsed.ProviderId, parsed.ProviderName);
        foreach (var schema in parsed.Schemas)
        {
            var key = (schema.ProviderId, schema.EventId, schema.Version);
            if (_manifest.TryGetValue(key, out var known) ? known.Source == SchemaSource.EventSourceManifest : SchemaCount < MaxSchemas)
                _manifest[key] = schema;
        }
        foreach (var map in parsed.Maps)
        {
            var key = (parsed.ProviderId, map.Name);
            if (_maps.ContainsKey(key) ? _eventSourceMaps.Contains(key) : _maps.Count < MaxSchemas)
            {
                _maps[key] = map;
                _eventSourceMaps.Add(key);
            }
        }
        ForgetLookups();
    }

    private void AddInfo(EventInfo info)
    {
        if (SchemaCount >= MaxSchemas) return;
        var s = info.Schema;
        if (s.ProviderName.Length > 0) _providerNames[s.ProviderId] = s.ProviderName;
        if (info.DecodingSource == DecodingSource.Wbem) _classic[(info.EventGuid, s.Opcode, s.Version)] = s;
        else _manifest[(s.ProviderId, s.EventId, s.Version)] = s;
        ForgetLookups();
    }

    private void ForgetLookups()
    {
        Array.Clear(_schemaCache);
        Array.Clear(_mapCache);
    }

    private readonly record struct SchemaCacheEntry(bool Filled, Guid ProviderId, ushort EventId, byte Version, EventSchema? Schema);

    private readonly record struct MapCacheEntry(bool Filled, Guid ProviderId, string? Name, ValueMap? Map);

    private void Error(in EtwEvent e, string? error)
    {
        if (_errors.Count < 20)
            _errors.Add(e.Kind == RecordHeaderKind.EventHeader
                ? $"offset 0x{e.FileOffset:X}: {error}"
                : $"offset 0x{e.FileOffset:X}: MetaData event {e.Opcode}: {error}");
    }
}
