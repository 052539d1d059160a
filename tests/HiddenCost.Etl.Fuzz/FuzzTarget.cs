using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Wmi;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.State;

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
                sum += DecodeEverything(e, strings);
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

    /// <summary>Every typed decoder on the event (each refuses what is not its own).</summary>
    private static long DecodeEverything(in EtwEvent e, StringPool strings)
    {
        long decoded = 0;
        if (ProcessEvent.TryDecode(e, out _, strings)) decoded++;
        if (ThreadEvent.TryDecode(e, out _)) decoded++;
        if (ThreadSetName.TryDecode(e, out _, strings)) decoded++;
        if (ImageEvent.TryDecode(e, out _, strings)) decoded++;
        if (ContextSwitch.TryDecode(e, out _)) decoded++;
        if (ReadyThread.TryDecode(e, out _)) decoded++;
        if (ProfileInterval.TryDecode(e, out _, strings)) decoded++;
        if (SystemCallEnter.TryDecode(e, out _)) decoded++;
        if (SystemCallExit.TryDecode(e, out _)) decoded++;
        if (StackWalkStack.TryDecode(e, out var stack)) decoded += stack.CopyFrames(e.Payload, Frames);
        if (StackKeyDefinition.TryDecode(e, out var definition)) decoded += definition.CopyFrames(e.Payload, Frames);
        if (StackKeyReference.TryDecode(e, out _)) decoded++;
        if (FileIoName.TryDecode(e, out _, strings)) decoded++;
        if (FileIoCreate.TryDecode(e, out _, strings)) decoded++;
        if (FileIoSimpleOp.TryDecode(e, out _)) decoded++;
        if (FileIoReadWrite.TryDecode(e, out _)) decoded++;
        if (FileIoInfo.TryDecode(e, out _)) decoded++;
        if (FileIoDirEnum.TryDecode(e, out _, strings)) decoded++;
        if (FileIoOperationEnd.TryDecode(e, out _)) decoded++;
        if (PageFault.TryDecode(e, out _)) decoded++;
        if (HardFault.TryDecode(e, out _)) decoded++;
        if (RegistryEvent.TryDecode(e, out _, strings)) decoded++;
        if (ImageIdEvent.TryDecode(e, out _, strings)) decoded++;
        if (DbgIdRsds.TryDecode(e, out _, strings)) decoded++;
        if (VolumeMapping.TryDecode(e, out _)) decoded++;
        if (ClrMethod.TryDecode(e, out _, strings)) decoded++;
        if (ClrModule.TryDecode(e, out _, strings)) decoded++;
        if (ClrContentionStart.TryDecode(e, out _)) decoded++;
        if (ClrContentionStop.TryDecode(e, out _)) decoded++;
        if (RpcCallStart.TryDecode(e, out _, strings)) decoded++;
        if (RpcCallStop.TryDecode(e, out _)) decoded++;
        if (WmiOperationStart.TryDecode(e, out _, strings)) decoded++;
        if (WmiOperationEnd.TryDecode(e, out _)) decoded++;
        return decoded;
    }
}
