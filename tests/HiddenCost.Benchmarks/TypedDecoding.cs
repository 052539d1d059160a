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
/// The typed half of a full decode, as the analyses drive it: system state and stacks learn from every event,
/// every event goes through the typed decoder that knows it, CPU samples and events with stack items ask for
/// their stack, and EVENT_HEADER events are decoded field by field from their schema (TraceLogging or
/// embedded manifest) when one is known.
/// </summary>
internal sealed class TypedDecoding
{
    private readonly StringPool _strings = new();
    private readonly TraceState _state;
    private readonly StackCollector _stacks = new();
    private readonly GenericEventDecoder _generic = new();

    public TypedDecoding() => _state = new TraceState(_strings);

    public long Decoded { get; private set; }
    public long Fields { get; private set; }

    public void Visit(in EtwEvent e)
    {
        _state.Observe(e);
        if (_generic.Observe(e) || _stacks.Observe(e)) { Decoded++; return; }
        if (e.IsKernel ? DecodeKernel(e) : DecodeOther(e)) Decoded++;
    }

    public void Complete() => _stacks.Complete();

    private bool DecodeKernel(in EtwEvent e)
    {
        switch (e.Group)
        {
            case KernelGroups.PerfInfo:
                if (SampledProfile.TryDecode(e, out var sample)) { if (sample.ThreadId != 0) _stacks.Expect(e); return true; }
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
            default: return false;
        }
    }

    private bool DecodeOther(in EtwEvent e)
    {
        if (e.Kind != RecordHeaderKind.EventHeader)
            return DbgIdRsds.TryDecode(e, out _, _strings) || ImageIdEvent.TryDecode(e, out _, _strings) || VolumeMapping.TryDecode(e, out _);
        if (ClrMethod.TryDecode(e, out _, _strings) || ClrModule.TryDecode(e, out _, _strings)
            || ClrContentionStart.TryDecode(e, out _) || ClrContentionStop.TryDecode(e, out _)
            || RpcCallStart.TryDecode(e, out _, _strings) || RpcCallStop.TryDecode(e, out _)
            || WmiOperationStart.TryDecode(e, out _, _strings) || WmiOperationEnd.TryDecode(e, out _))
            return true;
        foreach (var item in new ExtendedData(e.ExtendedData))
            if (item.Type is ExtendedDataType.StackTrace64 or ExtendedDataType.StackTrace32) _stacks.Expect(e);
        var counter = new FieldCounter();
        var status = _generic.Decode(e, ref counter);
        Fields += counter.Count;
        return status is DecodeStatus.Complete or DecodeStatus.Truncated;
    }

    private struct FieldCounter : IEventFieldVisitor
    {
        public int Count;

        public bool Visit(in EventField field)
        {
            Count++;
            return true;
        }
    }
}
