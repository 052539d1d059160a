using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Decoding.Clr;

/// <summary>The .NET runtime's providers and the event ids we decode. Ids overlap between the two providers.</summary>
public static class ClrProviders
{
    /// <summary>Microsoft-Windows-DotNETRuntime.</summary>
    public static readonly Guid Runtime = new("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    /// <summary>Microsoft-Windows-DotNETRuntimeRundown.</summary>
    public static readonly Guid Rundown = new("a669021c-c450-4609-a035-5af59af4df18");

    // Runtime provider.
    public const ushort ContentionStartId = 81, ContentionStopId = 91, MethodLoadVerboseId = 143, MethodUnloadVerboseId = 144,
        ModuleLoadId = 152, ModuleUnloadId = 153;

    // Rundown provider.
    public const ushort MethodDCStartVerboseId = 143, MethodDCEndVerboseId = 144, ModuleDCStartId = 153, ModuleDCEndId = 154;

    internal static bool IsRuntime(in EtwEvent e, ushort id) => e.Kind == RecordHeaderKind.EventHeader && e.EventId == id && e.ProviderId == Runtime;
    internal static bool IsRundown(in EtwEvent e, ushort id) => e.Kind == RecordHeaderKind.EventHeader && e.EventId == id && e.ProviderId == Rundown;
}
