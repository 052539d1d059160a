using HiddenCost.Etl;
using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Decoding.Wmi;
using HiddenCost.Etl.Records;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.State;

namespace HiddenCost.Benchmarks;

/// <summary>
/// Typed decode of every event, in one of two modes.
/// <list type="bullet">
/// <item><b>decode</b> (issue 5's "full decode"): every event goes through the typed decoder that knows it (kernel,
/// FileIo, registry, KernelTraceControl, CLR, RPC, WMI, StackWalk with its frames, EVENT_HEADER stack items),
/// and every other EVENT_HEADER event is decoded field by field from its TraceLogging or embedded-manifest
/// schema (an array of fixed-size values in one visit). Strings are read into new strings, as a decoder called
/// without a pool gives them, except CLR method names, which are read as views over the payload
/// (<see cref="ClrMethodView"/>), as the analyses read them; schema-decoded strings are views too.</item>
/// <item><b>session</b>: what one analysis run does on top (HiddenCost.Analysis's TraceSession): system state and
/// the stack collector learn from every event, CPU samples and events with stack items ask for their stack, and
/// the decoders intern their strings in the session's pool — so the names the state keeps are built once.</item>
/// </list>
/// </summary>
internal sealed class TypedDecoding
{
    private readonly StringPool? _strings;
    private readonly TraceState? _state;
    private readonly StackCollector? _stacks;
    private readonly GenericEventDecoder _generic = new();
    private readonly ulong[] _frames = new ulong[256];

    private TypedDecoding(bool session)
    {
        if (!session) return;
        _strings = new StringPool();
        _state = new TraceState(_strings);
        _stacks = new StackCollector();
    }

    public static TypedDecoding Decode() => new(session: false);

    public static TypedDecoding Session() => new(session: true);

    public long Decoded { get; private set; }
    public long Values { get; private set; }

    public void Visit(in EtwEvent e)
    {
        if (_state is not null)
        {
            _state.Observe(e);
            if (_stacks!.Observe(e)) { Decoded++; return; } // StackWalk events: decoded and matched by the collector
        }
        if (_generic.Observe(e)) { Decoded++; return; }
        if (e.IsKernel ? DecodeKernel(e) : DecodeOther(e)) Decoded++;
    }

    public void Complete() => _stacks?.Complete();

    private bool DecodeKernel(in EtwEvent e)
    {
        switch (e.Group)
        {
            case KernelGroups.PerfInfo:
                if (SampledProfile.TryDecode(e, out var sample)) { if (sample.ThreadId != 0) _stacks?.Expect(e); return true; }
                return SystemCallEnter.TryDecode(e, out _) || SystemCallExit.TryDecode(e, out _) || ProfileInterval.TryDecode(e, out _, _strings);
            case KernelGroups.Process: return ProcessEvent.TryDecode(e, out _, _strings);
            case KernelGroups.Thread:
                return ThreadEvent.TryDecode(e, out _) || ContextSwitch.TryDecode(e, out _) || ReadyThread.TryDecode(e, out _) || ThreadSetName.TryDecode(e, out _, _strings);
            case KernelGroups.Image: return ImageEvent.TryDecode(e, out _, _strings);
            case KernelGroups.FileIo:
                return FileIoName.TryDecode(e, out _, _strings) || FileIoCreate.TryDecode(e, out _, _strings) || FileIoReadWrite.TryDecode(e, out _)
                    || FileIoDirEnum.TryDecode(e, out _, _strings) || FileIoInfo.TryDecode(e, out _) || FileIoOperationEnd.TryDecode(e, out _) || FileIoSimpleOp.TryDecode(e, out _);
            case KernelGroups.PageFault: return PageFault.TryDecode(e, out _) || HardFault.TryDecode(e, out _);
            case KernelGroups.Registry: return RegistryEvent.TryDecode(e, out _, _strings);
            case KernelGroups.StackWalk: return DecodeStackWalk(e);
            default: return false;
        }
    }

    /// <summary>Stack events decoded with their frames (the session's collector does this itself).</summary>
    private bool DecodeStackWalk(in EtwEvent e)
    {
        if (StackWalkStack.TryDecode(e, out var stack)) Values += stack.CopyFrames(e.Payload, _frames);
        else if (StackKeyDefinition.TryDecode(e, out var definition)) Values += definition.CopyFrames(e.Payload, _frames);
        else if (StackKeyReference.TryDecode(e, out var reference)) Values += (long)(reference.Key & 1);
        else return false;
        return true;
    }

    private bool DecodeOther(in EtwEvent e)
    {
        if (e.Kind != RecordHeaderKind.EventHeader)
            return DbgIdRsds.TryDecode(e, out _, _strings) || ImageIdEvent.TryDecode(e, out _, _strings) || VolumeMapping.TryDecode(e, out _);
        foreach (var item in new ExtendedData(e.ExtendedData))
            if (item.Type is ExtendedDataType.StackTrace64 or ExtendedDataType.StackTrace32)
            {
                if (_stacks is not null) _stacks.Expect(e);
                else Values += (item.Data.Length - 8) / (item.Type == ExtendedDataType.StackTrace64 ? 8 : 4); // MatchId, then frames
            }
        // One look at the provider picks the typed decoders that may know the event, as a consumer's dispatch would,
        // rather than asking every decoder in turn to compare its provider GUID.
        var provider = e.ProviderId;
        if (provider == ClrProviders.Runtime || provider == ClrProviders.Rundown)
        {
            if (DecodeMethod(e) || ClrModule.TryDecode(e, out _, _strings)
                || ClrContentionStart.TryDecode(e, out _) || ClrContentionStop.TryDecode(e, out _))
                return true;
        }
        else if (provider == RpcProvider.Id)
        {
            if (RpcCallStart.TryDecode(e, out _, _strings) || RpcCallStop.TryDecode(e, out _)) return true;
        }
        else if (provider == WmiActivityProvider.Id)
        {
            if (WmiOperationStart.TryDecode(e, out _, _strings) || WmiProviderInfo.TryDecode(e, out _, _strings) || WmiOperationEnd.TryDecode(e, out _)) return true;
        }
        var counter = new FieldCounter();
        var status = _generic.Decode(e, ref counter, wholeArrays: true);
        Values += counter.Count;
        return status is DecodeStatus.Complete or DecodeStatus.Truncated;
    }

    /// <summary>
    /// Method loads and rundowns (most of a managed trace's events with strings) as the analyses read them: every
    /// field decoded, the three names as views over the payload, none copied out (the system state builds one name
    /// of its own for each method it adds, and a rundown mostly repeats methods already known).
    /// </summary>
    private bool DecodeMethod(in EtwEvent e)
    {
        if (!ClrMethodView.TryDecode(e, out var method)) return false;
        Values += method.MethodNamespace.Length + method.MethodName.Length + method.MethodSignature.Length;
        return true;
    }

    private struct FieldCounter : IEventFieldVisitor
    {
        public int Count;

        public bool Visit(in EventField field)
        {
            Count += field.ElementCount;
            return true;
        }
    }
}
