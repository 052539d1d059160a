using HiddenCost.Etl;
using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Wmi;

namespace HiddenCost.TestSupport;

/// <summary>
/// Every typed decoder of the reader, each given the same event: for hostile-input tests and the fuzzer, where
/// any decoder may meet any payload. One list, so a decoder added to the reader is added here once.
/// </summary>
public static class EveryDecoder
{
    /// <summary>Runs every typed decoder on the event; returns how many took it (plus the frames copied).</summary>
    /// <param name="strings">Interns the decoded strings when given, as an analysis does; new strings otherwise.</param>
    /// <param name="frames">Where stack-walk frames are copied (only the first <c>frames.Length</c>).</param>
    public static long Decode(in EtwEvent e, StringPool? strings = null, ulong[]? frames = null)
    {
        long decoded = 0;
        if (ProcessEvent.TryDecode(e, out _, strings)) decoded++;
        if (ThreadEvent.TryDecode(e, out _)) decoded++;
        if (ThreadSetName.TryDecode(e, out _, strings)) decoded++;
        if (ImageEvent.TryDecode(e, out _, strings)) decoded++;
        if (ContextSwitch.TryDecode(e, out _)) decoded++;
        if (ReadyThread.TryDecode(e, out _)) decoded++;
        if (SampledProfile.TryDecode(e, out _)) decoded++;
        if (ProfileInterval.TryDecode(e, out _, strings)) decoded++;
        if (SystemCallEnter.TryDecode(e, out _)) decoded++;
        if (SystemCallExit.TryDecode(e, out _)) decoded++;
        if (StackWalkStack.TryDecode(e, out var stack)) decoded += stack.CopyFrames(e.Payload, frames ?? new ulong[8]);
        if (StackKeyDefinition.TryDecode(e, out var definition)) decoded += definition.CopyFrames(e.Payload, frames ?? new ulong[8]);
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
        if (WmiProviderInfo.TryDecode(e, out _, strings)) decoded++;
        if (WmiOperationEnd.TryDecode(e, out _)) decoded++;
        return decoded;
    }
}
