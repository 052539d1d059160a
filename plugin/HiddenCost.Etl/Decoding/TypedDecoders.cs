using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Wmi;

namespace HiddenCost.Etl.Decoding;

/// <summary>
/// Every typed decoder of this library, asked about one event at a time. A decoder gives up on an event of its kind
/// whose payload is shorter than the layout it reads, and whoever asked leaves the event out. Recorders do not write
/// such events, so one seen here means damage the buffer checks could not see, and a table that read none of a kind
/// it found in the trace would otherwise look like a recording that lacked it. Process and registry events older than
/// version 2 (Windows XP's layouts, which the decoders do not read) are well formed: they are not counted here.
/// </summary>
public static class TypedDecoders
{
    /// <summary>
    /// True when a typed decoder reads events of this kind and version and cannot decode this one. Asks the decoders
    /// themselves, so what is counted here is exactly what every table that reads the kind leaves out. The frequent
    /// kinds (CPU samples, stack keys, and those whose decoders read names) ask the decoder's <c>Fits</c>, the check
    /// its TryDecode makes, so that the event is not read, nor its names interned, a second time for nothing.
    /// </summary>
    /// <param name="strings">Where the decoders that read names keep them (the pass's pool: no string is made twice).</param>
    public static bool Rejects(in EtwEvent e, StringPool strings)
    {
        if (e.IsKernel)
        {
            return e.Group switch
            {
                KernelGroups.Thread => ContextSwitch.Matches(e) ? !ContextSwitch.TryDecode(e, out _)
                    : ReadyThread.Matches(e) ? !ReadyThread.TryDecode(e, out _)
                    : ThreadEvent.Matches(e) ? !ThreadEvent.TryDecode(e, out _)
                    : ThreadSetName.Matches(e) && !ThreadSetName.TryDecode(e, out _, strings),
                // CPU samples first: the most frequent events of most traces (the kinds' opcodes differ, so order is free).
                KernelGroups.PerfInfo => SampledProfile.Matches(e) ? !SampledProfile.Fits(e)
                    : SystemCallEnter.Matches(e) ? !SystemCallEnter.TryDecode(e, out _)
                    : SystemCallExit.Matches(e) ? !SystemCallExit.TryDecode(e, out _)
                    : ProfileInterval.Matches(e) && !ProfileInterval.TryDecode(e, out _, strings),
                KernelGroups.FileIo => FileIoRejects(e, strings),
                KernelGroups.Process => e.Version >= 2 && ProcessEvent.Matches(e) && !ProcessEvent.TryDecode(e, out _, strings),
                KernelGroups.Image => ImageEvent.Matches(e) && !ImageEvent.Fits(e),
                KernelGroups.PageFault => PageFault.Matches(e) ? !PageFault.TryDecode(e, out _)
                    : HardFault.Matches(e) && !HardFault.TryDecode(e, out _),
                KernelGroups.Registry => e.Version >= 2 && RegistryEvent.Matches(e) && !RegistryEvent.TryDecode(e, out _, strings),
                KernelGroups.StackWalk => StackWalkStack.Matches(e) ? !StackWalkStack.TryDecode(e, out _)
                    : StackKeyDefinition.Matches(e) ? !StackKeyDefinition.TryDecode(e, out _)
                    : StackKeyReference.Matches(e) && !StackKeyReference.Fits(e),
                _ => false,
            };
        }
        if (e.Kind == Records.RecordHeaderKind.EventHeader)
        {
            // Each decoder matches one provider's events: the provider picks the few to ask (most manifest events are
            // of none of them, and each Matches would compare it again).
            var provider = e.ProviderId;
            if (provider == ClrProviders.Runtime || provider == ClrProviders.Rundown)
                return ClrContentionStart.Matches(e) ? !ClrContentionStart.TryDecode(e, out _)
                    : ClrContentionStop.Matches(e) ? !ClrContentionStop.TryDecode(e, out _)
                    : ClrMethod.Matches(e) ? !ClrMethodView.Fits(e)
                    : ClrModule.Matches(e) && !ClrModule.TryDecode(e, out _, strings);
            if (provider == RpcProvider.Id)
                return RpcCallStart.Matches(e) ? !RpcCallStart.TryDecode(e, out _, strings)
                    : RpcCallStop.Matches(e) && !RpcCallStop.TryDecode(e, out _);
            if (provider == WmiActivityProvider.Id)
                return WmiOperationStart.Matches(e) ? !WmiOperationStart.TryDecode(e, out _, strings)
                    : WmiProviderInfo.Matches(e) ? !WmiProviderInfo.TryDecode(e, out _, strings)
                    : WmiOperationEnd.Matches(e) && !WmiOperationEnd.TryDecode(e, out _);
            return false;
        }
        return ImageIdEvent.Matches(e) ? !ImageIdEvent.Fits(e)
            : DbgIdRsds.Matches(e) ? !DbgIdRsds.Fits(e)
            : VolumeMapping.Matches(e) && !VolumeMapping.TryDecode(e, out _);
    }

    private static bool FileIoRejects(in EtwEvent e, StringPool strings) =>
        FileIoName.Matches(e) ? !FileIoName.Fits(e)
        : FileIoCreate.Matches(e) ? !FileIoCreate.TryDecode(e, out _, strings)
        : FileIoReadWrite.Matches(e) ? !FileIoReadWrite.TryDecode(e, out _)
        : FileIoSimpleOp.Matches(e) ? !FileIoSimpleOp.TryDecode(e, out _)
        : FileIoInfo.Matches(e) ? !FileIoInfo.TryDecode(e, out _)
        : FileIoDirEnum.Matches(e) ? !FileIoDirEnum.TryDecode(e, out _, strings)
        : FileIoOperationEnd.Matches(e) && !FileIoOperationEnd.TryDecode(e, out _);
}
