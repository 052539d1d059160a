using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.State;
using HiddenCost.TestSupport;

namespace HiddenCost.Etl.Fuzz;

/// <summary>
/// What one fuzzer input goes through: open it as a trace and read every event the way an analysis does — every
/// typed decoder, the generic decoder (embedded schemas and TraceLogging metadata learned from the input itself),
/// the system state and the stack collector, then a stack and a frame resolved per CPU sample — and finally the
/// header-only walk. Rejection with <see cref="EtlFormatException"/> is a fine answer; any other exception
/// escapes, and the fuzzer records the input as a crash.
/// </summary>
internal static class FuzzTarget
{
    public enum Result { Rejected, Read }

    private static readonly ulong[] Frames = new ulong[64];

    public static Result Run(byte[] input)
    {
        EtlReader reader;
        try
        {
            reader = EtlReader.Open(input, "fuzz-input.etl");
        }
        catch (EtlFormatException)
        {
            return Result.Rejected;
        }
        using (reader)
        {
            var strings = new StringPool();
            var state = new TraceState(strings);
            var stacks = new StackCollector();
            var files = new FileNames();
            var keys = new RegistryKeyNames();
            var generic = new GenericEventDecoder();
            var samples = new List<(int Ticket, int ProcessId, long TimeNs)>();
            long sum = 0;
            foreach (var e in reader.ReadEvents())
            {
                var payload = e.Payload;
                sum += e.TimeNs + e.ThreadId + e.ProcessId + e.Cpu + payload.Length + e.ExtendedData.Length;
                if (payload.Length > 0) sum += payload[0] + payload[^1];
                state.Observe(e);
                files.Observe(e);
                keys.Observe(e);
                if (stacks.Observe(e) || generic.Observe(e)) continue;
                if (SampledProfile.TryDecode(e, out _)) samples.Add((stacks.Expect(e), e.ProcessId, e.TimeNs));
                long decoded = EveryDecoder.Decode(e, strings, Frames);
                // The kinds are disjoint: an event its decoder refuses is one no other decoder takes.
                if (TypedDecoders.Rejects(e, strings) && decoded > 0)
                    throw new InvalidOperationException($"an event rejected as undecodable was decoded: {e.Group}/{e.Opcode} {e.ProviderId} {e.EventId}");
                sum += decoded;
                if (generic.DecodeToList(e, out _, out _) is { } fields) sum += fields.Count;
            }
            stacks.Complete();
            foreach (var (ticket, processId, timeNs) in samples)
            {
                var frames = stacks.Store.GetFrames(stacks.StackOf(ticket));
                for (int i = 0; i < frames.Count && i < 4; i++) sum += state.ResolveFrame(processId, frames[i], timeNs).ToString().Length;
            }
            sum += reader.CountRecordsInFileOrder();
            GC.KeepAlive(sum);
            return Result.Read;
        }
    }
}
