using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Wmi;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>
/// Every kind of event a typed decoder reads, spelled out from the decoders' <c>Matches</c>: what the hostile-input
/// and <c>TypedDecoders</c> tests feed the decoders.
/// </summary>
internal static class DecodedKinds
{
    public static readonly (byte Group, byte[] Opcodes)[] Kernel =
    [
        (KernelGroups.Process, [1, 2, 3, 4, 39]),
        (KernelGroups.Thread, [1, 2, 3, 4, 36, 50, 72]),
        (KernelGroups.Image, [2, 3, 4, 10]),
        (KernelGroups.PerfInfo, [46, 51, 52, 72, 73, 74]),
        (KernelGroups.StackWalk, [32, 34, 35, 36, 37, 38]),
        (KernelGroups.FileIo, [0, 32, 35, 36, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77]),
        (KernelGroups.PageFault, [10, 11, 12, 13, 14, 15, 32]),
        (KernelGroups.Registry, [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]),
    ];

    public static readonly (Guid Provider, ushort[] Ids)[] Providers =
    [
        (ClrProviders.Runtime, [ClrProviders.ContentionStartId, ClrProviders.ContentionStopId, ClrProviders.MethodLoadVerboseId,
            ClrProviders.MethodUnloadVerboseId, ClrProviders.ModuleLoadId, ClrProviders.ModuleUnloadId]),
        (ClrProviders.Rundown, [ClrProviders.MethodDCStartVerboseId, ClrProviders.MethodDCEndVerboseId, ClrProviders.ModuleDCStartId,
            ClrProviders.ModuleDCEndId]),
        (RpcProvider.Id, [RpcProvider.ClientCallStart, RpcProvider.ServerCallStart, RpcProvider.ClientCallStop, RpcProvider.ServerCallStop]),
        (WmiActivityProvider.Id, [WmiActivityProvider.OperationStart, WmiActivityProvider.ProviderInfo, WmiActivityProvider.OperationEnd]),
    ];

    /// <summary>Classic events (KernelTraceControl's, added at merge) by task GUID and opcode.</summary>
    public static readonly (Guid Task, byte Opcode)[] Classic =
    [
        (KernelTraceControlIds.ImageIdTask, KernelTraceControlIds.ImageId),
        (KernelTraceControlIds.ImageIdTask, KernelTraceControlIds.DbgIdRsds),
        (KernelTraceControlIds.SystemConfigExTask, KernelTraceControlIds.VolumeMapping),
    ];
}
