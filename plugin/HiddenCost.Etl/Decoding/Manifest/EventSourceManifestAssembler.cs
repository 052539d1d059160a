using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Decoding.Manifest;

/// <summary>
/// Puts together the instrumentation manifests that EventSources log about themselves: event 0xFFFE, opcode 254
/// (ManifestData), whose payload is an envelope — u8 Format (1: UTF-8 XML); u8 MajorVersion; u8 MinorVersion;
/// u8 Magic (0x5B); u16 TotalChunks; u16 ChunkNumber — and then one chunk of the manifest. An EventSource logs
/// its manifest when a session enables it (and again at the next enable), in chunks in order from one thread, so a
/// manifest is complete when every chunk of one sending has come. Every process using an EventSource (the TPL's,
/// the framework's) sends it under the same provider id, at the same enable, so chunks are put together per
/// provider, process and thread, as TraceEvent does. Memory is bounded whatever the envelopes claim.
/// </summary>
public sealed class EventSourceManifestAssembler
{
    public const ushort ManifestEventId = 0xFFFE;
    public const byte ManifestOpcode = 254;
    private const int EnvelopeSize = 8;
    private const byte XmlFormat = 1, Magic = 0x5B;
    private const int MaxPending = 64;
    private const long MaxPendingBytes = 32L << 20;

    // Chunks of manifests not yet complete, per sender (an EventSource's chunks of one sending follow each other).
    private readonly Dictionary<(Guid Provider, int ProcessId, int ThreadId), Pending> _pending = new();
    private long _pendingBytes;
    private long _sendings;

    /// <summary>Whether <paramref name="e"/> is an EventSource ManifestData event.</summary>
    public static bool IsManifestEvent(in EtwEvent e) =>
        e.Kind == RecordHeaderKind.EventHeader && e.EventId == ManifestEventId && e.Opcode == ManifestOpcode;

    /// <summary>
    /// Takes one ManifestData event's chunk. True with the whole manifest (UTF-8 XML) when this chunk completed one;
    /// false otherwise. <paramref name="error"/> says why when the chunk could not be used, or when an incomplete
    /// manifest was dropped to make room for it. When incomplete manifests
    /// reach their bounds, the one started longest ago gives way (a sender that exited or lost events mid-sending
    /// never completes its manifest), as TraceEvent forgets partial manifests after a while.
    /// </summary>
    public bool TryAdd(in EtwEvent e, out byte[] manifest, out string? error)
    {
        manifest = Array.Empty<byte>();
        error = null;
        var p = e.Payload;
        if (p.Length <= EnvelopeSize)
        {
            error = $"ManifestData payload is {p.Length} bytes: an {EnvelopeSize}-byte envelope and a chunk expected";
            return false;
        }
        if (p[0] != XmlFormat || p[3] != Magic)
        {
            error = $"ManifestData envelope has format {p[0]} and magic 0x{p[3]:X2}, not an XML manifest (1, 0x5B)";
            return false;
        }
        int total = PayloadReader.U16(p, 4), number = PayloadReader.U16(p, 6);
        if (number >= total)
        {
            error = $"ManifestData chunk {number} of {total}";
            return false;
        }
        var sender = (e.ProviderId, e.ProcessId, e.ThreadId);
        var chunk = p[EnvelopeSize..];
        // A first chunk starts a sending afresh (a manifest sent again, or one whose end was lost).
        if (number == 0) Drop(sender);
        if (!_pending.TryGetValue(sender, out var pending))
        {
            if (number != 0)
            {
                error = $"ManifestData chunk {number} of {total} without the chunks before it";
                return false;
            }
            if (total == 1)
            {
                manifest = chunk.ToArray();
                return true;
            }
            if (_pending.Count >= MaxPending) error = DropOldest($"more than {MaxPending} EventSource manifests incomplete at once");
            _pending[sender] = pending = new Pending(total, p[1], p[2], ++_sendings);
        }
        if (number != pending.Next || total != pending.Total || p[1] != pending.Major || p[2] != pending.Minor)
        {
            Drop(sender);
            error = $"ManifestData chunk {number} of {total} (version {p[1]}.{p[2]}) where chunk {pending.Next} of {pending.Total} (version {pending.Major}.{pending.Minor}) was due; manifest dropped";
            return false;
        }
        if (pending.Bytes.Length + chunk.Length > InstrumentationManifestParser.MaxBytes)
        {
            Drop(sender);
            error = $"EventSource manifest grows beyond {InstrumentationManifestParser.MaxBytes:N0} bytes; dropped";
            return false;
        }
        while (_pendingBytes + chunk.Length > MaxPendingBytes && _pending.Count > 1)
            error = DropOldest($"incomplete EventSource manifests hold more than {MaxPendingBytes:N0} bytes", except: pending);
        pending.Bytes.Write(chunk);
        _pendingBytes += chunk.Length;
        pending.Next++;
        if (pending.Next < pending.Total) return false;
        Drop(sender);
        manifest = pending.Bytes.ToArray();
        return true;
    }

    private void Drop((Guid, int, int) sender)
    {
        if (_pending.Remove(sender, out var dropped)) _pendingBytes -= dropped.Bytes.Length;
    }

    /// <summary>Drops the incomplete manifest started longest ago (other than <paramref name="except"/>) and says so.</summary>
    private string DropOldest(string why, Pending? except = null)
    {
        var oldest = _pending.Where(p => p.Value != except).MinBy(p => p.Value.Sending);
        Drop(oldest.Key);
        return $"{why}: the manifest of {oldest.Key.Provider} that process {oldest.Key.ProcessId} (thread {oldest.Key.ThreadId}) began sending first, " +
            $"still incomplete at chunk {oldest.Value.Next} of {oldest.Value.Total}, dropped";
    }

    private sealed class Pending
    {
        public Pending(int total, byte major, byte minor, long sending) => (Total, Major, Minor, Sending) = (total, major, minor, sending);

        /// <summary>The order in which sendings began.</summary>
        public long Sending { get; }

        public int Total { get; }
        public byte Major { get; }
        public byte Minor { get; }
        public int Next { get; set; }
        public MemoryStream Bytes { get; } = new();
    }
}
