using System.Collections.Concurrent;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Decoding.TraceLogging;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.State;
using HiddenCost.TestSupport;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>
/// One decoding pass over a real sample, shared by the tests that assert on it (the CPU here is scarce):
/// every typed decoder, the state, the stack collector (tickets for non-idle CPU samples and for every
/// EVENT_HEADER event with a stack item) and the generic decoder.
/// </summary>
internal sealed class SampleScan
{
    private static readonly ConcurrentDictionary<string, Lazy<SampleScan>> Cache = new();

    public Dictionary<string, int> Counts { get; } = new();
    public TraceState State { get; } = new();
    public StackCollector Stacks { get; } = new();
    public GenericEventDecoder Generic { get; } = new();
    public List<(int Ticket, int ThreadId, long TimeNs)> SampleTickets { get; } = new();
    public List<DecodedEvent> TraceLoggingEvents { get; } = new();
    public List<DecodedEvent> EmbeddedSchemaEvents { get; } = new();
    public List<DecodedEvent> EventSourceEvents { get; } = new();
    public List<ProcessEvent> ProcessEvents { get; } = new();
    public List<ClrMethod> MainMethods { get; } = new();
    public List<DbgIdRsds> Rsds { get; } = new();
    public List<ProfileInterval> Intervals { get; } = new();
    public List<HardFault> HardFaults { get; } = new();
    public List<ClrModule> Modules { get; } = new();
    public HashSet<Guid> ManifestProvidersWithoutSchema { get; } = new();

    public sealed record DecodedEvent(Guid Provider, ushort Id, int ProcessId, long TimeNs, EventSchema Schema, IReadOnlyList<DecodedField> Fields, DecodeStatus Status, int StackTicket);

    public static SampleScan Of(string sample) =>
        Cache.GetOrAdd(sample, s => new Lazy<SampleScan>(() => Run(SharedFolder.EtlSample(s)))).Value;

    public int Count(string key) => Counts.TryGetValue(key, out var n) ? n : 0;

    private void Inc(string key) => Counts[key] = Count(key) + 1;

    private static SampleScan Run(string path)
    {
        var scan = new SampleScan();
        using var reader = EtlReader.Open(path);
        foreach (var e in reader.ReadEvents())
        {
            scan.State.Observe(e);
            if (scan.Generic.Observe(e))
            {
                // MetaData events are classic events of their own; an EventSource's ManifestData is one of its events.
                if (e.Kind != Records.RecordHeaderKind.EventHeader) { scan.Inc("MetaData"); continue; }
                scan.Inc("ManifestData");
            }
            if (scan.Stacks.Observe(e))
            {
                if (StackWalkStack.TryDecode(e, out _)) scan.Inc("StackWalk/Stack");
                else if (StackKeyReference.TryDecode(e, out var r)) scan.Inc(r.IsUser ? "StackWalk/StackKeyUser" : "StackWalk/StackKeyKernel");
                else if (StackKeyDefinition.TryDecode(e, out var d)) scan.Inc($"StackWalk/KeyDefinition{d.Opcode}");
                continue;
            }
            scan.Decode(e);
        }
        scan.Stacks.Complete();
        return scan;
    }

    private void Decode(in EtwEvent e)
    {
        if (e.IsKernel)
        {
            if (ProcessEvent.TryDecode(e, out var p)) { Inc($"Process/{p.Opcode}"); ProcessEvents.Add(p); }
            else if (ThreadEvent.TryDecode(e, out var t)) Inc($"Thread/{t.Opcode}");
            else if (ThreadSetName.TryDecode(e, out _)) Inc("Thread/SetName");
            else if (ImageEvent.TryDecode(e, out var i)) Inc($"Image/{i.Opcode}");
            else if (SampledProfile.TryDecode(e, out var s))
            {
                Inc("PerfInfo/SampledProfile");
                if (s.ThreadId != 0) SampleTickets.Add((Stacks.Expect(e), s.ThreadId, e.TimeNs));
            }
            else if (ProfileInterval.TryDecode(e, out var interval)) Intervals.Add(interval);
            else if (FileIoName.TryDecode(e, out var f)) Inc($"FileIo/{f.Opcode}");
            else if (HardFault.TryDecode(e, out var h)) HardFaults.Add(h);
            return;
        }
        if (DbgIdRsds.TryDecode(e, out var rsds)) { Rsds.Add(rsds); return; }
        if (ImageIdEvent.TryDecode(e, out _)) { Inc("ImageId"); return; }
        if (ClrMethod.TryDecode(e, out var m))
        {
            Inc($"ClrMethod/{m.Kind}");
            if (m.FullName == "Test.Program.Main") MainMethods.Add(m);
        }
        if (ClrModule.TryDecode(e, out var module)) Modules.Add(module);
        if (e.Kind != Records.RecordHeaderKind.EventHeader) return;
        Inc("EventHeader");
        bool traceLogging = TraceLoggingDecoder.IsTraceLogging(e);
        int ticket = -1;
        foreach (var item in new Etl.Decoding.ExtendedData(e.ExtendedData))
            if (item.Type is Etl.Decoding.ExtendedDataType.StackTrace64 or Etl.Decoding.ExtendedDataType.StackTrace32) { Inc("ExtendedStackItem"); ticket = Stacks.Expect(e); }
        var fields = Generic.DecodeToList(e, out var schema, out var status);
        if (fields is null)
        {
            if (!EventSourceManifestAssembler.IsManifestEvent(e)) ManifestProvidersWithoutSchema.Add(e.ProviderId);
            return;
        }
        var decoded = new DecodedEvent(e.ProviderId, e.EventId, e.ProcessId, e.TimeNs, schema!, fields, status, ticket);
        if (traceLogging) TraceLoggingEvents.Add(decoded);
        else if (e.ProviderId == KernelFileProvider) EmbeddedSchemaEvents.Add(decoded);
        else if (schema!.Source == SchemaSource.EventSourceManifest) EventSourceEvents.Add(decoded);
    }

    public static readonly Guid KernelFileProvider = new("edd08927-9cc4-4e65-b970-c2560fb5c289");
}
