using HiddenCost.Etl;

namespace HiddenCost.Analysis.Catalogs;

/// <summary>
/// The kernel event a WPR SystemProvider <c>Stack</c> value puts stacks on (values spelled as in
/// WPRControlProfiles.xsd, events as ntwmi.h numbers them), for the values the requirement catalogue uses: so
/// Trace Readiness can tell "stacks on CPU samples" from "some stacks somewhere".
/// </summary>
public static class WprStackEvents
{
    private static readonly Dictionary<string, (byte Group, byte Opcode)> Events = new(StringComparer.Ordinal)
    {
        ["SampledProfile"] = (KernelGroups.PerfInfo, 46),
        ["SystemCallEnter"] = (KernelGroups.PerfInfo, 51),
        ["CSwitch"] = (KernelGroups.Thread, 36),
        ["ReadyThread"] = (KernelGroups.Thread, 50),
        ["FileDirNotify"] = (KernelGroups.FileIo, 77),
        ["PagefaultDemandZero"] = (KernelGroups.PageFault, 11),
        ["RegistryOpenKey"] = (KernelGroups.Registry, 11),
        ["RegistryQueryKey"] = (KernelGroups.Registry, 13),
        ["RegistryQueryValue"] = (KernelGroups.Registry, 16),
        ["RegistryEnumerateKey"] = (KernelGroups.Registry, 17),
        ["RegistryEnumerateValueKey"] = (KernelGroups.Registry, 18),
    };

    /// <summary>The kernel event (group byte, opcode) that <paramref name="stackValue"/> puts stacks on, or null when not listed here.</summary>
    public static (byte Group, byte Opcode)? Of(string stackValue) => Events.TryGetValue(stackValue, out var e) ? e : null;
}
